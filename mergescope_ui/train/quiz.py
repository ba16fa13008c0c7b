"""The classroom quiz: guess the next step before Next reveals it, with one question per scheme.

The producer of a scheme's stage names its :class:`QuizQuestion` (``quiz``), so a page asks it without
knowing the scheme.  Choices come in label order (their order gives nothing away); a guess that tied
with the winner is not simply wrong: the reply says which rule chose the other, and the score counts it.

>>> from bpe_core import train_steps
>>> step = next(train_steps("low low lowest", vocab_size=300, pattern="none"))
>>> quiz = BPE_QUESTION
>>> quiz.grade("o + w", step).outcome, quiz.grade("l + o", step).outcome, quiz.grade("e + s", step).outcome
('right', 'tied', 'wrong')
>>> print(quiz.grade("l + o", step).message)
Tied: l + o also occurs 3 times, as often as o + w. The lexicographic rule chose o + w: \
the greatest byte strings win
>>> tied = quiz.grade("l + o", step)

WordPiece and Unigram, on the HF course's corpus:

>>> from .scheme_run import SchemeSettings, start_scheme_run
>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> merge = start_scheme_run(text, SchemeSettings(scheme="wordpiece", steps=3)).peek()
>>> WORDPIECE_QUESTION.grade("##g + ##s", merge).outcome, WORDPIECE_QUESTION.grade("##u + ##g", merge).outcome
('right', 'wrong')
>>> print(WORDPIECE_QUESTION.grade("##u + ##g", merge).message)
Not this time: ##u + ##g is the most frequent pair (BPE's pick), but scores 0.0278 = 20 / (36 × 20); \
##g + ##s scores 0.05 = 5 / (20 × 5)
>>> rnd = start_scheme_run(text, SchemeSettings(scheme="unigram", vocab_size=12)).peek()
>>> UNIGRAM_QUESTION.choices(rnd)
['bu', 'bun', 'hugs', 'pug', 'un', '▁h']
>>> UNIGRAM_QUESTION.grade("bu", rnd).outcome, UNIGRAM_QUESTION.grade("hugs", rnd).outcome
('right', 'wrong')
>>> UNIGRAM_QUESTION.question(rnd)
'🤔 Which of these pieces is pruned in round 1?'

The stage asks it (:func:`stage_question`: each choice graded, so the browser judges a guess at once)
and keeps the score (:func:`score_line` reads it as the stage does):

>>> print(score_line([quiz.grade("o + w", step), tied]))
1 of 2 right, 1 tied with the winner
>>> quiz.question(step)
'🤔 Your guess for merge 1:'
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Generic, TypeVar

from bpe_core import MergeStep
from bpe_core.unigram import UnigramRound
from bpe_core.wordpiece import WordPieceStep
from mergescope_ui.shared.html.numbers import readable
from mergescope_ui.shared.html.tokens import clip_label
from mergescope_ui.shared.rooms.model import NEXT, PRUNE
from mergescope_ui.shared.stage.contract import Choice, Question

from .cards import RULE_GIST
from .tables import pair_table

MAX_CHOICES = 8
UNIGRAM_CHOICES = 6  # a piece pruned and the kept pieces closest to it
TOKEN_COLUMNS = 8  # each token of a pair in the choices and the verdict: one line on a projector


@dataclass(frozen=True, slots=True)
class QuizResult:
    """How a guess for merge ``step`` went: outcome is right, tied or wrong."""

    step: int
    guess: str
    answer: str
    outcome: str
    message: str


def short_pair(label: str, *, columns: int = TOKEN_COLUMNS) -> str:
    """A pair label with each token cut in the middle to ``columns`` (see ``clip_label``).

    >>> short_pair("newest␣newest␣newest␣ + widest␣widest␣"), short_pair("l + o")
    ('newe…st␣ + wide…st␣', 'l + o')
    """
    left, plus, right = label.partition(" + ")
    if not plus:
        return clip_label(label, columns)
    return clip_label(left, columns) + plus + clip_label(right, columns)


def choice_labels(options: Sequence[str]) -> dict[str, str]:
    """What each choice shows: its pair cut short, or the whole label where two would look the same.

    >>> choice_labels(["low␣low␣low␣low␣ + x", "low␣low␣lo␣low␣ + x", "a + b"])["a + b"]
    'a + b'
    >>> len(set(choice_labels(["low␣low␣low␣low␣ + x", "low␣low␣lo␣low␣ + x"]).values()))
    2
    """
    short = {option: short_pair(option) for option in options}
    seen = Counter(short.values())
    return {option: label if seen[label] == 1 else option for option, label in short.items()}


def _times(count: int) -> str:
    """How often, as one would say it.

    >>> _times(1), _times(2), _times(1200)
    ('once', '2 times', '1,200 times')
    """
    return "once" if count == 1 else f"{count:,} times"


def score_line(results: Sequence[QuizResult]) -> str:
    """The running score, as one would say it: "2 of 3 right, 1 tied with the winner"."""
    right = sum(r.outcome == "right" for r in results)
    tied = sum(r.outcome == "tied" for r in results)
    line = f"{right} of {len(results)} right"
    return line + (f", {tied} tied with the winner" if tied else "")


StepT = TypeVar("StepT")


class QuizQuestion(ABC, Generic[StepT]):
    """One scheme's quiz question about its next step (a ``StepT``): the choices, the question asked and
    how a guess is graded; ``kind`` and ``ask`` are how a live room poses it."""

    kind: ClassVar[str] = NEXT
    ask: ClassVar[str] = "which pair merges next?"  # the room's Ask button, in a few words
    most: ClassVar[int] = MAX_CHOICES  # choices offered

    @abstractmethod
    def choices(self, step: StepT, *, limit: int | None = None) -> list[str]:
        """The choices for the guess (at most ``limit``, else :attr:`most`), in label order."""

    @abstractmethod
    def question(self, step: StepT) -> str:
        """The question, shown beside its choices (our own words: no user text)."""

    @abstractmethod
    def grade(self, guess: str, step: StepT) -> QuizResult:
        """How ``guess`` went against the ``step`` it was made for."""


class MergeQuestion(QuizQuestion[MergeStep]):
    """Byte-level BPE: which pair merges next?  The most frequent pairs are the choices."""

    def choices(self, step: MergeStep, *, limit: int | None = None) -> list[str]:
        return sorted(pair_table(step)["pair"].head(limit or self.most).tolist())

    def question(self, step: MergeStep) -> str:
        return f"🤔 Your guess for merge {step.index:,}:"

    def grade(self, guess: str, step: MergeStep) -> QuizResult:
        """Compare a guessed pair label with the merge ``step`` made."""
        table = pair_table(step)
        answer = table.loc[table["chosen"], "pair"].iloc[0]
        counts = dict(zip(table["pair"], table["count"]))
        times = _times(step.count)
        named, winner = short_pair(guess), short_pair(answer)  # the message stays one line
        if guess == answer:
            why = "more than any other pair"
            if step.tied:
                others = f"{step.tie_count - 1} other pair{'s' if step.tie_count != 2 else ''}"
                why = f"tied with {others}; the {step.tie_break} rule picks it"
            outcome, message = "right", f"Right! {winner} occurs {times}, {why}"
        elif counts.get(guess) == step.count:
            outcome = "tied"
            # short: one line above the stage; the sidebar has it all
            why = RULE_GIST.get(step.tie_break, "")
            message = (
                f"Tied: {named} also occurs {times}, as often as {winner}. "
                f"The {step.tie_break} rule chose {winner}" + (f": {why}" if why else "")
            )
        else:
            outcome = "wrong"
            seen = _times(counts[guess]) if guess in counts else "less often"
            message = f"Not this time: {named} occurs {seen}; {winner} occurs {times}"
        return QuizResult(step=step.index, guess=guess, answer=answer, outcome=outcome, message=message)


class ScoreQuestion(QuizQuestion[WordPieceStep]):
    """WordPiece: which pair merges next?  The top pairs by score are the choices; a pair with the
    winner's exact score is a tie, and picking BPE's pair (the most frequent) is explained."""

    def choices(self, step: WordPieceStep, *, limit: int | None = None) -> list[str]:
        return sorted(_pair(r.left, r.right) for r in step.top_by_score[: limit or self.most])

    def question(self, step: WordPieceStep) -> str:
        return f"🤔 Your guess for merge {step.index:,}:"

    def grade(self, guess: str, step: WordPieceStep) -> QuizResult:
        answer = _pair(step.left, step.right)
        winner = short_pair(answer)
        won = _score(step.count, step.left_count, step.right_count)
        rows = {_pair(r.left, r.right): r for r in (*step.top_by_score, *step.top_by_count)}
        row = rows.get(guess)
        named = short_pair(guess)
        if guess == answer:
            outcome, message = "right", f"Right! {winner} scores {won}, the highest"
        elif row is not None and row.exact_score == Fraction(step.count, step.left_count * step.right_count):
            outcome = "tied"
            message = f"Tied: {named} scores as much as {winner}; the {step.tie_break} rule chose {winner}"
        else:
            outcome = "wrong"
            if row is None:
                message = f"Not this time: {named} scores lower; {winner} scores {won}"
            else:
                picked = step.bpe_pair == (row.left, row.right)
                bpe = " is the most frequent pair (BPE's pick), but" if picked else ""
                mine = _score(row.count, row.left_count, row.right_count)
                message = f"Not this time: {named}{bpe} scores {mine}; {winner} scores {won}"
        return QuizResult(step=step.index, guess=guess, answer=answer, outcome=outcome, message=message)


class PruneQuestion(QuizQuestion[UnigramRound]):
    """Unigram: which of these pieces is pruned next?  One piece the round prunes (the one whose removal
    raises the loss least) among the kept pieces closest to it."""

    kind: ClassVar[str] = PRUNE
    ask: ClassVar[str] = "which piece is pruned next?"
    most: ClassVar[int] = UNIGRAM_CHOICES

    def choices(self, step: UnigramRound, *, limit: int | None = None) -> list[str]:
        kept = [p.piece for p in step.closest_kept[: (limit or self.most) - 1]]
        return sorted([step.pruned[0].piece, *kept])

    def question(self, step: UnigramRound) -> str:
        return f"🤔 Which of these pieces is pruned in round {step.index:,}?"

    def grade(self, guess: str, step: UnigramRound) -> QuizResult:
        pruned = {p.piece: p for p in step.pruned}
        answer = step.pruned[0].piece
        kept = {p.piece: p for p in step.closest_kept}
        if guess in pruned:
            p = pruned[guess]
            outcome = "right"
            message = (
                f"Right! Without {short_pair(guess)} the loss rises by only {readable(p.increase)}: pruned"
            )
        else:
            outcome = "wrong"
            rise = f"by {readable(kept[guess].increase)}" if guess in kept else "more"
            message = (
                f"Not this time: without {short_pair(guess)} the loss rises {rise}, so it stays; "
                f"{short_pair(answer)} costs only {readable(step.pruned[0].increase)}"
            )
        return QuizResult(step=step.index, guess=guess, answer=answer, outcome=outcome, message=message)


def stage_question(quiz: QuizQuestion[StepT], step: StepT, index: int) -> Question:
    """``quiz``'s question about ``step`` (step ``index``) as the stage asks it: each choice graded here,
    so the browser judges a guess at once (its verdict and outcome travel with it).

    >>> from bpe_core import train_steps
    >>> step = next(train_steps("low low lowest", vocab_size=300, pattern="none"))
    >>> q = stage_question(BPE_QUESTION, step, 1)
    >>> q.text, q.answer, [(c.label, c.outcome) for c in q.choices][:3]
    ('🤔 Your guess for merge 1:', 'o + w', [('e + s', 'wrong'), ('l + o', 'tied'), ('o + w', 'right')])
    """
    options = quiz.choices(step)
    shown = choice_labels(options)
    graded = [quiz.grade(option, step) for option in options]
    return Question(
        step=index,
        text=quiz.question(step),
        choices=tuple(
            Choice(label=o, short=shown[o], outcome=r.outcome, verdict=r.message)
            for o, r in zip(options, graded, strict=True)
        ),
        answer=short_pair(graded[0].answer) if graded else "",
    )


def _pair(left: str, right: str) -> str:
    return f"{left} + {right}"


def _score(count: int, left: int, right: int) -> str:
    return f"{count / (left * right):.3g} = {count:,} / ({left:,} × {right:,})"


BPE_QUESTION: QuizQuestion[MergeStep] = MergeQuestion()
WORDPIECE_QUESTION: QuizQuestion[WordPieceStep] = ScoreQuestion()
UNIGRAM_QUESTION: QuizQuestion[UnigramRound] = PruneQuestion()
