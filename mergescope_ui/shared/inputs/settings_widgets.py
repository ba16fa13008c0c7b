"""The settings widgets the pages share: a whole number (read from the link and shown in it when asked),
the pre-tokenization, the tie rule and the special tokens.

The Train page (BPE's settings, WordPiece's and Unigram's sizes), the lab and Compare schemes draw
their settings with these; what differs (keys, labels, ranges, help) is each page's arguments.  Where a
page starts on the engine's own default, it reads it from the engine (:data:`BPE_DEFAULTS`, the
options record's defaults; Unigram's ``SHRINKING_FACTOR``), never a copy of it.

>>> BPE_DEFAULTS.pattern, BPE_DEFAULTS.tie_break == TIE_BREAKS[0]
('gpt2', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import TrainOptions
from bpe_core.bpe import TIE_BREAKS

from ..html.safe_text import md_escape
from ..url_state import ignored_value, mirror_to_url, seed_number_from_url

BPE_DEFAULTS = TrainOptions(vocab_size=256)
"""The engine's BPE defaults (pattern, tie rule, minimum frequency) for what a page does not change."""

PATTERN_LABELS = {
    "none": "none: no split (tokens may span words)",
    "whitespace": "whitespace: runs of space / non-space",
    "gpt2": "GPT-2: words keep a leading space",
    "gpt4": "GPT-4 (cl100k): + digits in 3s",
    "o200k": "GPT-4o (o200k)",
}
"""The named pre-tokenizations as a list shows them; each page picks its order."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NumberSetting:
    """A whole-number setting: its widget ``key``, ``label``, range, ``step``, ``default`` and
    ``help``.  With ``url``, ``?<key>=`` sets it once a session (a bad value is ignored with a warning
    that names it) and the URL shows it when it is not the default."""

    key: str
    label: str
    default: int
    low: int
    high: int
    step: int
    help: str
    url: bool = False

    @property
    def rule(self) -> str:
        """What a valid value is, for a warning.

        >>> NumberSetting(key="merges", label="Merges", default=10, low=1, high=20_000, step=10, help="").rule
        'give a whole number from 1 to 20,000'
        """
        return f"give a whole number from {self.low} to {self.high:,}"

    def seed(self) -> str | None:
        """Before the widget: the link's value (when ``url``) or else the default into its key; the
        link's value when it is not a valid one (for :func:`number_setting`'s warning), else None."""
        bad = seed_number_from_url(self.key, self.key, low=self.low, high=self.high) if self.url else None
        # Through session_state, not value=: a preset or a link sets the key too.
        st.session_state.setdefault(self.key, self.default)
        return bad


def number_setting(setting: NumberSetting, messages: DeltaGenerator, *, bad: str | None = None) -> int:
    """The number input of ``setting`` and its value; call :meth:`NumberSetting.seed` first (it gives
    ``bad``) where the link must be read before other widgets, else this seeds it."""
    bad = setting.seed() if bad is None else bad
    value = int(
        st.number_input(
            setting.label,
            min_value=setting.low,
            max_value=setting.high,
            step=setting.step,
            key=setting.key,
            persist_state="session",
            help=setting.help,
        )
    )
    if setting.url:
        mirror_to_url(setting.key, str(value), default=str(setting.default))
        say_ignored(messages, setting.key, bad, value, setting.rule)
    return value


def say_ignored(messages: DeltaGenerator, param: str, bad: str | None, used: object, rule: str) -> None:
    """Say that the link's value ``bad`` for ``param`` was ignored, and why (nothing when it was good)."""
    if bad is not None:
        note = ignored_value({param: [bad]}, param, used, rule)
        if note is not None:
            messages.warning(md_escape(note[0].upper() + note[1:]) + ".")


def pattern_choice(key: str, labels: Mapping[str, str], *, help: str | None = None) -> str:
    """The pre-tokenization list (``labels``: name -> what the list shows, in its order), starting on
    the engine's default pattern."""
    # The default goes in through session_state, not ``index=``: a link's value is set there too, and a
    # widget given both logs a Session State warning with a stack trace in the server's console.
    st.session_state.setdefault(key, BPE_DEFAULTS.pattern)
    return str(
        st.selectbox(
            "Pre-tokenization",
            list(labels),
            format_func=labels.__getitem__,
            key=key,
            persist_state="session",
            help=help,
        )
    )


def tie_rule(key: str, *, help: str, bound: bool = False) -> str:
    """The tie-rule list (the engine's rules, its default first); ``bound``: kept in the link as
    ``?<key>=`` (Streamlit's ``bind="query-params"``)."""
    return str(
        st.selectbox(
            "Tie rule",
            list(TIE_BREAKS),
            key=key,
            persist_state="session",
            bind="query-params" if bound else None,
            help=help,
        )
    )


def special_tokens_box(key: str, *, label: str, height: int, help: str | None = None) -> str:
    """The text area for special tokens, one a line
    (:func:`~mergescope_ui.shared.settings.parse_special_tokens` reads it)."""
    return st.text_area(
        label, key=key, height=height, persist_state="session", placeholder="<|endoftext|>", help=help
    )
