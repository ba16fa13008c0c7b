"""The scheme choice of the Train page's sidebar (BPE, WordPiece, Unigram) and the settings of the two
new ones.

``?scheme=`` picks the scheme (and the URL follows the radio); ``?wp_merges=`` and ``?ug_vocab=`` set
the sizes (a bad value is ignored with a warning that names it).  BPE keeps its own settings
(:mod:`.settings_form`).
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.unigram import SHRINKING_FACTOR
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.settings_widgets import NumberSetting, number_setting
from mergescope_ui.shared.url_state import mirror_to_url, seed_from_url

from . import keys
from .scheme_run import MAX_STEPS, MAX_UNIGRAM_VOCAB, SCHEMES, SchemeSettings

SCHEME_LABELS = {"bpe": "BPE", "wordpiece": "WordPiece", "unigram": "Unigram"}
SCHEME_HELP = (
    "BPE merges the most frequent pair; WordPiece merges the pair with the best score, count(ab) / "
    "(count(a) × count(b)); Unigram starts with every frequent substring and prunes the pieces the text "
    "needs least."
)
DEFAULT_WP_MERGES = 30
DEFAULT_UG_VOCAB = 60
SHRINKS = {
    0.5: "0.5 (halve each round)",
    0.6: "0.6",
    SHRINKING_FACTOR: f"{SHRINKING_FACTOR} (SentencePiece's default)",
    0.9: "0.9",
}
WP_MERGES = NumberSetting(
    key=keys.WP_MERGES,
    label="Merges to learn",
    default=DEFAULT_WP_MERGES,
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
    default=DEFAULT_UG_VOCAB,
    low=2,
    high=MAX_UNIGRAM_VOCAB,
    step=10,
    help="Unigram prunes its seed round by round down to this many pieces (<unk> counted); it needs at "
    "least the text's characters + 1.",
    url=True,
)


def scheme_choice(messages: DeltaGenerator) -> str:
    """The scheme radio (call inside ``st.sidebar``); its value, shown in the URL as ``?scheme=``."""
    unknown = seed_from_url(keys.SCHEME, keys.SCHEME, SCHEME_LABELS)
    if unknown is not None:
        messages.warning(
            f"The link asks for the scheme {md_escape(repr(unknown), limit=100)}, which is unknown; "
            "use bpe, wordpiece or unigram. Showing BPE."
        )
    st.session_state.setdefault(keys.SCHEME, "bpe")
    choice = st.radio(
        "Scheme",
        list(SCHEMES),
        format_func=SCHEME_LABELS.__getitem__,
        horizontal=True,
        key=keys.SCHEME,
        persist_state="session",
        help=SCHEME_HELP,
    )
    scheme = str(choice or "bpe")
    mirror_to_url(keys.SCHEME, scheme, default="bpe")
    return scheme


def scheme_settings(scheme: str, messages: DeltaGenerator) -> SchemeSettings | None:
    """WordPiece's or Unigram's settings (call inside ``st.sidebar``); None after an error in ``messages``."""
    try:
        if scheme == "wordpiece":
            merges = number_setting(WP_MERGES, messages)
            st.caption(
                "Text cut into words as BERT does (at spaces and punctuation); special tokens [PAD] [UNK] "
                "[CLS] [SEP] [MASK]. Ties: the pair seen first in the text wins."
            )
            return SchemeSettings(scheme="wordpiece", steps=merges)
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
    except ValueError as exc:
        messages.error(f"Cannot train with these settings: {md_escape(exc)}.")
        return None
