"""The Training section of the Train page's sidebar: merges, pre-tokenization, tie rule, specials, minimum.

``?merges=``, ``?pattern=``, ``?tie_break=`` and ``?min_frequency=`` set them from a link; a bad value
is ignored with a warning that names it (cut short) and says why.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import PATTERNS, TrainOptions
from bpe_core.bpe import TIE_BREAK_HELP, TIE_BREAKS
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.settings import MAX_MERGES, PREVIEW_CHARS, TOP_K, parse_special_tokens
from mergescope_ui.shared.url_state import ignored_value, mirror_to_url, seed_from_url, seed_number_from_url

from . import keys

DEFAULT_MERGES = 100
DEFAULT_PATTERN = "gpt2"
PATTERN_LABELS = {
    "none": "none: no split (tokens may span words)",
    "whitespace": "whitespace: runs of space / non-space",
    "gpt2": "GPT-2: words keep a leading space",
    "gpt4": "GPT-4 (cl100k): + digits in 3s",
    "o200k": "GPT-4o (o200k)",
    keys.CUSTOM: "custom regex…",
}
DEFAULT_CUSTOM_REGEX = r"\w+|\s+|[^\w\s]+"
MAX_MIN_FREQUENCY = 10**9  # a pair occurs at most once per character of the text


def _say_ignored(messages: DeltaGenerator, param: str, bad: str | None, used: int, rule: str) -> None:
    """Say that the link's value ``bad`` for ``param`` was ignored, and why (nothing when it was good)."""
    if bad is not None:
        note = ignored_value({param: [bad]}, param, used, rule)
        if note is not None:
            messages.warning(md_escape(note[0].upper() + note[1:]) + ".")


def settings_widgets(messages: DeltaGenerator) -> TrainOptions | None:
    """The training settings (call inside ``st.sidebar``); None after an error in ``messages``."""
    specials_text = st.session_state.get(keys.SPECIAL_TOKENS, "")
    bad = {
        keys.MERGES: seed_number_from_url(keys.MERGES, keys.MERGES, low=1, high=MAX_MERGES),
        keys.MIN_FREQUENCY: seed_number_from_url(
            keys.MIN_FREQUENCY, keys.MIN_FREQUENCY, low=1, high=MAX_MIN_FREQUENCY
        ),
    }
    # Defaults through session_state (not value=): a preset or a link sets these keys too.
    st.session_state.setdefault(keys.MERGES, DEFAULT_MERGES)
    st.session_state.setdefault(keys.MIN_FREQUENCY, 1)
    merges = st.number_input(
        "Merges to learn",
        min_value=1,
        max_value=MAX_MERGES,
        step=10,
        key=keys.MERGES,
        persist_state="session",
        help="Training stops here, or earlier when no pair is left.",
    )
    mirror_to_url(keys.MERGES, str(merges), default=str(DEFAULT_MERGES))
    _say_ignored(
        messages, keys.MERGES, bad[keys.MERGES], merges, f"give a whole number from 1 to {MAX_MERGES:,}"
    )
    unknown = seed_from_url(keys.PATTERN, "pattern", PATTERN_LABELS)
    if unknown is not None:
        messages.warning(
            f"The link asks for pre-tokenization {md_escape(repr(unknown), limit=100)}, which is unknown; "
            f"using {DEFAULT_PATTERN}."
        )
    # The default goes in through session_state, not ``index=``: a link's value is set there too, and a
    # widget given both logs a Session State warning with a stack trace in the server's console.
    st.session_state.setdefault(keys.PATTERN, DEFAULT_PATTERN)
    pattern_name = st.selectbox(
        "Pre-tokenization",
        list(PATTERN_LABELS),
        format_func=PATTERN_LABELS.__getitem__,
        key=keys.PATTERN,
        persist_state="session",
        help="How the text is cut into chunks before counting pairs; BPE never merges across chunks.",
    )
    mirror_to_url("pattern", pattern_name, default=DEFAULT_PATTERN)
    if pattern_name == keys.CUSTOM:
        st.session_state.setdefault(keys.CUSTOM_REGEX, DEFAULT_CUSTOM_REGEX)  # a link may set it (no value=)
        pattern = st.text_input(
            "Custom regex (Python `regex` syntax)",
            key=keys.CUSTOM_REGEX,
            persist_state="session",
        )
        if not pattern:
            messages.error("The custom regex is empty: type a pattern, or choose a named pre-tokenization.")
            return None
    else:
        pattern = pattern_name
        source = PATTERNS[pattern_name]
        st.code(
            source if source is not None else "(no split: the whole text is one chunk)",
            language="text",
            wrap_lines=True,
        )
    tie_break = st.selectbox(
        "Tie rule",
        list(TIE_BREAKS),
        key=keys.TIE_BREAK,
        persist_state="session",
        bind="query-params",
        help="Which pair wins when several have the same count.",
    )
    st.caption(TIE_BREAK_HELP[tie_break])
    st.text_area(
        "Special tokens (one a line)",
        key=keys.SPECIAL_TOKENS,
        height=80,
        persist_state="session",
        placeholder="<|endoftext|>",
        help="Cut out of the text before counting; never merged.",
    )
    min_frequency = st.number_input(
        "Minimum pair frequency",
        min_value=1,
        max_value=MAX_MIN_FREQUENCY,
        step=1,
        key=keys.MIN_FREQUENCY,
        persist_state="session",
        help="Stop when the most frequent pair occurs fewer times than this.",
    )
    mirror_to_url(keys.MIN_FREQUENCY, str(min_frequency), default="1")
    _say_ignored(
        messages,
        keys.MIN_FREQUENCY,
        bad[keys.MIN_FREQUENCY],
        min_frequency,
        f"give a whole number from 1 to {MAX_MIN_FREQUENCY:,}",
    )
    try:
        specials = parse_special_tokens(st.session_state.get(keys.SPECIAL_TOKENS, specials_text))
    except ValueError as exc:
        messages.error(f"Special tokens: {md_escape(exc)}.")
        return None
    try:
        settings = TrainOptions(
            vocab_size=256 + len(specials) + int(merges),
            pattern=pattern,
            special_tokens=specials,
            tie_break=tie_break,
            min_frequency=int(min_frequency),
            top_k=TOP_K,
            preview_chars=PREVIEW_CHARS,
        )
    except ValueError as exc:
        messages.error(f"Cannot train with these settings: {md_escape(exc)}.")
        return None
    st.caption(
        f"Vocab size at the end: 256 bytes + {len(specials)} special + {settings.max_merges:,} merges "
        f"= **{settings.vocab_size:,}**"
    )
    return settings
