"""The part of the Train page that reruns alone: the stage, the quiz and the sections below it.

It is one ``st.fragment``: when the stage reports a new step (or asks to
jump, or the quiz's Next), only this part reruns.  Each run trains ahead so
the stage always has the next steps in hand, then draws its sections in
order; a new section (such as "What if?") is one more call in :func:`_panel`.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.safe_text import md_escape
from mergescope_ui.shared.training_run import TrainingRun

from . import details, keys, whatif
from .inputs import Inputs
from .link import link_box, link_state, write_link
from .live import live_room
from .quiz import QuizResult, choice_labels, choices, question, quiz_html
from .stage import move_stage, stage
from .stage_data import AHEAD, StageOptions, StageViews


def step_panel(run: TrainingRun, inputs: Inputs) -> None:
    """Make a pending jump, then run the panel as a fragment."""
    slot = st.empty()  # a long jump's progress bar and its Cancel (always here: nothing below moves)
    try:
        _jump(run, slot)
    except ValueError as exc:
        st.error(f"The engine stopped with an error: {md_escape(exc)}.")
    st.fragment(_panel)(inputs=inputs)


def _panel(*, inputs: Inputs) -> None:
    run: TrainingRun | None = st.session_state.get(shared_keys.RUN)
    if run is None:
        return
    quiz = bool(st.session_state.get(keys.QUIZ))
    options = StageOptions(
        large=bool(st.session_state.get(shared_keys.PRESENTER, False)),
        quiz=quiz,
        animate=bool(st.session_state.get(keys.ANIMATE, True)),
        speed=float(st.session_state.get(keys.PLAY_SPEED, 1.0)),
        arrows_from=f".st-key-{keys.QUIZ_GUESS}" if quiz else "",  # the guess: ← → step, ↑ ↓ choose
    )
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
        return
    moment = link_state(
        run, pasted=inputs.source.text if st.session_state.get(keys.SOURCE) == keys.PASTE else None
    )
    write_link(moment)  # the URL follows the step the stage shows (applied above, in its callback)
    details.text_line(inputs, run)
    link_box(moment)
    live_room(run, views, options)  # a live room: students follow this step on their phones (#26)
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
    """Train up to a pending jump, its progress and Cancel in ``slot``.

    Only in a run of the whole page, outside the fragment: a click inside a fragment waits for the
    fragment's run to end (Streamlit never lets a rerun preempt a fragment's run), so a Cancel there
    would act only once the jump was over.  The jump stays pending until it is made (or cancelled,
    or failed): a run stopped on the way (a rerun the browser asked for meanwhile) leaves it to the
    next, which may hear no new report (the browser's last one equals it)."""
    pending = st.session_state.get(keys.JUMP_PENDING)
    if pending is None:
        return
    box = slot.container()
    bar = box.progress(0.0, text=f"Training up to step {pending:,}…")
    box.button(  # a click reruns the page, which stops the wait; the steps made so far stay
        "Cancel",
        key=keys.JUMP_CANCEL,
        help="Stop training here; the steps made so far stay.",
        on_click=_cancel_jump,
    )

    def progress(done: int, total: int) -> None:
        bar.progress(min(1.0, done / max(total, 1)), text=f"Training… {done:,} of {total:,}")

    try:
        reached = run.jump(pending, progress=progress)
    except ValueError:
        st.session_state.pop(keys.JUMP_PENDING, None)  # a jump that failed is not tried again
        raise
    st.session_state.pop(keys.JUMP_PENDING, None)
    slot.empty()  # the bar and its Cancel
    stop = run.stop_reason
    move_stage(
        f"Training stopped at step {reached:,}: {stop}. Showing step {reached:,}."
        if reached < pending and stop
        else ""
    )


def _train_ahead(run: TrainingRun, *, quiz: bool) -> None:
    """Pull the steps the stage will need, a few past the one shown (a jump is a run of the whole page:
    :func:`_jump`)."""
    if keys.JUMP_PENDING in st.session_state:
        st.rerun()  # the whole page: its Cancel can stop the jump
    want = run.position + (1 if quiz else AHEAD)
    while run.pulled < want and run.pull():
        pass


def _cancel_jump() -> None:
    st.session_state.pop(keys.JUMP_PENDING, None)
    move_stage("Training was stopped: showing the step you were on.")


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
        options = choices(upcoming)
        shown = choice_labels(options)
        st.radio(
            md_escape(question(upcoming.index)),  # the choices beside it (quiz.QUIZ_CSS)
            options,
            index=None,
            horizontal=True,
            key=keys.QUIZ_GUESS,
            format_func=lambda option: md_escape(shown.get(option, option)),
        )
