"""The top of Compare schemes and its sidebar: the text, the held-out share, the chart's sizes; the vocab
size and the sentence above the results."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.analysis import split_fraction
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.settings_widgets import NumberSetting, number_setting
from mergescope_ui.shared.inputs.text_source import PasteBox, Picker, UploadBox, pick_text
from mergescope_ui.shared.workers.cache import corpus_index, corpus_text

from . import keys
from .compute import MAX_CHARS, MAX_SIZES, MAX_VOCAB, MIN_VOCAB, parse_sizes

TITLE = "⚖️ Compare schemes"
DEFAULT_CORPUS = "lighthouse_story"
DEFAULT_VOCAB = 400
DEFAULT_SIZES = "300, 500, 800"
DEFAULT_SHARE = 20
DEFAULT_SENTENCE = "The keeper's lighthouse shone over the café at 6:30!"
MAX_SENTENCE = 300
VOCAB = NumberSetting(
    key=keys.VOCAB,
    label="Vocab size",
    default=DEFAULT_VOCAB,
    low=MIN_VOCAB,
    high=MAX_VOCAB,
    step=50,
    help="Every id, special tokens included. BPE needs at least 256: its bytes.",
)
TEXT = Picker(
    key=keys.SOURCE,
    label="Train on",
    default=DEFAULT_CORPUS,
    paste=PasteBox(
        key=keys.PASTED,
        label="Your text",
        height=140,
        title="✍️ Paste a text",
        name="the pasted text",
        missing="Paste a text in the sidebar to compare the schemes on it.",
    ),
    upload=UploadBox(
        widget=keys.UPLOAD,
        raw=keys.UPLOAD_RAW,
        name=keys.UPLOAD_NAME,
        lossy=keys.UPLOAD_LOSSY,
        missing="Upload a .txt file in the sidebar to compare the schemes on it.",
        empty=" holds no text; upload another file.",
        empty_is_error=True,
    ),
)


@dataclass(frozen=True, slots=True)
class SchemesInputs:
    """What the page compares: the training and held-out texts (``name`` says where they came from),
    the vocab size, the sentence each scheme cuts, and the chart's sizes."""

    text: str
    held_out: str
    name: str
    vocab_size: int
    sentence: str
    sizes: tuple[int, ...]


def header() -> DeltaGenerator:
    """The title, the question the page answers, and the container for every section's messages."""
    st.title(TITLE)
    st.caption(
        "Byte-level BPE, WordPiece, Unigram and plain characters, trained on the same text to the same vocab "
        "size: how each cuts a sentence, how much each compresses, and what each cannot give back."
    )
    return st.container()


def sidebar(messages: DeltaGenerator) -> SchemesInputs | None:
    """The text in the sidebar, the vocab size and sentence above the results; None (after saying why
    in ``messages``) until they make a comparison."""
    with st.sidebar:
        st.header("Text")
        picked = pick_text(TEXT, messages, corpora=corpus_index(), read=corpus_text)
        st.session_state.setdefault(keys.HELDOUT_SHARE, DEFAULT_SHARE)
        share = st.slider(
            "Held-out share (%)",
            min_value=10,
            max_value=50,
            step=5,
            key=keys.HELDOUT_SHARE,
            persist_state="session",
            help="The end of the text is held out: the schemes do not train on it.",
        )
        st.session_state.setdefault(keys.SIZES, DEFAULT_SIZES)
        sizes_text = st.text_input(
            "Vocab sizes for the chart",
            key=keys.SIZES,
            persist_state="session",
            help=f"Up to {MAX_SIZES} sizes, {MIN_VOCAB} to {MAX_VOCAB:,}; each trains the four schemes "
            "again.",
        )
    left, right = st.columns([1, 3])
    with left:
        vocab = number_setting(VOCAB, messages)
    st.session_state.setdefault(keys.SENTENCE, DEFAULT_SENTENCE)
    sentence = right.text_input(
        "Sentence to cut",
        key=keys.SENTENCE,
        max_chars=MAX_SENTENCE,
        persist_state="session",
        help="Each scheme's tokens of this sentence are shown below.",
    )
    try:
        sizes = parse_sizes(sizes_text)
    except ValueError as exc:
        messages.error(f"Vocab sizes for the chart: {md_escape(exc)}.")
        return None
    if picked is None:
        return None
    text, name = picked.text, picked.name
    if len(text) > MAX_CHARS:
        messages.info(
            f"{md_escape(name)} has {len(text):,} characters; the schemes train on the first {MAX_CHARS:,} "
            "(so that training stays within seconds on a shared server)."
        )
        text = text[:MAX_CHARS]
    try:
        split = split_fraction(text, heldout_fraction=share / 100)
    except ValueError as exc:
        messages.error(f"Cannot hold out part of the text: {md_escape(exc)}.")
        return None
    if not split.train.strip() or not split.heldout.strip():
        messages.error("The text is too short to hold out a part of it; choose or paste a longer text.")
        return None
    return SchemesInputs(split.train, split.heldout, name, vocab, sentence, sizes)
