"""The Train page's live room (issue 26): what the room passes on to the students at each step.

The room itself is :mod:`mergescope_ui.shared.rooms.host`; this adds the lesson's side: the window up to
the step shown (never past it), the next step's question graded by the single-player quiz, the link
that replays the lesson, and the teacher's what-if question (:func:`block_question`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from mergescope_ui.shared.rooms import BLOCK, Moment, Question, Verdict
from mergescope_ui.shared.rooms.host import host_room, lesson_link
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.training_run import TrainingRun

from .link import page_url
from .quiz import BPE_QUESTION, MAX_CHOICES, QuizQuestion, choice_labels
from .scheme_run import SchemeRun
from .scheme_stage import SchemeViews
from .stage_data import StageViews
from .whatif.branch import WhatIf, pair_label, start_branch

QUESTION = "_room_question"  # plain: (run, step, Question): the question of the next merge, made once


def live_room(run: TrainingRun, views: StageViews, settings: StageSettings) -> None:
    """The room's button or the open room, fed with this run's moment."""
    host_room(
        lambda: room_moment(run, views, settings),
        what_if=lambda position: block_question(run, position),
        pager=views,  # students page through a step's places: built once per page for the room, here
    )


def scheme_room(run: SchemeRun, views: SchemeViews, settings: StageSettings) -> None:
    """A WordPiece or Unigram run's room: the same as byte-level BPE's, with that scheme's quiz question
    (which pair merges next; which piece a round prunes) and no what-if."""
    host_room(lambda: room_moment(run, views, settings), pager=views, ask=views.quiz.ask)


def room_moment(
    run: TrainingRun | SchemeRun, views: StageViews | SchemeViews, settings: StageSettings
) -> Moment:
    """The step shown, the question of the next step, and the lesson's link (without presenter mode)."""
    quiz = replace(settings, quiz=True, upto=True, large=False, arrows_from="")  # no step past this one
    window = views.window(position=run.position, serial=0, settings=quiz)
    identity = run.identity
    return Moment(
        window=window,
        question=next_question(run, views.quiz),
        lesson=lesson_link(page_url()),
        run=f"{identity.text_digest}:{identity.settings!r}",
    )


def next_question(run: TrainingRun | SchemeRun, quiz: QuizQuestion[Any]) -> Question | None:
    """The room's question about ``run``'s next step (None at the end), made once per run and step: the
    panel reruns at every step, and grading builds BPE's pair table each time."""
    upcoming = run.peek()
    made: tuple[object, int, Question | None] | None = st.session_state.get(QUESTION)
    if upcoming is not None and made is not None and made[0] is run and made[1] == upcoming.index:
        return made[2]
    question = None if upcoming is None else room_question(upcoming, quiz)
    st.session_state[QUESTION] = (run, upcoming.index if upcoming else -1, question)
    return question


def room_question(upcoming: Any, quiz: QuizQuestion[Any]) -> Question:
    """``quiz``'s question about the step ``upcoming``, as the room asks it.

    >>> from .quiz import UNIGRAM_QUESTION
    >>> from .scheme_run import SchemeSettings, start_scheme_run
    >>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
    >>> run = start_scheme_run(text, SchemeSettings(scheme="unigram", vocab_size=12))
    >>> q = room_question(run.peek(), UNIGRAM_QUESTION)
    >>> q.kind, q.answer, q.prompt, q.verdicts[q.answer].outcome
    ('prune', 'bu', 'which of these pieces is pruned in round 1?', 'right')
    """
    graded = {option: quiz.grade(option, upcoming) for option in quiz.choices(upcoming)}
    verdicts = {o: Verdict(outcome=r.outcome, message=r.message) for o, r in graded.items()}
    return _question(upcoming.index, next(iter(graded.values())).answer, verdicts, kind=quiz.kind)


def _question(
    step: int, answer: str, verdicts: dict[str, Verdict], *, kind: str, blocked: str = ""
) -> Question:
    """The room's question with these ``verdicts``: their choices in label order, each shown cut short."""
    options = sorted(verdicts)
    shown = choice_labels(options)
    return Question(
        step=step,
        choices=tuple(options),
        shown=tuple(shown[o] for o in options),
        answer=answer,
        verdicts=verdicts,
        kind=kind,
        blocked=blocked,
    )


def block_question(run: TrainingRun, position: int) -> Question | None:
    """The what-if at the step ``position``: the pair the next merge makes is blocked; which pair merges
    instead?  The answer is the what-if branch's own first merge (the engine's rule, ties included); the
    choices are that step's pair table and the blocked pair itself (a tempting wrong answer).  None at
    the end of training or when nothing could merge instead.

    >>> from bpe_core import TrainOptions, Trainer
    >>> from mergescope_ui.shared.training_run import RunIdentity
    >>> text = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest widest widest"
    >>> options = TrainOptions(vocab_size=280, pattern="none")
    >>> run = TrainingRun(Trainer(text, options), identity=RunIdentity.of(text, options))
    >>> _ = run.jump(2)
    >>> q = block_question(run, 2)
    >>> q.step, q.blocked, q.answer, q.prompt
    (3, 'est + ␣', 'o + w', 'if est + ␣ were blocked, which pair would make merge 3?')
    >>> print(q.verdicts["l + o"].message)
    With est + ␣ blocked: Tied: l + o also occurs 7 times, as often as o + w. The lexicographic rule chose \
o + w: the greatest byte strings win
    >>> q.verdicts["est + ␣"]
    Verdict(outcome='wrong', message='Not this time: est + ␣ is the pair blocked, so it is never merged')
    """
    while run.pulled <= position and run.pull():
        pass
    if not 0 <= position < run.pulled:
        return None
    real = run.records[position]  # the merge the run makes next
    blocked = pair_label(real.left, real.right)
    branch = start_branch(run, WhatIf(real.index, "block", real.pair))
    instead = branch.peek()
    if instead is None:
        return None
    graded = {o: BPE_QUESTION.grade(o, instead) for o in BPE_QUESTION.choices(instead, limit=MAX_CHOICES - 1)}
    verdicts = {
        o: Verdict(outcome=r.outcome, message=f"With {blocked} blocked: {r.message}")
        for o, r in graded.items()
    }
    if blocked not in verdicts:
        verdicts[blocked] = Verdict(
            outcome="wrong", message=f"Not this time: {blocked} is the pair blocked, so it is never merged"
        )
    answer = next(iter(graded.values())).answer
    return _question(real.index, answer, verdicts, kind=BLOCK, blocked=blocked)
