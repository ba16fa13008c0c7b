"""The quiz for WordPiece and Unigram: the natural question for each (pure; the verdict and the score are
drawn as for BPE, with :func:`.quiz.quiz_html`).

- WordPiece: which pair merges next?  The choices are the top pairs by score (in label order); a pair
  with the winner's exact score is a tie; picking BPE's pair (the most frequent) is explained.
- Unigram: which of these pieces is pruned next?  One piece the round prunes (the one whose removal
  raises the loss least) among the kept pieces closest to it, in label order.

>>> from .scheme_run import SchemeSettings, start_scheme_run
>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> step = start_scheme_run(text, SchemeSettings(scheme="wordpiece", steps=3)).peek()
>>> choices(step)[:3]
['##g + ##s', '##u + ##g', '##u + ##n']
>>> grade("##g + ##s", step).outcome, grade("##u + ##g", step).outcome
('right', 'wrong')
>>> print(grade("##u + ##g", step).message)
Not this time: ##u + ##g is the most frequent pair (BPE's pick), but scores 0.0278 = 20 / (36 × 20); \
##g + ##s scores 0.05 = 5 / (20 × 5)
>>> rnd = start_scheme_run(text, SchemeSettings(scheme="unigram", vocab_size=12)).peek()
>>> choices(rnd)
['bu', 'bun', 'hugs', 'pug', 'un', '▁h']
>>> grade("bu", rnd).outcome, grade("hugs", rnd).outcome
('right', 'wrong')
>>> question(rnd)
'🤔 Which of these pieces is pruned in round 1?'
"""

from __future__ import annotations

from fractions import Fraction

from bpe_core.unigram import UnigramRound
from bpe_core.wordpiece import WordPieceStep

from .quiz import MAX_CHOICES, QuizResult, short_pair
from .scheme_run import Step

UNIGRAM_CHOICES = 6


def _pair(left: str, right: str) -> str:
    return f"{left} + {right}"


def _score(count: int, left: int, right: int) -> str:
    return f"{count / (left * right):.3g} = {count:,} / ({left:,} × {right:,})"


def choices(step: Step) -> list[str]:
    """The choices for the guess (in label order, so their order gives nothing away)."""
    if isinstance(step, WordPieceStep):
        return sorted(_pair(r.left, r.right) for r in step.top_by_score[:MAX_CHOICES])
    kept = [p.piece for p in step.closest_kept[: UNIGRAM_CHOICES - 1]]
    return sorted([step.pruned[0].piece, *kept])


def question(step: Step) -> str:
    """The question (our words, no user text)."""
    if isinstance(step, WordPieceStep):
        return f"🤔 Your guess for merge {step.index:,}:"
    return f"🤔 Which of these pieces is pruned in round {step.index:,}?"


def grade(guess: str, step: Step) -> QuizResult:
    """How ``guess`` went against the ``step`` it was made for."""
    if isinstance(step, WordPieceStep):
        return _grade_wordpiece(guess, step)
    return _grade_unigram(guess, step)


def _grade_wordpiece(guess: str, step: WordPieceStep) -> QuizResult:
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
            bpe = (
                " is the most frequent pair (BPE's pick), but"
                if step.bpe_pair == (row.left, row.right)
                else ""
            )
            mine = _score(row.count, row.left_count, row.right_count)
            message = f"Not this time: {named}{bpe} scores {mine}; {winner} scores {won}"
    return QuizResult(step=step.index, guess=guess, answer=answer, outcome=outcome, message=message)


def _grade_unigram(guess: str, step: UnigramRound) -> QuizResult:
    pruned = {p.piece: p for p in step.pruned}
    answer = step.pruned[0].piece
    kept = {p.piece: p for p in step.closest_kept}
    if guess in pruned:
        p = pruned[guess]
        outcome = "right"
        message = f"Right! Without {short_pair(guess)} the loss rises by only {p.increase:,.2f}: pruned"
    else:
        outcome = "wrong"
        rise = f"by {kept[guess].increase:,.2f}" if guess in kept else "more"
        message = (
            f"Not this time: without {short_pair(guess)} the loss rises {rise}, so it stays; "
            f"{short_pair(answer)} costs only {step.pruned[0].increase:,.2f}"
        )
    return QuizResult(step=step.index, guess=guess, answer=answer, outcome=outcome, message=message)
