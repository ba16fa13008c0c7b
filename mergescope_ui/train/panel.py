"""The part of the Train page that reruns alone: the step buttons, the step line, the quiz and the step view.

It is one ``st.fragment``, so Next/Back/Jump rerun only this part; Play
arms the fragment's timer (``run_every``) and Pause disarms it, each with a
full rerun.
"""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.blocks import status_html
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .controls import controls
from .quiz import QuizResult, choices
from .step_view import step_view
from .window import StepWindow


def step_panel(run: TrainingRun, window: StepWindow) -> None:
    """Run the panel as a fragment, on Play's timer while playing."""
    st.fragment(_panel, run_every=window.speed if window.playing else None)(
        armed=window.playing, large=window.large, window_bytes=window.window_bytes
    )


def _panel(*, armed: bool, large: bool, window_bytes: int) -> None:
    """Controls and the current step; reruns alone on Next/Back/Jump and on Play's timer."""
    run: TrainingRun | None = st.session_state.get(shared_keys.RUN)
    if run is None:
        return
    acted = st.session_state.pop(keys.ACTED, False)
    playing = bool(st.session_state.get(keys.PLAYING, False))
    if playing != armed:  # Play/Pause was pressed: re-arm the timer with a full rerun
        st.rerun(scope="app")
    try:
        if playing and not acted and not run.forward():
            st.session_state[keys.PLAYING] = False
            st.rerun(scope="app")
        run.peek()  # prefetch the next merge: Next is then instant, and the end is known before it is pressed
        pending = st.session_state.pop(keys.JUMP_PENDING, None)
        if pending is not None:
            controls(run, playing=playing)
            bar = st.progress(0.0, text=f"Training up to step {pending}…")
            run.jump(
                pending,
                progress=lambda done, total: bar.progress(
                    min(1.0, done / max(total, 1)), text=f"Training… {done:,} of {total:,}"
                ),
            )
            bar.empty()
        if run.at_end and playing:
            st.session_state[keys.PLAYING] = False
            st.rerun(scope="app")
        show_step = step_view(run, large=large, window_bytes=window_bytes)  # builds; sends nothing yet
        if pending is None:
            controls(run, playing=playing)
        status = _status(run)
        if status and st.session_state.get(keys.QUIZ):
            st.html(status)  # above the quiz
            status = ""
        _quiz(run)
        show_step(status)
    except ValueError as exc:
        st.error(f"The engine stopped with an error: {exc}.")


def _status(run: TrainingRun) -> str:
    """The step line: shown here at the start and the end, else returned as HTML to lead the figures."""
    settings = run.identity.settings
    if run.at_end:
        st.success(
            f"Training finished after {run.pulled:,} merge{'s' if run.pulled != 1 else ''}: "
            f"{run.stop_reason}.",
            icon="🏁",
        )
    elif run.position == 0:
        st.info(
            "Step 0: the text as raw bytes, one token per byte. Press **Next ▶** (or the → key) "
            "to make the first merge.",
            icon="👉",
        )
    else:
        return status_html(f"Step {run.position:,}", f"of up to {settings.max_merges:,} merges")
    return ""


def _quiz(run: TrainingRun) -> None:
    if not st.session_state.get(keys.QUIZ):
        return
    log: dict[int, QuizResult] = st.session_state.setdefault(keys.QUIZ_LOG, {})
    result = log.get(run.position)
    if result is not None:
        show = {"right": st.success, "tied": st.warning, "wrong": st.error}[result.outcome]
        show(result.message + ".", icon={"right": "🎉", "tied": "⚖️", "wrong": "🤔"}[result.outcome])
    if log:
        right = sum(r.outcome == "right" for r in log.values())
        st.caption(f"Quiz score: {right} right out of {len(log)} guesses")
    upcoming = run.peek()
    if upcoming is None:
        return
    st.radio(
        f"🤔 Your guess for merge {upcoming.index}: which pair will merge?",
        choices(upcoming),
        index=None,
        horizontal=True,
        key=keys.QUIZ_GUESS,
    )
