"""The part of the Train page that reruns alone: the stage and the quiz, then the sections below it.

They are two ``st.fragment`` parts, each rerun alone (:data:`keys.STAGE_PART` and
:data:`keys.BELOW_PART`).  The stage steps in the browser through a window of steps and tells the
server what it needs (:func:`mergescope_ui.train.stage._on_shown`): a window, near the edge of the
one it holds, reruns the stage's part (train ahead, a new window); a step that stepping paused on
("settled") reruns the part below (the URL follows the step, the tables, the what-if, the live
room).  So a burst of Next presses costs the server what the stage needs, and one redraw below.
Each run of the stage's part trains ahead so the stage always has the next steps in hand; a new
section below (such as "What if?") is one more call in :func:`_below`.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.rooms.host import hosting
from mergescope_ui.shared.stage.contract import AHEAD, SETTLE_MS
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.training_run import TrainingRun

from . import details, keys, whatif
from .inputs import Inputs
from .link import link_box, link_state, write_link
from .live import live_room
from .panel_parts import Progress, drop_jump, guess, make_pending_jump, stage_settings
from .quiz import BPE_QUESTION, QuizResult, quiz_html
from .stage import move_stage, stage
from .stage_data import StageViews


def step_panel(run: TrainingRun, inputs: Inputs) -> None:
    """Make a pending jump, then run the stage's part and the part below it, as fragments."""
    slot = st.empty()  # a long jump's progress bar and its Cancel (always here: nothing below moves)
    try:
        _jump(run, slot)
    except ValueError as exc:
        st.error(f"The engine stopped with an error: {md_escape(exc)}.")
    st.fragment(_stage_part, key=keys.STAGE_PART)(inputs=inputs)
    st.fragment(_below, key=keys.BELOW_PART)(inputs=inputs)


def _options() -> StageSettings:
    return stage_settings(settle_ms=_settle_ms())


def _settle_ms() -> int:
    """How long stepping pauses before the page follows: at once while a room's students follow."""
    return 0 if hosting() else SETTLE_MS


def _stage_part(*, inputs: Inputs) -> None:
    """Train ahead, then the quiz's guess and the stage with the window around the step shown."""
    run: TrainingRun | None = st.session_state.get(shared_keys.RUN)
    if run is None:
        return
    options = _options()
    # Always the same elements in the same order: an element that comes and goes before the stage
    # would shift it, and the browser would mount it afresh (losing the step it shows).
    try:
        _train_ahead(run, quiz=options.quiz)
        views = _views(run, inputs)
        if options.quiz:
            _quiz(run)
        stage(run, views, options)
    except ValueError as exc:
        st.error(f"The engine stopped with an error: {md_escape(exc)}.")
        st.session_state.pop(keys.STAGE_SENT, None)  # nothing is drawn below it
        return
    st.session_state[keys.STAGE_SENT] = st.session_state.get(keys.STAGE_SERIAL, 0)
    st.session_state[keys.STAGE_SETTLE] = options.settle_ms


def _below(*, inputs: Inputs) -> None:
    """What follows the step shown once stepping pauses: the URL, the text line, the link, the live
    room, the what-if, the tables."""
    run: TrainingRun | None = st.session_state.get(shared_keys.RUN)
    if run is None or keys.STAGE_SENT not in st.session_state:
        return  # no run, or the stage's part stopped with an error (it says which)
    if st.session_state.get(keys.STAGE_SERIAL, 0) != st.session_state[keys.STAGE_SENT]:
        st.rerun(scope="app")  # a section here moved the run (a what-if's start): the stage follows too
    options = _options()
    moment = link_state(
        run, pasted=inputs.source.text if st.session_state.get(keys.SOURCE) == keys.PASTE else None
    )
    write_link(moment)  # the URL follows the step the stage shows (applied in its callback)
    details.text_line(inputs, run)
    link_box(moment)
    live_room(run, _views(run, inputs), options)  # a live room: students follow this step (#26)
    if _settle_ms() != st.session_state.get(keys.STAGE_SETTLE):
        st.rerun(scope="app")  # a room opened or closed here: the stage reports each step at once, or not
    whatif.what_if(run, moved=move_stage)  # what if one choice had gone the other way (#14)
    details.step_tables(run, large=options.large)
    details.merges_so_far(run, large=options.large)
    whatif.merge_order(run)


def _views(run: TrainingRun, inputs: Inputs) -> StageViews:
    """The stage's views of this run (made afresh for a new run)."""
    views: StageViews | None = st.session_state.get(keys.STAGE_VIEWS)
    if views is None or views.run is not run:
        views = StageViews(run, inputs.source.text)
        st.session_state[keys.STAGE_VIEWS] = views
    return views


def _jump(run: TrainingRun, slot: DeltaGenerator) -> None:
    """Train up to a pending jump, its progress and Cancel in ``slot``
    (:func:`.panel_parts.make_pending_jump`: only in a run of the whole page, outside the fragment)."""

    def bar(pending: int) -> Progress:
        box = slot.container()
        line = box.progress(0.0, text=f"Training up to step {pending:,}…")
        box.button(  # a click reruns the page, which stops the wait; the steps made so far stay
            "Cancel",
            key=keys.JUMP_CANCEL,
            help="Stop training here; the steps made so far stay.",
            on_click=_cancel_jump,
        )

        def progress(done: int, total: int) -> None:
            line.progress(min(1.0, done / max(total, 1)), text=f"Training… {done:,} of {total:,}")

        return progress

    def jump(pending: int, progress: Progress) -> tuple[int, str | None]:
        return run.jump(pending, progress=progress), run.stop_reason

    make_pending_jump(slot, noun="step", bar=bar, jump=jump)


def _train_ahead(run: TrainingRun, *, quiz: bool) -> None:
    """Pull the steps the stage will need, a few past the one shown (a jump is a run of the whole page:
    :func:`_jump`)."""
    if keys.JUMP_PENDING in st.session_state:
        st.rerun()  # the whole page: its Cancel can stop the jump
    want = run.position + (1 if quiz else AHEAD)
    while run.pulled < want and run.pull():
        pass


def _cancel_jump() -> None:
    drop_jump("Training was stopped: showing the step you were on.")


def _quiz(run: TrainingRun) -> None:
    """The guess for the next merge (above the stage), the verdict on the last one, and the score, in a
    slot of one height at every step (quiz.QUIZ_CSS), so the stage below never moves."""
    log: dict[int, QuizResult] = st.session_state.setdefault(keys.QUIZ_LOG, {})
    upcoming = run.peek()
    with st.container(key=keys.QUIZ_SLOT):
        st.html(quiz_html(log.get(run.position), results=list(log.values())) or '<div class="ms-quiz"></div>')
        if upcoming is None:
            st.html('<div class="ms-quiz-done">🏁 No merge left to guess.</div>')
            return
        guess(BPE_QUESTION.question(upcoming), BPE_QUESTION.choices(upcoming))
