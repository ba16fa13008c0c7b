"""The Train page for WordPiece and Unigram: the run, then the part that reruns alone (the quiz, the same
stage as BPE's, the link, and for Unigram the Viterbi lattice of a word the user clicks).

The run is a driver (:mod:`.scheme_driver`) in ``session_state`` (:data:`.keys.SCHEME_RUN`): here for a
small text, in a session worker for a large one, the page the same.  Its views come from
:mod:`.wordpiece_stage` or :mod:`.unigram_stage` and go to the stage as the same records BPE's do, so
Back, Next, Play, Reset, Jump, the arrow keys, the quiz and presenter mode work as they do for BPE.
Every wait on the worker shows a progress bar with Cancel; a worker refused (the server's cap) or
stopped (a time or memory limit) is a message, with a button to start again.
"""

from __future__ import annotations

import contextlib
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.stage.component import mount_stage
from mergescope_ui.shared.stage.contract import AHEAD, read_shown

from . import keys
from .inputs import SchemeInputs
from .lattice_view import lattice_html
from .link import link_box, write_link
from .live import scheme_room
from .panel_parts import delayed_bar, drop_jump, guess, make_pending_jump, stage_settings
from .quiz import QuizResult, quiz_html
from .scheme_driver import IN_PROCESS_CHARS, Driver, Progress, open_driver
from .scheme_form import SCHEME_LABELS
from .scheme_run import SchemeIdentity
from .share import LinkState
from .stage import move_stage


def _cancel_start(identity: SchemeIdentity) -> None:
    st.session_state[keys.SCHEME_CANCELLED] = identity


def scheme_training(inputs: SchemeInputs, messages: DeltaGenerator) -> Driver | None:
    """The session's run for this text and these settings (a new one on a change, and the page says so)."""
    text, settings = inputs.source.text, inputs.settings
    identity = SchemeIdentity(text_digest=digest(text), settings=settings)
    old: Driver | None = st.session_state.get(keys.SCHEME_RUN)
    if old is not None and old.identity == identity:
        with contextlib.suppress(ValueError):  # the worker ended: the panel says why
            _jump(old, messages.empty())
        return old
    name = SCHEME_LABELS[settings.scheme]
    if st.session_state.get(keys.SCHEME_CANCELLED) == identity:
        messages.info(f"Training {md_escape(name)} was cancelled.", icon="⏹️")
        messages.button(
            "Train again",
            key=keys.SCHEME_RESTART,
            on_click=lambda: st.session_state.pop(keys.SCHEME_CANCELLED, None),
        )
        return None
    if old is not None:  # the old run's worker goes at once, before a new one counts against the cap
        st.session_state.pop(keys.SCHEME_RUN, None)
        old.stop()
        del old
        restarted = True
    else:
        restarted = False
    slot = messages.empty()
    label = f"Counting the words and starting {name}…"
    try:
        with st.spinner(md_escape(label)):
            driver = open_driver(
                text,
                settings,
                progress=delayed_bar(
                    slot, label, cancel=keys.SCHEME_CANCEL, on_cancel=lambda: _cancel_start(identity)
                ),
            )
    except ValueError as exc:
        slot.empty()
        messages.error(f"Cannot train {md_escape(name)}: {md_escape(exc)}.")
        return None
    slot.empty()
    if restarted:
        messages.info(f"Training restarted: {md_escape(name)} on this text, from step 0.", icon="🔄")
    st.session_state[keys.SCHEME_RUN] = driver
    st.session_state[keys.QUIZ_LOG] = {}
    move_stage()
    return driver


def scheme_panel(inputs: SchemeInputs) -> None:
    """The stage and what follows it, as a fragment (it reruns alone when the stage steps)."""
    st.fragment(_panel)(inputs=inputs)


def _panel(*, inputs: SchemeInputs) -> None:
    driver: Driver | None = st.session_state.get(keys.SCHEME_RUN)
    if driver is None:
        return
    options = stage_settings()
    quiz = options.quiz
    slot = st.empty()  # a long jump's progress bar and its Cancel
    try:
        _train_ahead(driver, quiz=quiz, slot=slot)
        if quiz:
            _quiz(driver)
        serial = st.session_state.setdefault(keys.STAGE_SERIAL, 0)
        notice = st.session_state.pop(keys.STAGE_NOTICE, "")
        window = driver.window(serial=serial, options=options, notice=notice)
        mount_stage(window, key=keys.SCHEME_STAGE, on_shown=_on_shown)
    except ValueError as exc:
        slot.empty()
        st.error(f"Training stopped: {md_escape(exc)}.")
        st.button("Start again", key=keys.SCHEME_RESTART, on_click=_forget_run)
        return
    pasted = inputs.source.text if st.session_state.get(keys.SOURCE) == keys.PASTE else None
    moment = LinkState(step=driver.state.position, text=pasted, regex=None, specials=None)
    write_link(moment)
    link_box(moment)
    here = driver.here()
    if here is not None:  # a live room: students follow this step on their phones (#26)
        scheme_room(*here, options)
    else:
        st.caption(
            "A live room is for texts trained here, up to "
            f"{IN_PROCESS_CHARS:,} characters: this one trains in a worker process of its own."
        )
    if driver.steps.has_lattice:
        lattice_section(driver)


def _forget_run() -> None:
    st.session_state.pop(keys.SCHEME_RUN, None)
    st.session_state.pop(keys.SCHEME_CANCELLED, None)


def _jump(driver: Driver, slot: DeltaGenerator) -> None:
    """Train up to a pending jump, its progress and Cancel in ``slot``
    (:func:`.panel_parts.make_pending_jump`: only in a run of the whole page, outside the fragment)."""
    noun = driver.steps.noun

    def bar(pending: int) -> Progress:
        driver.settle(progress=delayed_bar(slot, "Finishing the training under way…"))
        return delayed_bar(
            slot,
            f"Training up to {noun} {pending:,}…",
            cancel=keys.SCHEME_JUMP_CANCEL,
            on_cancel=lambda: drop_jump("Training was stopped: showing the step you were on."),
        )

    def jump(pending: int, progress: Progress) -> tuple[int, str | None]:
        reached = driver.jump(pending, progress=progress).position
        return reached, driver.state.stop_reason

    make_pending_jump(slot, noun=noun, bar=bar, jump=jump)


def _train_ahead(driver: Driver, *, quiz: bool, slot: DeltaGenerator) -> None:
    """Train a few steps past the one shown (a pending jump is a run of the whole page: :func:`_jump`)."""
    if keys.JUMP_PENDING in st.session_state:
        st.rerun()
    driver.settle(
        progress=delayed_bar(slot, "Finishing the training under way…")
    )  # a request left half answered
    slot.empty()
    noun = driver.steps.noun
    position = driver.state.position
    want = position + (1 if quiz else driver.steps.ahead or AHEAD)
    if driver.state.pulled < want and not driver.state.finished:  # no Cancel: a round ends once begun
        driver.advance(
            want, progress=delayed_bar(slot, f"Training {noun} {position + 1:,} ahead, so Next is instant…")
        )
        slot.empty()


def _quiz(driver: Driver) -> None:
    log: dict[int, QuizResult] = st.session_state.setdefault(keys.QUIZ_LOG, {})
    ask = driver.ask()
    line = quiz_html(log.get(driver.state.position), results=list(log.values()))
    if line:
        st.html(line)
    if ask is None:
        return
    guess(ask.question, ask.choices)


def _on_shown() -> None:
    """The stage shows another step (or needs other places of it): follow it."""
    driver: Driver | None = st.session_state.get(keys.SCHEME_RUN)
    report = read_shown((st.session_state.get(keys.SCHEME_STAGE) or {}).get("shown"))
    if driver is None or report is None or report.serial != st.session_state.get(keys.STAGE_SERIAL, 0):
        return
    k = report.position
    st.session_state.pop(keys.JUMP_PENDING, None)  # a newer report supersedes a jump not yet made
    try:
        state = driver.state
        if 0 < k <= state.pulled:
            driver.places_from(k, report.start)
        if st.session_state.get(keys.QUIZ) and k == state.position + 1:
            result = driver.answer(st.session_state.get(keys.QUIZ_GUESS))
            if result is not None:
                st.session_state.setdefault(keys.QUIZ_LOG, {})[result.step] = result
            st.session_state[keys.QUIZ_GUESS] = None
            move_stage()
        elif k <= state.pulled:
            driver.show(k)
        else:
            st.session_state[keys.JUMP_PENDING] = k
    except ValueError:
        pass  # the worker ended: the panel's run says why


def lattice_section(driver: Driver) -> None:
    """The Viterbi lattice of a word the user clicks (or types), under the pieces of the round shown."""
    k = driver.state.position
    st.subheader("Every way to cut a word: the Viterbi lattice")
    offered = driver.lattice_words()
    picked: Any = st.pills(
        f"Click a word (pieces after round {k})" if k else "Click a word (the seed's pieces)",
        offered,
        key=keys.LATTICE_WORD,
        format_func=md_escape,
    )
    typed = st.text_input(
        "…or type one",
        key=keys.LATTICE_TYPED,
        max_chars=64,
        placeholder="hugs",
        help="A ▁ is put in front (a word of the text starts with the space before it) unless you type one.",
    )
    word = typed.strip() if typed and typed.strip() else picked
    if not word:
        st.caption("Pick a word to see every segmentation, its score, and the one Viterbi chooses.")
        return
    if typed and typed.strip() and not word.startswith("▁"):
        word = "▁" + word
    try:
        lat = driver.lattice(word)
    except ValueError as exc:
        st.warning(f"No lattice for this word: {md_escape(exc)}.")
        return
    st.html(lattice_html(lat))
