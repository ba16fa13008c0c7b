"""What the Train page's step view covers and how Play runs: the text's line, speed, jump, "show all"."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .controls import on_jump
from .inputs import Inputs

SPEEDS = {2.0: "slow (2 s)", 1.0: "1 s", 0.5: "fast (0.5 s)", 0.2: "very fast (0.2 s)"}
WINDOW_CHARS = 300  # characters shown as tokens unless the whole preview is asked for: about two boxfuls


@dataclass(frozen=True, slots=True)
class StepWindow:
    """How the step panel runs: Play's state and speed, presenter mode, and the bytes of preview it shows."""

    playing: bool
    speed: float
    large: bool
    window_bytes: int


def view_options(run: TrainingRun, inputs: Inputs) -> StepWindow:
    """The caption about the text, the speed and jump widgets and the "show all" toggle."""
    trainer = run.trainer
    preview = trainer.preview_text
    head = st.container()
    # Speed and jump sit outside the step fragment: at every Next the fragment redraws each of its
    # widgets (~8 ms for these two), and a new speed now re-arms Play's timer at once.
    view, speed_col, jump_col = st.columns([3.6, 1.5, 1.3], vertical_alignment="bottom")
    speed_col.selectbox(
        "Speed (per step)",
        list(SPEEDS),
        index=1,
        format_func=SPEEDS.__getitem__,
        key=keys.PLAY_SPEED,
        persist_state="session",
    )
    jump_col.number_input(
        "Jump to step",
        min_value=0,
        max_value=inputs.settings.max_merges,
        value=0,
        step=1,
        key=keys.JUMP_TO,
        on_change=on_jump,
        help="Type a step number and press Enter; far jumps show progress",
    )
    whole = len(preview) > WINDOW_CHARS and view.toggle(
        f"Show all {len(preview):,} characters of the preview",
        key=keys.WHOLE_PREVIEW,
        persist_state="session",
        help=f"Off: the first {WINDOW_CHARS} characters, about two boxfuls, so each step draws quickly. "
        "On: more text to scroll through, at about twice the drawing work per step.",
    )
    shown = len(preview) if whole else min(len(preview), WINDOW_CHARS)
    head.caption(
        f"**{inputs.source.name}** · {trainer.corpus_bytes:,} bytes · "
        f"{trainer.initial_tokens:,} tokens before any merge"
        f" · the sequences below show the first {shown:,} characters"
        + (" (the whole text)" if shown >= len(inputs.source.text) else f" of {len(inputs.source.text):,}")
    )
    playing = bool(st.session_state.get(keys.PLAYING, False)) and not run.at_end
    return StepWindow(
        playing=playing,
        speed=st.session_state.get(keys.PLAY_SPEED, 1.0),
        large=bool(st.session_state.get(shared_keys.PRESENTER, False)),
        window_bytes=len(preview[:shown].encode("utf-8")),
    )
