"""What the Train page's two panels share (BPE's :mod:`.panel`, WordPiece's and Unigram's
:mod:`.scheme_panel`): the stage's settings, a pending jump made with its bar (and Cancel), the quiz's
guess, and a bar that shows only for a wait long enough to see.

A jump the stage asks for past the steps trained is pending (:data:`keys.JUMP_PENDING`) until a run
of the whole page makes it (:func:`make_pending_jump`): a click inside a fragment waits for the
fragment's run to end (Streamlit never lets a rerun preempt a fragment's run), so a Cancel inside one
would act only once the jump was over.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.stage.contract import SETTLE_MS
from mergescope_ui.shared.stage.producer import StageSettings

from . import keys
from .quiz import choice_labels
from .stage import move_stage

Progress = Callable[[int, int], object]
SHOW_AFTER = 0.3  # seconds: a wait shorter than this draws no bar (it would only flash)


def stage_settings(*, settle_ms: int = SETTLE_MS) -> StageSettings:
    """The stage's settings from the sidebar's classroom choices (the quiz, presenter mode, the
    animation, Play's speed)."""
    quiz = bool(st.session_state.get(keys.QUIZ))
    return StageSettings(
        large=bool(st.session_state.get(shared_keys.PRESENTER, False)),
        quiz=quiz,
        animate=bool(st.session_state.get(keys.ANIMATE, True)),
        speed=float(st.session_state.get(keys.PLAY_SPEED, 1.0)),
        arrows_from=f".st-key-{keys.QUIZ_GUESS}" if quiz else "",  # the guess: ← → step, ↑ ↓ choose
        settle_ms=settle_ms,
    )


def make_pending_jump(
    slot: DeltaGenerator,
    *,
    noun: str,
    bar: Callable[[int], Progress],
    jump: Callable[[int, Progress], tuple[int, str | None]],
) -> None:
    """Train up to a pending jump, if any (see the module docstring): ``bar(target)`` draws its progress
    (and Cancel) in ``slot``, emptied after; ``jump(target, progress)`` makes it and returns the step
    reached and, once training has finished, why; ``noun`` names a step in the notice.  The jump stays
    pending until it is made (or cancelled, or failed): a run stopped on the way (a rerun the browser
    asked for meanwhile) leaves it to the next, which may hear no new report (the browser's last one
    equals it)."""
    pending = st.session_state.get(keys.JUMP_PENDING)
    if pending is None:
        return
    progress = bar(pending)
    try:
        reached, stop = jump(int(pending), progress)
    except ValueError:
        drop_jump()  # a jump that failed is not tried again (the panel says why)
        raise
    drop_jump()
    slot.empty()  # the bar and its Cancel
    move_stage(
        f"Training stopped at {noun} {reached:,}: {stop}. Showing {noun} {reached:,}."
        if reached < pending and stop
        else ""
    )


def drop_jump(notice: str = "") -> None:
    """The pending jump is made (or cancelled, or failed): no run makes it again."""
    st.session_state.pop(keys.JUMP_PENDING, None)
    if notice:
        move_stage(notice)


def guess(question: str, choices: Sequence[str]) -> None:
    """The quiz's guess for the next step: ``question`` with its ``choices`` beside it (quiz.QUIZ_CSS)."""
    shown = choice_labels(choices)
    st.radio(
        md_escape(question),
        list(choices),
        index=None,
        horizontal=True,
        key=keys.QUIZ_GUESS,
        format_func=lambda option: md_escape(shown.get(option, option)),
    )


def delayed_bar(slot: DeltaGenerator, label: str, *, cancel: str = "", on_cancel: Any = None) -> Progress:
    """A progress callback that draws its bar (and a Cancel button, ``cancel`` its key) in ``slot`` once
    a wait has lasted :data:`SHOW_AFTER`: a short wait draws nothing."""
    drawn: list[Any] = []
    began = time.monotonic()

    def progress(done: int, total: int) -> None:
        if not drawn and time.monotonic() - began < SHOW_AFTER:
            return
        share = min(1.0, done / max(total, 1))
        text = md_escape(f"{label} {share:.0%}")
        if not drawn:
            box = slot.container()
            drawn.append(box.progress(share, text=text))
            if cancel:
                box.button("Cancel", key=cancel, help="Stop training here.", on_click=on_cancel)
        drawn[0].progress(share, text=text)

    return progress
