"""The Training section of the Train page's sidebar: merges, pre-tokenization, tie rule, specials, minimum.

``?merges=``, ``?pattern=``, ``?tie_break=`` and ``?min_frequency=`` set them from a link; a bad value
is ignored with a warning that names it (cut short) and says why.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import PATTERNS, TrainOptions
from bpe_core.bpe import TIE_BREAK_HELP
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.settings_widgets import (
    BPE_DEFAULTS,
    NumberSetting,
    number_setting,
    pattern_choice,
    special_tokens_box,
    tie_rule,
)
from mergescope_ui.shared.inputs.settings_widgets import PATTERN_LABELS as NAMED_PATTERNS
from mergescope_ui.shared.settings import MAX_MERGES, PREVIEW_CHARS, TOP_K, parse_special_tokens
from mergescope_ui.shared.url_state import mirror_to_url, seed_from_url

from . import keys

DEFAULT_PATTERN = BPE_DEFAULTS.pattern
PATTERN_LABELS = {**NAMED_PATTERNS, keys.CUSTOM: "custom regex…"}
DEFAULT_CUSTOM_REGEX = r"\w+|\s+|[^\w\s]+"
MAX_MIN_FREQUENCY = 10**9  # a pair occurs at most once per character of the text
MERGES = NumberSetting(
    key=keys.MERGES,
    label="Merges to learn",
    default=100,
    low=1,
    high=MAX_MERGES,
    step=10,
    help="Training stops here, or earlier when no pair is left.",
    url=True,
)
MIN_FREQUENCY = NumberSetting(
    key=keys.MIN_FREQUENCY,
    label="Minimum pair frequency",
    default=BPE_DEFAULTS.min_frequency,
    low=1,
    high=MAX_MIN_FREQUENCY,
    step=1,
    help="Stop when the most frequent pair occurs fewer times than this.",
    url=True,
)


def settings_widgets(messages: DeltaGenerator) -> TrainOptions | None:
    """The training settings (call inside ``st.sidebar``); None after an error in ``messages`` (a
    ValueError for settings the engine refuses)."""
    bad = {setting.key: setting.seed() for setting in (MERGES, MIN_FREQUENCY)}  # before any widget
    merges = number_setting(MERGES, messages, bad=bad[keys.MERGES])
    unknown = seed_from_url(keys.PATTERN, "pattern", PATTERN_LABELS)
    if unknown is not None:
        messages.warning(
            f"The link asks for pre-tokenization {md_escape(repr(unknown), limit=100)}, which is unknown; "
            f"using {DEFAULT_PATTERN}."
        )
    pattern_name = pattern_choice(
        keys.PATTERN,
        PATTERN_LABELS,
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
    tie_break = tie_rule(keys.TIE_BREAK, help="Which pair wins when several have the same count.", bound=True)
    st.caption(TIE_BREAK_HELP[tie_break])
    specials_text = special_tokens_box(
        keys.SPECIAL_TOKENS,
        label="Special tokens (one a line)",
        height=80,
        help="Cut out of the text before counting; never merged.",
    )
    min_frequency = number_setting(MIN_FREQUENCY, messages, bad=bad[keys.MIN_FREQUENCY])
    try:
        specials = parse_special_tokens(specials_text)
    except ValueError as exc:
        messages.error(f"Special tokens: {md_escape(exc)}.")
        return None
    settings = TrainOptions(  # a bad one: a ValueError, said by the sidebar
        vocab_size=256 + len(specials) + int(merges),
        pattern=pattern,
        special_tokens=specials,
        tie_break=tie_break,
        min_frequency=int(min_frequency),
        top_k=TOP_K,
        preview_chars=PREVIEW_CHARS,
    )
    st.caption(
        f"Vocab size at the end: 256 bytes + {len(specials)} special + {settings.max_merges:,} merges "
        f"= **{settings.vocab_size:,}**"
    )
    return settings
