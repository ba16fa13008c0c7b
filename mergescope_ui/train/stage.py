"""The stage: the Train page's one screen for the current step, a Streamlit components v2 component.

It draws the step controls (Back, Next, Play, Reset, Jump to step, the arrow keys), the step line, the
card, the chart and the text around the step, from a window of steps (the records of
:mod:`mergescope_ui.shared.stage.contract`, from the driver's views).  It steps through that window in
the browser, with no server round trip, and reports what it shows as one state value, a
:class:`~mergescope_ui.shared.stage.contract.Shown`: :func:`_on_shown` applies it to the session's
driver, and reruns the stage's part of the page for a window, the part below it for a paused step
(:mod:`.panel`).  A step past the window is a jump (trained first).  In the quiz the stage asks the
questions the window carries, judges each guess in the browser and reveals the step at once; its
reports carry the answers the server has not listed yet, which the server grades again and keeps
(:data:`keys.QUIZ_LOG`, sent back with every window).  When the server moves the stage itself (a jump
that had to train, a new run) it bumps the serial, and the stage takes the position it is sent.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st
from streamlit.errors import StreamlitAPIException

from mergescope_ui.shared.stage.component import mount_stage
from mergescope_ui.shared.stage.contract import Answer, read_shown
from mergescope_ui.shared.stage.producer import StageSettings

from . import keys
from .quiz import QuizResult
from .scheme_driver import Driver


def stage(driver: Driver, settings: StageSettings) -> None:
    """Mount the stage with the window around the step ``driver`` shows."""
    serial = st.session_state.setdefault(keys.STAGE_SERIAL, 0)
    notice = st.session_state.pop(keys.STAGE_NOTICE, "")
    tab = st.session_state.get(keys.STAGE_TAB, "places")
    window = driver.window(serial=serial, options=settings, notice=notice, tab=tab)
    if settings.quiz:
        log: dict[int, QuizResult] = st.session_state.get(keys.QUIZ_LOG, {})
        answers = tuple(Answer(step=k, guess=r.guess, outcome=r.outcome) for k, r in sorted(log.items()))
        window = replace(window, answers=answers)
    mount_stage(window, key=keys.STAGE, on_shown=_on_shown)


def move_stage(notice: str = "") -> None:
    """Say that the server moved the run itself: the stage takes the position it is sent next."""
    st.session_state[keys.STAGE_SERIAL] = st.session_state.get(keys.STAGE_SERIAL, 0) + 1
    if notice:
        st.session_state[keys.STAGE_NOTICE] = notice


def _on_shown() -> None:
    """The stage shows another step (or needs other places of it, or judged quiz answers): follow it,
    and keep the answers.  A settled report reruns what sits below the stage (:data:`keys.BELOW_PART`),
    and the stage's part too when it needs a window or moves the stage (a jump); any other only the
    stage's part (its own)."""
    driver: Driver | None = st.session_state.get(keys.DRIVER)
    report = read_shown((st.session_state.get(keys.STAGE) or {}).get("shown"))
    serial = st.session_state.get(keys.STAGE_SERIAL, 0)
    if driver is None or report is None or report.serial != serial:
        return  # no run, not a report, or one about a window the server has moved on from
    k = report.position
    st.session_state.pop(keys.JUMP_PENDING, None)  # a newer report supersedes a jump not yet made
    st.session_state[keys.STAGE_TAB] = report.tab
    try:
        state = driver.state
        log: dict[int, QuizResult] = st.session_state.setdefault(keys.QUIZ_LOG, {})
        for answer in report.answers:  # the quiz's guesses the stage judged: graded again here, kept
            if answer.step not in log:
                result = driver.grade(answer.step, answer.guess)
                if result is not None:
                    log[answer.step] = result
        if 0 < k <= state.pulled:
            driver.places_from(k, report.start)
        if k <= state.pulled:
            driver.show(k)
        else:
            st.session_state[keys.JUMP_PENDING] = k
    except ValueError:
        return  # the worker ended: the panel says why
    if not report.settled:
        return
    moved = keys.JUMP_PENDING in st.session_state or st.session_state.get(keys.STAGE_SERIAL, 0) != serial
    try:
        st.rerun([keys.STAGE_PART, keys.BELOW_PART] if report.window or moved else keys.BELOW_PART)
    except StreamlitAPIException:
        return  # the page was last drawn without its parts (never with the stage on it): the stage's rerun
