"""Welcome: what MergeScope shows, what each page does, how to start (the whole page is here)."""

import streamlit as st

from mergescope_ui.shared.html.tokens import token_spans_html
from mergescope_ui.shared.workers.cache import corpus_index

# "low lowest" after two merges (lo, low): a tiny taste of the colored spans.
_DEMO_VOCAB = {
    108: b"l",
    111: b"o",
    119: b"w",
    101: b"e",
    115: b"s",
    116: b"t",
    32: b" ",
    256: b"lo",
    257: b"low",
}
_DEMO_IDS = [257, 32, 257, 101, 115, 116]

st.title("🔬 MergeScope")
st.markdown(
    "#### Watch a byte-level BPE tokenizer learn, merge by merge, on any text.\n"
    "Byte-pair encoding starts from the 256 possible bytes. At every step it counts each pair of "
    "adjacent tokens in the text, merges the **most frequent pair** into one new token, and "
    "repeats. That is how GPT-style tokenizers learn their vocabulary."
)
links = st.columns(3)
links[0].page_link("pages/views/train.py", label="Start training", icon="▶️")
links[1].page_link("pages/views/tokenize_page.py", label="Paste text, see tokens", icon="🔤")
links[2].page_link("pages/views/vocab-lab.py", label="Vocab size vs compression", icon="🧪")
st.subheader("What you will see at every step")
left, right = st.columns([1.2, 1], gap="large")
with left:
    st.markdown(
        "- the **pair-count chart**: which pairs are most frequent, the chosen one highlighted, "
        "ties marked and explained by the tie rule;\n"
        "- the **new token**: its id, its bytes, how often the pair was counted and how many "
        "occurrences were actually replaced;\n"
        "- the **sequence before and after**, as colored tokens (hover for id and bytes) with the "
        "new token outlined;\n"
        "- running figures: vocabulary size, corpus tokens, bytes per token;\n"
        "- every merge so far (downloadable as CSV), the longest tokens, and tokens that cross a "
        "word boundary."
    )
with right:
    st.caption("`low lowest` after two merges (`l`+`o`, `lo`+`w`); grey = single bytes, ␣ = a space")
    st.html(token_spans_html(_DEMO_IDS, _DEMO_VOCAB, emphasize=[0, 2]))
st.subheader("In class")
st.markdown(
    "- Turn on **Presenter mode** in the sidebar for text that reads from the back of the room.\n"
    "- Turn on the **Quiz** on the training page: students guess the next merge before **Next** "
    "reveals it.\n"
    "- Keys: **→** next merge, **←** back, **P** play/pause.\n"
    "- Switch the **pre-tokenization** (none → GPT-2) to see which tokens stop crossing words."
)
st.subheader("Built-in texts")
for corpus in corpus_index():
    st.markdown(f"- **{corpus.title}**: {corpus.description}")
st.caption("Or paste your own text, or upload a UTF-8 .txt file, on the training page.")
