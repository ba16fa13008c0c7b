"""The Train page below the sidebar, the same for every scheme: a pending jump, then the stage and the
quiz, then the sections below it, all asking the session's :data:`~.scheme_driver.Driver`.

The stage and what follows it are two ``st.fragment`` parts, each rerun alone: the stage steps in the
browser through a window of steps and tells the server what it needs (:func:`.stage._on_shown`); a
window reruns the stage's part (train ahead, a new window), a step that stepping paused on ("settled")
the part below.  So a burst of Next presses costs one redraw below.  What a scheme does its own way is
its :class:`Page`.

A jump past the steps trained is pending (:data:`keys.JUMP_PENDING`) until a run of the whole page
makes it (:func:`_jump`): a click inside a fragment waits for the fragment's run to end, so a Cancel
inside one would act only once the jump was over.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.rooms.host import hosting
from mergescope_ui.shared.stage.contract import SETTLE_MS
from mergescope_ui.shared.stage.producer import StageSettings

from . import keys
from .inputs import Inputs
from .scheme_driver import Driver, Progress
from .stage import move_stage, stage

T = TypeVar("T")
SHOW_AFTER = 0.3  # seconds: a wait shorter than this draws no bar (it would only flash)
STOPPED = "Training was stopped: showing the step you were on."


@dataclass(frozen=True, slots=True)
class Page:
    """What the Train page does its own way for a scheme (:data:`.session_run.PAGES`): ``start`` the
    session's run (None after a message in the container given), the ``bar`` of a jump to a step in a
    slot, the sections ``below`` the stage, the first words of the message when the run ``stopped``, to
    forget it for a "Start again" button (``restart``; None: no button, a jump's error is said at once)."""

    start: Callable[[Inputs, DeltaGenerator], Driver | None]
    bar: Callable[[Driver, DeltaGenerator, int], Progress]
    below: Callable[[Any, Inputs, StageSettings], None]
    stopped: str
    restart: Callable[[], None] | None = None


def step_panel(driver: Driver, inputs: Inputs, page: Page) -> None:
    """Make a pending jump, then run the stage's part and the part below it, as fragments."""
    slot = st.empty()  # a long jump's progress bar and its Cancel (always here: nothing below moves)
    try:
        _jump(driver, page, slot)
    except ValueError as exc:
        if page.restart is None:  # else the stage's part says why, with its button
            st.error(f"{md_escape(page.stopped)}: {md_escape(exc)}.")
    st.fragment(_stage_part, key=keys.STAGE_PART)(inputs=inputs, page=page)
    st.fragment(_below, key=keys.BELOW_PART)(inputs=inputs, page=page)


def stage_settings() -> StageSettings:
    """The stage's settings from the sidebar's classroom choices (the quiz, presenter mode, the
    animation, Play's speed); stepping reports each step at once while a room's students follow."""
    quiz = bool(st.session_state.get(keys.QUIZ))
    return StageSettings(
        large=bool(st.session_state.get(shared_keys.PRESENTER, False)),
        quiz=quiz,
        animate=bool(st.session_state.get(keys.ANIMATE, True)),
        speed=float(st.session_state.get(keys.PLAY_SPEED, 1.0)),
        settle_ms=0 if hosting() else SETTLE_MS,
        hint=quiz and bool(st.session_state.get(keys.QUIZ_HINT)),
    )


def _stage_part(*, inputs: Inputs, page: Page) -> None:
    """Train ahead, then the stage with the window around the step shown (and, in the quiz, the questions
    about the steps after it: the stage asks them itself)."""
    driver: Driver | None = st.session_state.get(keys.DRIVER)
    if driver is None:
        return
    options = stage_settings()
    # Always the same elements in the same order: an element that comes and goes before the stage
    # would shift it, and the browser would mount it afresh (losing the step it shows).
    slot = st.empty()  # a wait's progress bar
    try:
        _train_ahead(driver, slot=slot)
        stage(driver, options)
    except ValueError as exc:
        slot.empty()
        st.error(f"{md_escape(page.stopped)}: {md_escape(exc)}.")
        if page.restart is not None:
            st.button("Start again", key=keys.SCHEME_RESTART, on_click=page.restart)
        st.session_state.pop(keys.STAGE_SENT, None)  # nothing is drawn below it
        return
    st.session_state[keys.STAGE_SENT] = st.session_state.get(keys.STAGE_SERIAL, 0)
    st.session_state[keys.STAGE_SETTLE] = options.settle_ms


def _below(*, inputs: Inputs, page: Page) -> None:
    """What follows the step shown once stepping pauses (the scheme's :attr:`Page.below`)."""
    driver: Driver | None = st.session_state.get(keys.DRIVER)
    if driver is None or keys.STAGE_SENT not in st.session_state:
        return  # no run, or the stage's part stopped with an error (it says which)
    if st.session_state.get(keys.STAGE_SERIAL, 0) != st.session_state[keys.STAGE_SENT]:
        st.rerun(scope="app")  # a section here moved the run (a what-if's start): the stage follows too
    options = stage_settings()
    page.below(driver, inputs, options)
    if options.settle_ms != st.session_state.get(keys.STAGE_SETTLE):
        st.rerun(scope="app")  # a room opened or closed here: the stage reports each step at once, or not


def begin(key: str, run: T, notice: str = "") -> T:
    """Keep the new ``run`` under ``key``, with an empty quiz log; the stage shows it (``notice``)."""
    st.session_state[key] = run
    st.session_state[keys.QUIZ_LOG] = {}
    move_stage(notice)
    return run


def pasted(inputs: Inputs) -> str | None:
    """The text, when it was pasted (a link carries it)."""
    return inputs.source.text if st.session_state.get(keys.SOURCE) == keys.PASTE else None


def _jump(driver: Driver, page: Page, slot: DeltaGenerator) -> None:
    """Train up to a pending jump, if any (see the module docstring), its bar (and Cancel) in ``slot``,
    emptied after.  The jump stays pending until it is made (or cancelled, or failed): a run stopped on
    the way (a rerun the browser asked for meanwhile) leaves it to the next, which may hear no new
    report (the browser's last one equals it)."""
    pending = st.session_state.get(keys.JUMP_PENDING)
    if pending is None:
        return
    progress = page.bar(driver, slot, pending)
    try:
        state = driver.jump(int(pending), progress=progress)
    except ValueError:
        drop_jump()  # a jump that failed is not tried again (the panel says why)
        raise
    drop_jump()
    slot.empty()  # the bar and its Cancel
    reached, stop, noun = state.position, state.stop_reason, driver.noun
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


def counted_bar(driver: Driver, slot: DeltaGenerator, pending: int) -> Progress:
    """A jump's bar at once, counting the steps trained, with Cancel."""
    box = slot.container()
    line = box.progress(0.0, text=f"Training up to {driver.noun} {pending:,}…")
    box.button(  # a click reruns the page, which stops the wait; the steps made so far stay
        "Cancel",
        key=keys.JUMP_CANCEL,
        help="Stop training here; the steps made so far stay.",
        on_click=drop_jump,
        args=(STOPPED,),
    )

    def progress(done: int, total: int) -> None:
        line.progress(min(1.0, done / max(total, 1)), text=f"Training… {done:,} of {total:,}")

    return progress


def share_bar(driver: Driver, slot: DeltaGenerator, pending: int) -> Progress:
    """A jump's bar (once it lasts), in shares, with Cancel; after the end of a request left half
    answered."""
    driver.settle(progress=delayed_bar(slot, "Finishing the training under way…"))
    label = f"Training up to {driver.noun} {pending:,}…"
    return delayed_bar(slot, label, cancel=keys.JUMP_CANCEL, on_cancel=lambda: drop_jump(STOPPED))


def _train_ahead(driver: Driver, *, slot: DeltaGenerator) -> None:
    """Train a few steps past the one shown (a pending jump is a run of the whole page: :func:`_jump`)."""
    if keys.JUMP_PENDING in st.session_state:
        st.rerun()  # the whole page: its Cancel can stop the jump
    driver.settle(progress=delayed_bar(slot, "Finishing the training under way…"))  # a request half answered
    slot.empty()
    position = driver.state.position
    want = position + driver.ahead  # the quiz too: the stage asks, judges and reveals in the browser
    if driver.state.pulled < want and not driver.state.finished:  # no Cancel: a round ends once begun
        label = f"Training {driver.noun} {position + 1:,} ahead, so Next is instant…"
        driver.advance(want, progress=delayed_bar(slot, label))
        slot.empty()


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
