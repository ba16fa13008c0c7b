"""The lab's settings in the URL: read once a session into the widgets, written back at every run.

The pure side (which parameters, their forms, what a bad one says) is :mod:`mergescope_ui.lab.share`.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.url_state import read_params_once, write_params
from mergescope_ui.shared.workers.cache import corpus_index

from . import keys, share
from .settings_form import DEFAULT_PATTERN, DEFAULT_VOCAB, PATTERN_LABELS
from .share import own_text_note
from .texts import default_corpora


def apply_link(messages: DeltaGenerator) -> None:
    """Once a session, before the sidebar's widgets: set them from the link, say what was ignored."""
    params = read_params_once(keys.URL_READ, share.PARAM_NAMES)
    if not params:
        return
    link, notes = share.from_query(
        params, corpus_ids=[c.id for c in corpus_index()], patterns=list(PATTERN_LABELS)
    )
    for note in notes:
        messages.warning(f"From the link: {md_escape(note)}")
    if link.own is not None:
        messages.warning(own_text_note(link.own, opened=True))
    if link.corpora is not None:
        st.session_state[keys.CORPORA] = list(link.corpora)
    if link.pattern is not None:
        st.session_state[keys.PATTERN] = link.pattern
    if link.vocab is not None:
        st.session_state[keys.VOCAB] = link.vocab
    held = link.heldout
    if held is not None:
        st.session_state[keys.HELDOUT_MODE] = keys.SEPARATE if held.how == share.TEXT else keys.SPLIT
        if held.how == share.TEXT:
            st.session_state[keys.HELDOUT_SOURCE] = held.text
        else:
            st.session_state[keys.SPLIT_BY] = keys.FRACTION if held.how == share.END else keys.DOCUMENTS
            st.session_state[keys.HELDOUT_SHARE] = held.share


def _heldout_now() -> share.HeldOut | None:
    state = st.session_state
    if state.get(keys.HELDOUT_MODE, keys.SPLIT) == keys.SEPARATE:
        source = state.get(keys.HELDOUT_SOURCE)
        return share.HeldOut(share.TEXT, text=source) if source and source != keys.PASTE else None
    how = share.END if state.get(keys.SPLIT_BY) == keys.FRACTION else share.SPLIT
    return share.HeldOut(how, share=int(state.get(keys.HELDOUT_SHARE, share.DEFAULT_SHARE)))


def _own_now() -> tuple[str, ...]:
    """The texts of the user's own in the run now (keys of ``share.OWN_TEXTS``)."""
    state = st.session_state
    own = []
    if state.get(keys.UPLOAD_RAW) is not None:
        own.append("upload")
    if str(state.get(keys.PASTED) or "").strip():
        own.append("paste")
    separate = state.get(keys.HELDOUT_MODE) == keys.SEPARATE and state.get(keys.HELDOUT_SOURCE) == keys.PASTE
    if separate and str(state.get(keys.HELDOUT_PASTED) or "").strip():
        own.append("heldout")
    return tuple(own)


def write_link(messages: DeltaGenerator | None = None) -> None:
    """Put the sidebar's corpora, pattern, largest vocab and held-out split into the URL (defaults
    stay out; other pages' parameters are left alone), and which texts of the user's own it leaves out;
    in ``messages``, say that the link does not carry them."""
    state = st.session_state
    own = _own_now()
    if own and messages is not None:
        messages.caption(own_text_note(own, opened=False))
    ids = [c.id for c in corpus_index()]
    now = share.LabLink(
        corpora=tuple(state.get(keys.CORPORA, ())),
        pattern=state.get(keys.PATTERN),
        vocab=int(state[keys.VOCAB]) if state.get(keys.VOCAB) is not None else None,
        heldout=_heldout_now(),
        own=own or None,
    )
    # (no held-out text: to_query's default, the split of DEFAULT_SHARE percent)
    defaults = share.LabLink(tuple(default_corpora(ids)), DEFAULT_PATTERN, DEFAULT_VOCAB)
    write_params(share.PARAM_NAMES, share.to_query(now, defaults=defaults))
