"""MergeScope: watch a byte-level BPE tokenizer learn, merge by merge."""

import streamlit as st

st.set_page_config(page_title="MergeScope", page_icon="🔬", layout="wide")
st.title("MergeScope")
st.write("Watch a byte-level BPE tokenizer learn, merge by merge, on your own text.")
