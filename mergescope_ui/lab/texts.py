"""The lab's texts (sidebar): the training text from corpora, paste and upload, and the held-out text
(a split of the training text, or a separate one through the shared picker, :data:`HELDOUT`)."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.analysis import split_documents, split_fraction
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.corpora import default_id
from mergescope_ui.shared.inputs.text_source import (
    PasteBox,
    Picker,
    UploadBox,
    paste_box,
    pick_text,
    upload_box,
)
from mergescope_ui.shared.inputs.upload import DEFAULT_MAX_BYTES, MEGABYTE
from mergescope_ui.shared.inputs.upload_widgets import decode_remembered_upload, paste_cut_note
from mergescope_ui.shared.workers.cache import corpus_index, corpus_text

from . import keys
from .share import DEFAULT_SHARE, SHARES

# The texts the lab starts with (see mergescope_ui.shared.inputs.corpora.default_id).
DEFAULT_CORPORA = ("lighthouse_story", "mixed_scripts")
DEFAULT_HELDOUT = "machine_learning_zh"
DELIMITERS = {"\n\n": "blank lines (paragraphs)", "\n": "lines", "<|endoftext|>": "<|endoftext|>"}
HELDOUT_NAME = "held-out"
PASTED = PasteBox(
    key=keys.PASTED,
    label="Your own text (optional)",
    height=100,
    placeholder="Paste text to add to the training text",
)
UPLOADED = UploadBox(
    widget=keys.UPLOAD,
    raw=keys.UPLOAD_RAW,
    name=keys.UPLOAD_NAME,
    lossy=keys.UPLOAD_LOSSY,
    label=f"Or upload a UTF-8 .txt file (up to {DEFAULT_MAX_BYTES // MEGABYTE} MB)",
)
HELDOUT = Picker(
    key=keys.HELDOUT_SOURCE,
    label="Held-out source",
    default=DEFAULT_HELDOUT,
    paste=PasteBox(
        key=keys.HELDOUT_PASTED,
        label="Held-out text",
        height=100,
        title="✍️ Paste a held-out text",
        name="a pasted text",
        missing="Paste a held-out text in the sidebar (or split the training text).",
        instead="split the training text instead",
    ),
)


def default_corpora(ids: list[str]) -> list[str]:
    """The built-in texts the lab trains on to start with."""
    return list(dict.fromkeys(default_id(ids, c) for c in DEFAULT_CORPORA))


def training_text(messages: DeltaGenerator) -> tuple[str, list[str]] | None:
    """The training text (built-in corpora + pasted + uploaded, joined by blank lines), its parts' names."""
    corpora = corpus_index()
    titles = {c.id: c.title for c in corpora}
    st.session_state.setdefault(keys.CORPORA, default_corpora(list(titles)))
    chosen = st.multiselect(
        "Built-in corpora",
        list(titles),
        format_func=titles.__getitem__,
        key=keys.CORPORA,
        persist_state="session",
        help="Each chosen text becomes one document of the training text.",
    )
    pasted = paste_box(PASTED)
    upload_box(UPLOADED)
    parts: list[str] = [corpus_text(c) for c in chosen]
    names: list[str] = [titles[c] for c in chosen]
    if pasted.strip():
        paste_cut_note(pasted, messages)
        parts.append(pasted)
        names.append(PASTED.name)
    raw = st.session_state.get(UPLOADED.raw)
    if raw is not None:
        name = st.session_state.get(UPLOADED.name, "upload")
        text = decode_remembered_upload(raw, name, lossy_key=UPLOADED.lossy, messages=messages)
        if text is None:
            return None
        if text.strip():
            parts.append(text)
            names.append(name)
    if not parts:
        messages.info("Choose a built-in corpus, paste text or upload a file in the sidebar to start.")
        return None
    return "\n\n".join(parts), names


def heldout_text(train: str, messages: DeltaGenerator) -> tuple[str, dict[str, str], str] | None:
    """``(training text, {name: held-out text}, description)``: a split of ``train`` or a separate text."""
    mode = st.radio(
        "Held-out text",
        [keys.SPLIT, keys.SEPARATE],
        key=keys.HELDOUT_MODE,
        persist_state="session",
        format_func={
            keys.SPLIT: "Split off part of the training text",
            keys.SEPARATE: "A separate text",
        }.__getitem__,
        help="Text the tokenizer does not train on: its compression shows how well the merges generalize.",
    )
    if mode == keys.SEPARATE:
        source = pick_text(HELDOUT, messages, corpora=corpus_index(), read=corpus_text)
        if source is None:
            return None
        how = source.name if source.choice == keys.PASTE else f"the built-in text “{source.name}”"
        return train, {HELDOUT_NAME: source.text}, how
    by = st.radio(
        "Split by",
        [keys.DOCUMENTS, keys.FRACTION],
        key=keys.SPLIT_BY,
        persist_state="session",
        horizontal=True,
        format_func={keys.DOCUMENTS: "documents", keys.FRACTION: "the end of the text"}.__getitem__,
    )
    st.session_state.setdefault(keys.HELDOUT_SHARE, DEFAULT_SHARE)
    share = st.slider(
        "Held-out share (%)",
        min_value=min(SHARES),
        max_value=max(SHARES),
        step=SHARES.step,
        key=keys.HELDOUT_SHARE,
        persist_state="session",
    )
    try:
        if by == keys.DOCUMENTS:
            delimiter = st.selectbox(
                "Documents are separated by",
                list(DELIMITERS),
                format_func=DELIMITERS.__getitem__,
                key=keys.DELIMITER,
                persist_state="session",
            )
            seed = st.number_input(
                "Seed (which documents are held out)",
                min_value=0,
                max_value=10**6,
                value=0,
                key=keys.SPLIT_SEED,
                persist_state="session",
            )
            split = split_documents(train, delimiter=delimiter, heldout_fraction=share / 100, seed=int(seed))
        else:
            split = split_fraction(train, heldout_fraction=share / 100)
    except ValueError as exc:
        messages.error(f"Cannot split the training text: {md_escape(exc)}.")
        return None
    return split.train, {HELDOUT_NAME: split.heldout}, split.method
