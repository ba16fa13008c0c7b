"""The top of the Tokenize page, and its view in the URL: read once a session into the widgets (what
could not be used said under the title), written back at every run (the pure side: :mod:`.share`).
"""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.url_state import read_params_once, write_params

from . import keys
from .live_text import set_text
from .resolve import corpus_titles
from .screen import PHONE_CSS, folded
from .share import PARAM_NAMES, ShareState, from_query, to_query
from .specs import TokenizerSpec, parse

TITLE = "🔤 Tokenize: paste text, see tokens"


def header() -> None:
    """The title and intro; applies the link once a session and warns about what it could not use (in a
    container drawn at every run, so the text box keeps its place when they are gone)."""
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


def apply_link() -> None:
    """Once a session: fill the widgets from the URL (before they are drawn)."""
    params = read_params_once(keys.URL_READ, PARAM_NAMES)
    if not params:
        return
    state, notes = from_query(params)
    st.session_state[keys.URL_NOTES] = notes
    if state.text is not None:
        set_text(state.text)
    if state.spec is not None:
        spec = parse(state.spec)
        st.session_state[keys.KIND] = spec.choice
        st.session_state.update(spec.picker_state(titles=corpus_titles()))
    if state.compare:
        st.session_state[keys.COMPARE] = list(state.compare)
        st.session_state[keys.COMPARE_EDITED] = True
    st.session_state[keys.PAGE] = state.page


def write_link(text: str, spec: TokenizerSpec, *, page: int) -> ShareState:
    """Put this view into the URL (only this page's parameters; others' bound ones are left alone)."""
    compare = tuple(st.session_state.get(keys.COMPARE) or ())
    state = ShareState(text=text, spec=spec.key(), compare=compare, page=page)
    write_params(PARAM_NAMES, to_query(state))
    return state
