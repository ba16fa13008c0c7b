"""The top of the Tokenize page: its title, what it does, and what a shared link asked for."""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape

from . import keys
from .link import apply_link
from .screen import PHONE_CSS, folded

TITLE = "🔤 Tokenize: paste text, see tokens"


def header() -> None:
    """The title and intro; applies the link once a session and warns about what it could not use.

    The link's notes sit in a container drawn at every run, so what follows (the text box) keeps its
    place on the page when they are gone.
    """
    st.title(TITLE)
    st.html(PHONE_CSS)
    if not folded():  # on a projector or a phone the tokens come first
        st.caption(
            "Pick a tokenizer (trained here or on the Train page, one on this machine, loaded from files, "
            "or a baseline) and see exactly how your text splits, byte by byte. Hover a token for its id "
            "and bytes; click it for its story."
        )
    apply_link()
    notes = st.container()
    for note in st.session_state.pop(keys.URL_NOTES, []):
        notes.warning(f"From the link: {md_escape(note)}")
