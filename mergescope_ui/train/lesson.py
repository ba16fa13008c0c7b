"""The sidebar's "Lesson preset": one choice sets the text and every training setting of a published lesson.

The presets are :mod:`.presets`.  A built-in corpus with its own lesson sets that lesson's settings too.
"""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape

from . import keys
from .presets import BY_ID, CORPUS_LESSONS, PRESETS, Preset

NO_PRESET = ""


def lesson_settings(preset: Preset) -> None:
    """Set the preset's training settings (before the widgets are drawn)."""
    st.session_state[keys.PATTERN] = preset.pattern
    st.session_state[keys.TIE_BREAK] = preset.tie_break
    st.session_state[keys.MIN_FREQUENCY] = preset.min_frequency
    st.session_state[keys.MERGES] = preset.merges
    st.session_state[keys.SPECIAL_TOKENS] = ""


def _on_preset() -> None:
    """Set the text and the settings of the preset chosen (before the widgets are drawn)."""
    preset = BY_ID.get(st.session_state.get(keys.PRESET) or NO_PRESET)
    if preset is None:
        return
    if preset.corpus is not None:
        st.session_state[keys.SOURCE] = preset.corpus
    else:
        st.session_state[keys.SOURCE] = keys.PASTE
        st.session_state[keys.PASTED_TEXT] = preset.text
    lesson_settings(preset)


def on_corpus() -> None:
    """The Text selectbox changed: a corpus with its own lesson brings that lesson's settings."""
    preset = CORPUS_LESSONS.get(str(st.session_state.get(keys.SOURCE, "")))
    if preset is not None:
        lesson_settings(preset)
        st.session_state[keys.PRESET] = preset.id


def preset_picker() -> None:
    """The selectbox (call inside ``st.sidebar``, before the Text and Training widgets) and its source."""
    options = [NO_PRESET, *(p.id for p in PRESETS)]
    choice = st.selectbox(
        "Lesson preset",
        options,
        format_func=lambda i: BY_ID[i].title if i else "— none: choose the text and settings yourself —",
        key=keys.PRESET,
        on_change=_on_preset,
        help="A published lesson: its text and every training setting, so the stage shows its merges.",
    )
    if choice:
        preset = BY_ID[choice]
        shown = ", ".join(m.replace(" ", " + ") for m in preset.published)
        st.caption(f"{md_escape(preset.source)}. Published merges: {md_escape(shown)}.")
