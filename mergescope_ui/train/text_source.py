"""The Text section of the Train page's sidebar: a built-in corpus, pasted text or an upload.

Renders into the sidebar and returns a :class:`SourceText`, or ``None``
after showing why there is no usable text yet.  ``?corpus=<id>`` picks the
text (``__paste__`` / ``__upload__`` too).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.corpora import default_id
from mergescope_ui.shared.inputs.upload import DEFAULT_MAX_BYTES, MEGABYTE
from mergescope_ui.shared.inputs.upload_widgets import (
    MAX_PASTE_CHARS,
    decode_remembered_upload,
    paste_cut_note,
    remember_upload,
)
from mergescope_ui.shared.url_state import mirror_to_url, seed_from_url
from mergescope_ui.shared.workers.cache import corpus_index, corpus_text

from . import keys
from .lesson import on_corpus

DEFAULT_CORPUS = (
    "low_lowest_newest"  # the classroom string (see mergescope_ui.shared.inputs.corpora.default_id)
)
URL_PARAM = "corpus"  # ?corpus=<id> picks a built-in text (or __paste__ / __upload__)


@dataclass(frozen=True, slots=True)
class SourceText:
    """The text to train on and how to describe it."""

    name: str
    text: str
    description: str


def choose_source(messages: DeltaGenerator) -> SourceText | None:
    """Widgets for the text (call inside ``st.sidebar``); returns it, or None
    after writing why into ``messages`` (a container in the main area)."""
    corpora = corpus_index()
    default = default_id([c.id for c in corpora], DEFAULT_CORPUS)
    titles = {c.id: c.title for c in corpora}
    titles[keys.PASTE] = "✍️ Paste your own text"
    titles[keys.UPLOADED] = "📄 Upload a .txt file"
    unknown = seed_from_url(keys.SOURCE, URL_PARAM, titles)
    if unknown is not None:
        messages.warning(
            f"The link asks for text {md_escape(repr(unknown), limit=100)}, which is not a built-in corpus; "
            f"showing {titles[default]!r}. Known: {', '.join(c.id for c in corpora)}."
        )
    st.session_state.setdefault(keys.SOURCE, default)  # not index=: a link sets the key (see settings_form)
    choice = st.selectbox(
        "Text",
        list(titles),
        format_func=titles.__getitem__,
        key=keys.SOURCE,
        persist_state="session",
        on_change=on_corpus,  # a corpus with its own lesson brings its settings (the classic one)
        help="A built-in corpus, your own pasted text, or an uploaded UTF-8 file.",
    )
    mirror_to_url(URL_PARAM, choice, default=default)
    if choice == keys.PASTE:
        text = st.text_area(
            "Your text",
            key=keys.PASTED_TEXT,
            height=160,
            max_chars=MAX_PASTE_CHARS,
            persist_state="session",
            placeholder="Paste any text here, e.g. low low low lower newest newest widest",
        )
        if not text:
            messages.info("Paste some text in the sidebar to start training.")
            return None
        paste_cut_note(text, messages)
        return SourceText(name="pasted text", text=text, description=f"{len(text):,} characters you pasted")
    if choice == keys.UPLOADED:
        return _uploaded_source(messages)
    corpus = next(c for c in corpora if c.id == choice)
    st.caption(corpus.description)
    return SourceText(name=corpus.title, text=corpus_text(corpus.id), description=corpus.description)


def _uploaded_source(messages: DeltaGenerator) -> SourceText | None:
    st.file_uploader(
        f"A UTF-8 .txt file (up to {DEFAULT_MAX_BYTES // MEGABYTE} MB)",
        type=["txt"],
        key=keys.UPLOAD,
        on_change=remember_upload,
        args=(keys.UPLOAD, keys.UPLOAD_RAW, keys.UPLOAD_NAME),
        max_upload_size=DEFAULT_MAX_BYTES // MEGABYTE,
    )
    raw = st.session_state.get(keys.UPLOAD_RAW)
    name = st.session_state.get(keys.UPLOAD_NAME, "upload")
    if raw is None:
        messages.info("Upload a .txt file in the sidebar to start training.")
        return None
    if st.session_state.get(keys.UPLOAD) is None:
        st.caption(
            f"Using {md_escape(name)} ({len(raw):,} bytes), uploaded earlier; upload another file to "
            "replace it."
        )
    text = decode_remembered_upload(raw, name, lossy_key=keys.UPLOAD_LOSSY, messages=messages)
    if text is None:
        return None
    if not text:
        messages.info(f"{md_escape(name)} is empty; upload a file with some text.")
        return None
    return SourceText(name=name, text=text, description=f"{len(raw):,} bytes uploaded from {name}")
