"""The Tokenize page's view in the URL: read once a session into the widgets, written back at every run.

The pure side (which parameters, how a bad one is reported) is :mod:`mergescope_ui.tokenize.share`.
"""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared.url_state import read_params_once, write_params

from . import keys
from .resolve import corpus_titles
from .share import PARAM_NAMES, ShareState, from_query, to_query
from .specs import TokenizerSpec, parse
from .text_box import set_text


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
        _set_picker(parse(state.spec))
    if state.compare:
        st.session_state[keys.COMPARE] = list(state.compare)
        st.session_state[keys.COMPARE_EDITED] = True
    st.session_state[keys.PAGE] = state.page


def _set_picker(spec: TokenizerSpec) -> None:
    st.session_state[keys.KIND] = spec.choice
    st.session_state.update(spec.picker_state(titles=corpus_titles()))


def write_link(text: str, spec: TokenizerSpec, *, page: int) -> ShareState:
    """Put this view into the URL (only this page's parameters; others' bound ones are left alone)."""
    compare = tuple(st.session_state.get(keys.COMPARE) or ())
    state = ShareState(text=text, spec=spec.key(), compare=compare, page=page)
    write_params(PARAM_NAMES, to_query(state))
    return state
