"""The Train page's step buttons and what each does (callbacks run before the rerun: one click = one step)."""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .quiz import grade


def _run() -> TrainingRun:
    return st.session_state[shared_keys.RUN]


def _on_next() -> None:
    run = _run()
    guess = st.session_state.get(keys.QUIZ_GUESS)
    upcoming = run.peek()
    if st.session_state.get(keys.QUIZ) and guess and upcoming is not None:
        st.session_state.setdefault(keys.QUIZ_LOG, {})[upcoming.index] = grade(guess, upcoming)
    run.forward()
    st.session_state[keys.QUIZ_GUESS] = None
    st.session_state[keys.ACTED] = True


def _on_back() -> None:
    _run().back()
    st.session_state[keys.ACTED] = True


def _on_reset() -> None:
    _run().reset()
    st.session_state[keys.PLAYING] = False
    st.session_state[keys.ACTED] = True


def _on_play() -> None:
    st.session_state[keys.PLAYING] = not st.session_state.get(keys.PLAYING, False)
    st.session_state[keys.ACTED] = True


def on_jump() -> None:
    st.session_state[keys.JUMP_PENDING] = int(st.session_state.get(keys.JUMP_TO, 0))
    st.session_state[keys.PLAYING] = False
    st.session_state[keys.ACTED] = True


def controls(run: TrainingRun, *, playing: bool) -> None:
    """The row of step buttons: Back, Next, Play/Pause, Reset (keys ← → P)."""
    # One horizontal container, not st.columns: five blocks fewer for the browser to redraw at every Next.
    # The buttons' size comes from shared.theme.BASE_CSS (.st-key-<key>), in rem so presenter mode scales it.
    row = st.container(horizontal=True, gap="medium", vertical_alignment="bottom")
    row.button(
        "◀ Back",
        key=keys.BACK,
        on_click=_on_back,
        disabled=run.position == 0,
        width="content",
        shortcut="Left",
        help="Previous merge (nothing retrains)",
    )
    row.button(
        "Next ▶",
        key=keys.NEXT,
        on_click=_on_next,
        disabled=run.at_end,
        type="primary",
        width="content",
        shortcut="Right",
        help="Reveal the next merge",
    )
    row.button(
        "Pause" if playing else "Play",
        key=keys.PLAY,
        on_click=_on_play,
        icon=":material/pause:" if playing else ":material/play_arrow:",
        disabled=run.at_end and not playing,
        width="content",
        shortcut="P",
        help="Step automatically at the chosen speed",
    )
    row.button(
        "Reset",
        key=keys.RESET,
        on_click=_on_reset,
        width="content",
        icon=":material/first_page:",
        help="Back to step 0; the merges learned so far are kept for replay",
    )
