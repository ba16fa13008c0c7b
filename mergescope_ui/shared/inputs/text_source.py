"""A page's text in the sidebar: a built-in corpus, a pasted text or an uploaded file (the one picker).

The Train page, the lab (its separate held-out text) and Compare schemes each declare a
:class:`Picker` once (its keys, labels and notes) and call :func:`pick_text`; the lab's training
text, several corpora and a paste and an upload added together, uses the same boxes
(:func:`paste_box`, :func:`upload_box`).  The built-in corpora come in as arguments (the page's
cached ``corpus_index()`` and ``corpus_text``), so this folder needs no cache of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ..html.safe_text import md_escape
from ..url_state import mirror_to_url, seed_from_url
from .corpora import Corpus, default_id
from .upload import DEFAULT_MAX_BYTES, MEGABYTE
from .upload_widgets import (
    MAX_PASTE_CHARS,
    UPLOAD_INSTEAD,
    decode_remembered_upload,
    paste_cut_note,
    remember_upload,
)

PASTE = "__paste__"  # the picker's choice for a pasted text (also in a link: ?corpus=__paste__)
UPLOAD = "__upload__"  # the picker's choice for an uploaded file
UPLOAD_TITLE = "📄 Upload a .txt file"
UPLOAD_LABEL = f"A UTF-8 .txt file (up to {DEFAULT_MAX_BYTES // MEGABYTE} MB)"


@dataclass(frozen=True, slots=True, kw_only=True)
class PasteBox:
    """A text area for a pasted text: its key, label and height; ``title`` names it in a picker's list,
    ``name`` in the page's sentences; ``missing`` says what to do while it is blank; ``instead`` where a
    longer text goes (:func:`~mergescope_ui.shared.inputs.upload_widgets.paste_cut_note`)."""

    key: str
    label: str
    height: int
    placeholder: str | None = None
    title: str = ""
    name: str = "pasted text"
    missing: str = ""
    instead: str = UPLOAD_INSTEAD


@dataclass(frozen=True, slots=True, kw_only=True)
class UploadBox:
    """A file uploader for a UTF-8 text and its keys: the widget's (its value dies on a page switch),
    the plain keys that keep the file's bytes and name, and the "decode anyway" checkbox's.
    ``missing`` says what to do while no file is there; ``empty`` follows the file's name when it holds
    no text (an error when ``empty_is_error``, else a note)."""

    widget: str
    raw: str
    name: str
    lossy: str
    label: str = UPLOAD_LABEL
    missing: str = ""
    empty: str = ""
    empty_is_error: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Picker:
    """One page's text picker: a selectbox (``key``, ``label``) of the built-in corpora, starting on
    ``default`` (:func:`~mergescope_ui.shared.inputs.corpora.default_id`), then a paste and, when
    ``upload`` is given, an upload.

    ``url_param``: ``?param=<id>`` picks the text once a session, and the URL follows the choice.
    ``describe``: a built-in text's description under the list, and a caption for a file uploaded
    earlier.  ``blank_is_text``: a text of spaces alone is still a text (the Train page trains on it).
    """

    key: str
    label: str
    default: str
    paste: PasteBox
    upload: UploadBox | None = None
    help: str | None = None
    on_change: Callable[[], None] | None = None
    url_param: str | None = None
    describe: bool = False
    blank_is_text: bool = False

    def blank(self, text: str) -> bool:
        """Whether ``text`` is no text to use.

        >>> box = PasteBox(key="p", label="Your text", height=100)
        >>> Picker(key="s", label="Text", default="x", paste=box).blank(" ")
        True
        >>> Picker(key="s", label="Text", default="x", paste=box, blank_is_text=True).blank(" ")
        False
        """
        return not text if self.blank_is_text else not text.strip()


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceText:
    """The text picked and how to describe it: ``choice`` is a corpus id, :data:`PASTE` or
    :data:`UPLOAD`; ``name`` the corpus's title, the paste box's name or the file's name."""

    choice: str
    name: str
    text: str
    description: str


def pick_text(
    picker: Picker,
    messages: DeltaGenerator,
    *,
    corpora: Sequence[Corpus],
    read: Callable[[str], str],
) -> SourceText | None:
    """The picker's widgets (call inside ``st.sidebar``) and the text picked; None after writing why
    into ``messages`` (a container in the main area).  ``read`` gives a built-in corpus's text."""
    default = default_id([c.id for c in corpora], picker.default)
    titles = {c.id: c.title for c in corpora}
    titles[PASTE] = picker.paste.title
    if picker.upload is not None:
        titles[UPLOAD] = UPLOAD_TITLE
    if picker.url_param is not None:
        unknown = seed_from_url(picker.key, picker.url_param, titles)
        if unknown is not None:
            messages.warning(
                f"The link asks for text {md_escape(repr(unknown), limit=100)}, which is not a built-in "
                f"corpus; showing {titles[default]!r}. Known: {', '.join(c.id for c in corpora)}."
            )
    st.session_state.setdefault(picker.key, default)  # not index=: a link may set the key
    choice = st.selectbox(
        picker.label,
        list(titles),
        format_func=titles.__getitem__,
        key=picker.key,
        persist_state="session",
        on_change=picker.on_change,
        help=picker.help,
    )
    if picker.url_param is not None:
        mirror_to_url(picker.url_param, choice, default=default)
    if choice == PASTE:
        return _pasted(picker, messages)
    if choice == UPLOAD and picker.upload is not None:
        return _uploaded(picker, picker.upload, messages)
    corpus = next(c for c in corpora if c.id == choice)
    if picker.describe:
        st.caption(corpus.description)
    return SourceText(choice=choice, name=corpus.title, text=read(choice), description=corpus.description)


def paste_box(box: PasteBox) -> str:
    """The text area of ``box`` (its text kept across page switches)."""
    return st.text_area(
        box.label,
        key=box.key,
        height=box.height,
        max_chars=MAX_PASTE_CHARS,
        persist_state="session",
        placeholder=box.placeholder,
    )


def upload_box(box: UploadBox) -> None:
    """The file uploader of ``box``; the file's bytes and name are kept in ``box.raw`` and ``box.name``."""
    st.file_uploader(
        box.label,
        type=["txt"],
        key=box.widget,
        on_change=remember_upload,
        args=(box.widget, box.raw, box.name),
        max_upload_size=DEFAULT_MAX_BYTES // MEGABYTE,
    )


def _pasted(picker: Picker, messages: DeltaGenerator) -> SourceText | None:
    box = picker.paste
    text = paste_box(box)
    if picker.blank(text):
        messages.info(box.missing)
        return None
    paste_cut_note(text, messages, instead=box.instead)
    return SourceText(
        choice=PASTE, name=box.name, text=text, description=f"{len(text):,} characters you pasted"
    )


def _uploaded(picker: Picker, box: UploadBox, messages: DeltaGenerator) -> SourceText | None:
    upload_box(box)
    raw = st.session_state.get(box.raw)
    name = str(st.session_state.get(box.name, "upload"))
    if raw is None:
        messages.info(box.missing)
        return None
    if picker.describe and st.session_state.get(box.widget) is None:
        st.caption(
            f"Using {md_escape(name)} ({len(raw):,} bytes), uploaded earlier; upload another file to "
            "replace it."
        )
    text = decode_remembered_upload(raw, name, lossy_key=box.lossy, messages=messages)
    if text is None:
        return None
    if picker.blank(text):
        if box.empty_is_error:
            messages.error(md_escape(name) + box.empty)
        else:
            messages.info(md_escape(name) + box.empty)
        return None
    return SourceText(
        choice=UPLOAD, name=name, text=text, description=f"{len(raw):,} bytes uploaded from {name}"
    )
