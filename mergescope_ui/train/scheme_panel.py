"""The Train page for WordPiece and Unigram: the run, then the part that reruns alone (the quiz, the same
stage as BPE's, the link, and for Unigram the Viterbi lattice of a word the user clicks).

The run is a :class:`~.scheme_run.SchemeRun` in ``session_state`` (:data:`.keys.SCHEME_RUN`); its
views come from :mod:`.wordpiece_stage` or :mod:`.unigram_stage` and go to the stage as the same
records BPE's do, so Back, Next, Play, Reset, Jump, the arrow keys, the quiz and presenter mode
work as they do for BPE.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.tokenizer.unigram_lattice import lattice
from bpe_core.training.unigram import UnigramTrainer
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.safe_text import md_escape
from mergescope_ui.shared.stage_component import mount_stage
from mergescope_ui.shared.stage_contract import read_shown

from . import keys
from .inputs import SchemeInputs
from .lattice_view import lattice_html
from .link import link_box, write_link
from .live import scheme_room
from .quiz import QuizResult, choice_labels, quiz_html
from .scheme_form import SCHEME_LABELS
from .scheme_quiz import choices, grade, question
from .scheme_run import SchemeIdentity, SchemeRun, start_scheme_run
from .scheme_stage import SchemeViews
from .share import LinkState
from .stage import move_stage
from .stage_data import AHEAD, StageOptions
from .unigram_stage import UnigramViews
from .wordpiece_stage import WordPieceViews

LATTICE_CHOICES = 12  # words offered for the lattice: the ones this round cut anew, then the most frequent


def scheme_training(inputs: SchemeInputs, messages: DeltaGenerator) -> SchemeRun | None:
    """The session's run for this text and these settings (a new one on a change, and the page says so)."""
    text, settings = inputs.source.text, inputs.settings
    identity = SchemeIdentity(text_digest=digest(text), settings=settings)
    old: SchemeRun | None = st.session_state.get(keys.SCHEME_RUN)
    if old is not None and old.identity == identity:
        return old
    name = SCHEME_LABELS[settings.scheme]
    try:
        with st.spinner(f"Counting the words and starting {md_escape(name)}…"):
            run = start_scheme_run(text, settings)
    except ValueError as exc:
        messages.error(f"Cannot train {md_escape(name)} with these settings: {md_escape(exc)}.")
        st.session_state.pop(keys.SCHEME_RUN, None)
        return None
    if old is not None:
        messages.info(f"Training restarted: {md_escape(name)} on this text, from step 0.", icon="🔄")
    st.session_state[keys.SCHEME_RUN] = run
    st.session_state.pop(keys.SCHEME_VIEWS, None)
    st.session_state[keys.QUIZ_LOG] = {}
    move_stage()
    return run


def scheme_panel(inputs: SchemeInputs) -> None:
    """The stage and what follows it, as a fragment (it reruns alone when the stage steps)."""
    st.fragment(_panel)(inputs=inputs)


def _panel(*, inputs: SchemeInputs) -> None:
    run: SchemeRun | None = st.session_state.get(keys.SCHEME_RUN)
    if run is None:
        return
    quiz = bool(st.session_state.get(keys.QUIZ))
    options = StageOptions(
        large=bool(st.session_state.get(shared_keys.PRESENTER, False)),
        quiz=quiz,
        animate=bool(st.session_state.get(keys.ANIMATE, True)),
        speed=float(st.session_state.get(keys.PLAY_SPEED, 1.0)),
        arrows_from=f".st-key-{keys.QUIZ_GUESS}" if quiz else "",
    )
    slot = st.empty()  # a long jump's progress bar
    try:
        _train_ahead(run, quiz=quiz, slot=slot)
        views = _views(run, inputs)
        if quiz:
            _quiz(run)
        serial = st.session_state.setdefault(keys.STAGE_SERIAL, 0)
        notice = st.session_state.pop(keys.STAGE_NOTICE, "")
        window = views.window(position=run.position, serial=serial, options=options, notice=notice)
        mount_stage(window, key=keys.SCHEME_STAGE, on_shown=_on_shown)
    except ValueError as exc:
        st.error(f"The engine stopped with an error: {md_escape(exc)}.")
        return
    pasted = inputs.source.text if st.session_state.get(keys.SOURCE) == keys.PASTE else None
    moment = LinkState(step=run.position, text=pasted, regex=None, specials=None)
    write_link(moment)
    link_box(moment)
    scheme_room(run, views, options)  # a live room: students follow this step on their phones (#26)
    if isinstance(views, UnigramViews):
        lattice_section(run, views)


def _views(run: SchemeRun, inputs: SchemeInputs) -> SchemeViews:
    views: SchemeViews | None = st.session_state.get(keys.SCHEME_VIEWS)
    if views is None or views.run is not run:
        text = inputs.source.text
        views = WordPieceViews(run, text) if run.scheme == "wordpiece" else UnigramViews(run, text)
        st.session_state[keys.SCHEME_VIEWS] = views
    return views


def _train_ahead(run: SchemeRun, *, quiz: bool, slot: DeltaGenerator) -> None:
    """Pull a pending jump (its progress in ``slot``), then a few steps past the one shown."""
    pending = st.session_state.pop(keys.JUMP_PENDING, None)
    if pending is not None:
        bar = slot.progress(0.0, text=f"Training up to step {pending:,}…")
        reached = run.jump(
            int(pending),
            progress=lambda done, total: bar.progress(min(1.0, done / max(total, 1)), text="Training…"),
        )
        bar.empty()
        stop = run.stop_reason
        move_stage(
            f"Training stopped at step {reached:,}: {stop}. Showing step {reached:,}."
            if reached < pending and stop
            else ""
        )
    # Unigram rounds are few and slow: one ahead is enough to step without waiting
    want = run.position + (1 if quiz or run.scheme == "unigram" else AHEAD)
    while run.pulled < want and run.pull():
        pass


def _quiz(run: SchemeRun) -> None:
    log: dict[int, QuizResult] = st.session_state.setdefault(keys.QUIZ_LOG, {})
    upcoming = run.peek()
    line = quiz_html(log.get(run.position), results=list(log.values()))
    if line:
        st.html(line)
    if upcoming is None:
        return
    options = choices(upcoming)
    shown_labels = choice_labels(options)
    st.radio(
        md_escape(question(upcoming)),
        options,
        index=None,
        horizontal=True,
        key=keys.QUIZ_GUESS,
        format_func=lambda option: md_escape(shown_labels.get(option, option)),
    )


def _on_shown() -> None:
    """The stage shows another step (or needs other places of it): follow it."""
    run: SchemeRun | None = st.session_state.get(keys.SCHEME_RUN)
    report = read_shown((st.session_state.get(keys.SCHEME_STAGE) or {}).get("shown"))
    if run is None or report is None or report.serial != st.session_state.get(keys.STAGE_SERIAL, 0):
        return
    k = report.position
    views: SchemeViews | None = st.session_state.get(keys.SCHEME_VIEWS)
    if views is not None and views.run is run and 0 < k <= run.pulled:
        views.place_start[k] = report.start
    if st.session_state.get(keys.QUIZ) and k == run.position + 1:
        upcoming = run.peek()
        guess = st.session_state.get(keys.QUIZ_GUESS)
        if guess and upcoming is not None:
            st.session_state.setdefault(keys.QUIZ_LOG, {})[upcoming.index] = grade(guess, upcoming)
        run.forward()
        st.session_state[keys.QUIZ_GUESS] = None
        move_stage()
    elif k <= run.pulled:
        run.position = k
    else:
        st.session_state[keys.JUMP_PENDING] = k


def lattice_words(run: SchemeRun, views: UnigramViews) -> list[str]:
    """The words offered for the lattice: those the round shown cut anew, then the most frequent."""
    trainer = run.trainer
    if not isinstance(trainer, UnigramTrainer):
        return []
    changed = views.changed_words(run.position) if run.position else []
    frequent = sorted(trainer.words, key=lambda w: (-trainer.words[w], w))
    picked = [w for w in dict.fromkeys([*changed, *frequent]) if w.strip() and len(w) <= 24]
    return picked[:LATTICE_CHOICES]


def lattice_section(run: SchemeRun, views: UnigramViews) -> None:
    """The Viterbi lattice of a word the user clicks (or types), under the pieces of the round shown."""
    trainer = run.trainer
    if not isinstance(trainer, UnigramTrainer):
        return
    k = run.position
    st.subheader("Every way to cut a word: the Viterbi lattice")
    offered = lattice_words(run, views)
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
        lat = lattice(word, run.scores[k], max_piece_length=trainer.longest)
    except ValueError as exc:
        st.warning(f"No lattice for this word: {md_escape(exc)}.")
        return
    st.html(lattice_html(lat))
