"""The top of the Tokenize page: its title, what it does, and what a shared link asked for."""

from __future__ import annotations

import streamlit as st

from . import keys
from .link import apply_link

TITLE = "🔤 Tokenize: paste text, see tokens"


def header() -> None:
    """The title and intro; applies the link once a session and warns about what it could not use."""
    st.title(TITLE)
    st.caption(
        "Pick a tokenizer (trained here or on the Train page, loaded from files, or a baseline) and "
        "see exactly how your text splits, byte by byte. Hover a token for its id and bytes."
    )
    apply_link()
    for note in st.session_state.pop(keys.URL_NOTES, []):
        st.warning(f"From the link: {note}")
