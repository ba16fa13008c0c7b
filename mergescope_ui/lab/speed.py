"""The lab's speed lesson: the textbook trainer against the fast one, timed on the training text's start."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.analysis import GPT2_BYTES, GPT2_MERGES, SpeedLesson, time_trainers
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html.safe_text import md_escape

from . import keys
from .compute import LabSettings
from .tables import human_duration


@dataclass(frozen=True, slots=True)
class TimedLesson:
    """A speed lesson and what it timed (the sample's digest and the options)."""

    identity: tuple[object, ...]
    lesson: SpeedLesson


def _number(
    where: DeltaGenerator, label: str, key: str, *, low: int, high: int, start: int, step: int
) -> int:
    return int(
        where.number_input(
            label, min_value=low, max_value=high, value=start, step=step, key=key, persist_state="session"
        )
    )


def _ask() -> None:
    st.session_state[keys.SPEED_ASKED] = True


def speed_lesson(train: str, settings: LabSettings) -> None:
    """Time both trainers on a button press; the result stays until the sample or settings change."""
    st.subheader("Why the fast trainer matters")
    st.write(
        "The textbook trainer recounts every pair of the whole text at every merge; the fast one only "
        "visits the places where the merged pair occurs. Time both on the start of your training text:"
    )
    c1, c2 = st.columns(2)
    merges = _number(c1, "Merges", keys.SPEED_MERGES, low=10, high=500, start=100, step=10)
    size = _number(
        c2, "Characters of the training text", keys.SPEED_CHARS, low=500, high=20_000, start=4000, step=500
    )
    sample = train[:size]
    options = settings.options.replace(vocab_size=settings.options.base_vocab + merges)
    identity = (digest(sample), options)
    st.button("⏱ Time both trainers", key=keys.SPEED_RUN, on_click=_ask)
    # A callback's flag survives a rerun, a click's value not.
    if st.session_state.pop(keys.SPEED_ASKED, False):
        with st.spinner("Timing the textbook trainer, then the fast one…"):
            try:
                lesson = time_trainers(sample, options)
            except ValueError as exc:
                st.error(f"Cannot time the trainers: {md_escape(exc)}.")
                return
        st.session_state[keys.SPEED_RESULT] = TimedLesson(identity, lesson)
    stored: TimedLesson | None = st.session_state.get(keys.SPEED_RESULT)
    if stored is None or stored.identity != identity:
        return
    lesson = stored.lesson
    cols = st.columns(3)
    cols[0].metric("Textbook trainer", human_duration(lesson.textbook_seconds))
    cols[1].metric("Fast trainer", human_duration(lesson.fast_seconds))
    cols[2].metric("Speed-up", f"{lesson.speedup:,.1f}×")
    if lesson.merges == 0:
        st.info("No merge was possible on this text; choose a longer text.")
        return
    est = lesson.extrapolate()
    st.write(
        f"Both learned {lesson.merges:,} merges on {lesson.text_bytes:,} bytes"
        + (
            " and the **same merges** in the same order."
            if lesson.same_merges
            else ", but different merges (a bug: please report it)."
        )
    )
    st.write(
        f"A GPT-2-sized run ({GPT2_MERGES:,} merges on {GPT2_BYTES / 1e9:.0f} GB of text), "
        "scaled from these timings: "
        f"textbook ≈ **{human_duration(est.textbook_seconds)}**, "
        f"fast ≈ **{human_duration(est.fast_seconds)}**."
    )
    st.caption(
        "The textbook time grows with text size × merges; the fast one with the text size (a merge can only "
        "remove tokens that exist). Rough orders of magnitude in pure Python on this machine, not forecasts."
    )
