"""The stage: the Train page's one screen for the current step, a Streamlit components v2 component.

It draws the step controls (Back, Next, Play, Reset, Jump to step, the arrow
keys), the step line, the merge card, the compact pair chart and the
sequence before and after the merge, from a window of steps built in
:mod:`.stage_data`.  It steps through that window in the browser, with no
server round trip (``stage_assets/stage.js``), and reports the step shown;
the callbacks here apply what it reports to the run.  When the server moves
the stage itself (a jump that had to train, the quiz's Next, a new run) it
bumps a serial number, and the stage takes the position it is sent.

Every string in the data is HTML-escaped on the server; the component's own
HTML, CSS and JavaScript are the constant files in ``stage_assets/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .quiz import grade
from .stage_data import StageOptions, StageViews

ASSETS = Path(__file__).with_name("stage_assets")
_COMPONENT = st.components.v2.component(
    "mergescope_train_stage",
    html=(ASSETS / "stage.html").read_text(encoding="utf-8"),
    css=(ASSETS / "stage.css").read_text(encoding="utf-8"),
    js=(ASSETS / "stage.js").read_text(encoding="utf-8"),
    isolate_styles=False,  # the page's token and card styles apply inside
)
MAX_STEP = 10_000_000  # a step number from the browser above this is not a step


def stage(run: TrainingRun, views: StageViews, options: StageOptions) -> None:
    """Mount the stage with the window around ``run.position``."""
    serial = st.session_state.setdefault(keys.STAGE_SERIAL, 0)
    notice = st.session_state.pop(keys.STAGE_NOTICE, "")
    data = views.payload(position=run.position, serial=serial, options=options, notice=notice)
    _COMPONENT(
        key=keys.STAGE,
        data=data,
        on_position_change=_on_position,
        on_jump_change=_on_jump,
        on_next_change=_on_next,
        on_places_change=_on_places,
    )


def move_stage(notice: str = "") -> None:
    """Say that the server moved the run itself: the stage takes the position it is sent next."""
    st.session_state[keys.STAGE_SERIAL] = st.session_state.get(keys.STAGE_SERIAL, 0) + 1
    if notice:
        st.session_state[keys.STAGE_NOTICE] = notice


def _event(name: str) -> Any:
    state = st.session_state.get(keys.STAGE) or {}
    return state.get(name)


def _step(value: Any) -> int | None:
    """A step number sent by the browser, or None when it is not one."""
    if isinstance(value, dict):
        value = value.get("step")
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return None
    return int(value) if 0 <= value <= MAX_STEP else None


def _on_position() -> None:
    """The stage shows another step: follow it (and train up to it if it is past the steps made)."""
    run: TrainingRun | None = st.session_state.get(shared_keys.RUN)
    k = _step(_event("position"))
    if run is None or k is None:
        return
    if k <= run.pulled:
        run.position = k
    else:
        st.session_state[keys.JUMP_PENDING] = k


def _on_jump() -> None:
    k = _step(_event("jump"))
    if k is not None:
        st.session_state[keys.JUMP_PENDING] = k


def _on_next() -> None:
    """The quiz's Next: grade the guess against the merge it reveals, then show that merge."""
    run: TrainingRun | None = st.session_state.get(shared_keys.RUN)
    k = _step(_event("next"))
    if run is None or k is None:
        return
    run.position = min(k, run.pulled)
    upcoming = run.peek()
    guess = st.session_state.get(keys.QUIZ_GUESS)
    if guess and upcoming is not None:
        st.session_state.setdefault(keys.QUIZ_LOG, {})[upcoming.index] = grade(guess, upcoming)
    run.forward()
    st.session_state[keys.QUIZ_GUESS] = None
    move_stage()


def _on_places() -> None:
    """The stage asks for more places of one step's new token."""
    views: StageViews | None = st.session_state.get(keys.STAGE_VIEWS)
    asked = _event("places")
    if views is None or not isinstance(asked, dict):
        return
    k, start = _step(asked.get("step")), _step(asked.get("start"))
    if k is not None and start is not None and 0 < k <= views.run.pulled:
        views.place_start[k] = start
