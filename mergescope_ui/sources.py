"""Choosing the text to train on: a built-in corpus, pasted text or an upload.

Renders into the sidebar and returns a :class:`SourceText`, or ``None``
after showing why there is no usable text yet.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from . import keys
from .engine import corpus_index, corpus_text, decoded_upload
from .upload import DEFAULT_MAX_BYTES, MEGABYTE
from .url_state import mirror_to_url, seed_from_url

MAX_PASTE_CHARS = 2_000_000
URL_PARAM = "corpus"  # ?corpus=<id> picks a built-in text (or __paste__ / __upload__)


@dataclass(frozen=True, slots=True)
class SourceText:
    """The text to train on and how to describe it."""

    name: str
    text: str
    description: str


def remember_upload(widget_key: str, raw_key: str, name_key: str) -> None:
    """on_change of an uploader: keep the file's bytes and name in plain keys
    (widget values die on a page switch).  Pass the three keys as ``args``."""
    file = st.session_state.get(widget_key)
    if file is None:
        st.session_state.pop(raw_key, None)
        st.session_state.pop(name_key, None)
    else:
        st.session_state[raw_key] = file.getvalue()
        st.session_state[name_key] = file.name


def decode_remembered_upload(
    raw: bytes, name: str, *, lossy_key: str, messages: DeltaGenerator
) -> str | None:
    """Decode an upload's bytes, with a "decode anyway" checkbox (key ``lossy_key``).

    Returns the text, or None after writing why into ``messages`` (not UTF-8
    and not decoded anyway, too large); a lossy decode is reported as a warning.
    """
    lossy = st.checkbox(
        "Decode anyway (replace bad bytes with �)",
        key=lossy_key,
        persist_state="session",
        help="For files that are not valid UTF-8: each invalid byte sequence becomes U+FFFD.",
    )
    try:
        decoded = decoded_upload(raw, lossy=lossy, max_bytes=DEFAULT_MAX_BYTES)
    except ValueError as exc:
        messages.error(f"Cannot use {name}: {exc}.")
        return None
    if decoded.lossy:
        messages.warning(
            f"{name} is not valid UTF-8: {decoded.replaced:,} invalid byte sequence(s) were replaced by �."
        )
    return decoded.text


def choose_source(messages: DeltaGenerator) -> SourceText | None:
    """Widgets for the text (call inside ``st.sidebar``); returns it, or None
    after writing why into ``messages`` (a container in the main area)."""
    corpora = corpus_index()
    titles = {c.id: c.title for c in corpora}
    titles[keys.PASTE] = "✍️ Paste your own text"
    titles[keys.UPLOADED] = "📄 Upload a .txt file"
    unknown = seed_from_url(keys.SOURCE, URL_PARAM, titles)
    if unknown is not None:
        messages.warning(
            f"The link asks for text {unknown!r}, which is not a built-in corpus; "
            f"showing {corpora[0].title!r}. Known: {', '.join(c.id for c in corpora)}."
        )
    choice = st.selectbox(
        "Text",
        list(titles),
        format_func=titles.__getitem__,
        key=keys.SOURCE,
        persist_state="session",
        help="A built-in corpus, your own pasted text, or an uploaded UTF-8 file.",
    )
    mirror_to_url(URL_PARAM, choice, default=corpora[0].id)
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
        st.caption(f"Using {name} ({len(raw):,} bytes), uploaded earlier; upload another file to replace it.")
    text = decode_remembered_upload(raw, name, lossy_key=keys.UPLOAD_LOSSY, messages=messages)
    if text is None:
        return None
    if not text:
        messages.info(f"{name} is empty; upload a file with some text.")
        return None
    return SourceText(name=name, text=text, description=f"{len(raw):,} bytes uploaded from {name}")
