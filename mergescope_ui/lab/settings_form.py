"""The lab's Settings (sidebar): largest vocab, pre-tokenization, tie rule, specials, sizes, samples."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import TrainOptions
from bpe_core.analysis import DEFAULT_SAMPLES, LESSON_SIZES
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
from mergescope_ui.shared.settings import parse_special_tokens

from . import keys
from .compute import MAX_VOCAB, LabSettings, parse_sizes

DEFAULT_VOCAB = 4096
DEFAULT_PATTERN = BPE_DEFAULTS.pattern
DEFAULT_SIZES = "1024"
PATTERN_LABELS = {name: NAMED_PATTERNS[name] for name in ("gpt2", "gpt4", "o200k", "whitespace", "none")}
VOCAB = NumberSetting(
    key=keys.VOCAB,
    label="Largest vocab size",
    default=DEFAULT_VOCAB,
    low=257,
    high=MAX_VOCAB,
    step=256,
    help="One training run to this size gives every smaller tokenizer: merges are a prefix order.",
)


def lab_settings(messages: DeltaGenerator) -> LabSettings | None:
    """The training and measuring settings (in the sidebar); None after an error in ``messages``."""
    vocab = number_setting(VOCAB, messages)
    pattern = pattern_choice(keys.PATTERN, PATTERN_LABELS)
    tie = tie_rule(keys.TIE_BREAK, help="\n".join(f"- **{k}**: {v}" for k, v in TIE_BREAK_HELP.items()))
    specials_text = special_tokens_box(
        keys.SPECIAL_TOKENS, label="Special tokens (one a line, optional)", height=68
    )
    sizes_text = st.text_input(
        "Your vocab sizes for the table",
        value=DEFAULT_SIZES,
        key=keys.SIZES,
        persist_state="session",
        help=f"Besides {', '.join(map(str, LESSON_SIZES))} and the largest size; e.g. 1000, 8k.",
    )
    samples = st.number_input(
        "Round-trip sample (characters)",
        min_value=1000,
        max_value=DEFAULT_SAMPLES,
        value=DEFAULT_SAMPLES,
        step=1000,
        key=keys.SAMPLES,
        persist_state="session",
    )
    try:
        specials = parse_special_tokens(specials_text)
        sizes = parse_sizes(sizes_text, smallest=257 + len(specials))
        if vocab < 257 + len(specials):
            raise ValueError(
                f"the largest vocab size must be at least {257 + len(specials)}: 256 bytes + "
                f"{len(specials)} special token(s) + one merge"
            )
        options = TrainOptions(
            vocab_size=int(vocab),
            pattern=pattern,
            special_tokens=specials,
            tie_break=tie,
            top_k=0,
            preview_chars=0,
        )
    except ValueError as exc:
        messages.error(f"Check the settings: {md_escape(exc)}.")
        return None
    return LabSettings(options, sizes=sizes, samples=int(samples))
