"""The scheme choice of the Train page's sidebar, and each scheme's part of the title and the sidebar
(:data:`FORMS`: a new scheme is one entry).

``?scheme=`` picks the scheme (and the URL follows the radio); ``?wp_merges=`` and ``?ug_vocab=`` set
the sizes (a bad value is ignored with a warning that names it).  BPE's settings are
:mod:`.settings_form`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.unigram import SHRINKING_FACTOR
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.settings_widgets import NumberSetting, number_setting
from mergescope_ui.shared.url_state import mirror_to_url, seed_from_url

from . import keys
from .scheme_run import MAX_STEPS, MAX_UNIGRAM_VOCAB, SchemeSettings
from .settings_form import settings_widgets

SCHEME_HELP = (
    "BPE merges the most frequent pair; WordPiece merges the pair with the best score, count(ab) / "
    "(count(a) × count(b)); Unigram starts with every frequent substring and prunes the pieces the text "
    "needs least."
)
SHRINKS = {
    0.5: "0.5 (halve each round)",
    0.6: "0.6",
    SHRINKING_FACTOR: f"{SHRINKING_FACTOR} (SentencePiece's default)",
    0.9: "0.9",
}
WP_MERGES = NumberSetting(
    key=keys.WP_MERGES,
    label="Merges to learn",
    default=30,
    low=1,
    high=MAX_STEPS,
    step=10,
    help="WordPiece starts from the text's characters (the first of a word as it is, the others with ##) "
    "and adds one piece per merge; it stops here, or when no pair is left.",
    url=True,
)
UG_VOCAB = NumberSetting(
    key=keys.UG_VOCAB,
    label="Vocabulary size to reach",
    default=60,
    low=2,
    high=MAX_UNIGRAM_VOCAB,
    step=10,
    help="Unigram prunes its seed round by round down to this many pieces (<unk> counted); it needs at "
    "least the text's characters + 1.",
    url=True,
)


def _wordpiece(messages: DeltaGenerator) -> SchemeSettings:
    merges = number_setting(WP_MERGES, messages)
    st.caption(
        "Text cut into words as BERT does (at spaces and punctuation); special tokens [PAD] [UNK] "
        "[CLS] [SEP] [MASK]. Ties: the pair seen first in the text wins."
    )
    return SchemeSettings(scheme="wordpiece", steps=merges)


def _unigram(messages: DeltaGenerator) -> SchemeSettings:
    vocab = number_setting(UG_VOCAB, messages)
    st.session_state.setdefault(keys.UG_SHRINK, SHRINKING_FACTOR)
    shrink = st.selectbox(
        "Shrinking factor (share kept each round)",
        list(SHRINKS),
        format_func=SHRINKS.__getitem__,
        key=keys.UG_SHRINK,
        persist_state="session",
    )
    st.caption("Words start with ▁ (the space before them); the seed is every substring seen twice.")
    return SchemeSettings(scheme="unigram", vocab_size=vocab, shrinking_factor=float(shrink))


@dataclass(frozen=True, slots=True)
class SchemeForm:
    """One scheme on the Train page: its name, what one step is (in the title and the toggles), the
    quiz toggle's label and help, what the animation shows, and its settings' widgets (inside
    ``st.sidebar``; None after an error in ``messages``, a ValueError for bad settings)."""

    label: str
    step: str
    quiz: tuple[str, str]
    motion: str
    settings: Callable[[DeltaGenerator], Any]


MERGE_QUIZ = ("Quiz: guess the next merge", "Before Next reveals it, pick the pair you think will merge.")
FORMS = {
    "bpe": SchemeForm("BPE", "merge", MERGE_QUIZ, "The two tokens slide into one.", settings_widgets),
    "wordpiece": SchemeForm("WordPiece", "merge", MERGE_QUIZ, "The two tokens slide into one.", _wordpiece),
    "unigram": SchemeForm(
        "Unigram",
        "round",
        (
            "Quiz: guess the next piece pruned",
            "Before Next reveals the round, pick the piece you think it prunes.",
        ),
        "The words a round cuts anew change in place.",
        _unigram,
    ),
}
"""Every scheme the Train page trains, by the name in ``?scheme=`` (BPE first: the default)."""
DEFAULT = next(iter(FORMS))
NAMES = f"{', '.join(list(FORMS)[:-1])} or {list(FORMS)[-1]}"  # in a message: "bpe, wordpiece or unigram"


def scheme_choice(messages: DeltaGenerator) -> str:
    """The scheme radio (call inside ``st.sidebar``); its value, shown in the URL as ``?scheme=``."""
    unknown = seed_from_url(keys.SCHEME, keys.SCHEME, FORMS)
    if unknown is not None:
        messages.warning(
            f"The link asks for the scheme {md_escape(repr(unknown), limit=100)}, which is unknown; "
            f"use {NAMES}. Showing BPE."
        )
    st.session_state.setdefault(keys.SCHEME, DEFAULT)
    choice = st.radio(
        "Scheme",
        list(FORMS),
        format_func=lambda name: FORMS[name].label,
        horizontal=True,
        key=keys.SCHEME,
        persist_state="session",
        help=SCHEME_HELP,
    )
    scheme = str(choice or DEFAULT)
    mirror_to_url(keys.SCHEME, scheme, default=DEFAULT)
    return scheme
