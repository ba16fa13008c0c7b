"""The classroom quiz: guess the next merge before Next reveals it.

A guess that tied with the winner is not simply wrong: the reply says it had
the same count and which rule chose the other pair, and the score counts it
on its own.

>>> from bpe_core import train_steps
>>> step = next(train_steps("low low lowest", vocab_size=300, pattern="none"))
>>> choices(step)[:3]
['e + s', 'l + o', 'o + w']
>>> grade("o + w", step).outcome, grade("l + o", step).outcome, grade("e + s", step).outcome
('right', 'tied', 'wrong')
>>> print(grade("l + o", step).message)  # doctest: +NORMALIZE_WHITESPACE
Tied: l + o also occurs 3 times, as often as o + w. The lexicographic rule chose o + w
(greatest (left, right) byte strings win, as in the CS336 assignment)
>>> score_line([grade("o + w", step)]), score_line([grade("o + w", step), grade("l + o", step)])
('1 of 1 right', '1 of 2 right, 1 tied with the winner')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bpe_core import MergeStep
from bpe_core.training import TIE_BREAK_HELP

from .tables import pair_table

MAX_CHOICES = 8


@dataclass(frozen=True, slots=True)
class QuizResult:
    """How a guess for merge ``step`` went: outcome is right, tied or wrong."""

    step: int
    guess: str
    answer: str
    outcome: str
    message: str


def choices(step: MergeStep, *, limit: int = MAX_CHOICES) -> list[str]:
    """Candidate pairs for the guess: the top pairs, sorted by label so the order gives nothing away."""
    return sorted(pair_table(step)["pair"].head(limit).tolist())


def grade(guess: str, step: MergeStep) -> QuizResult:
    """Compare a guessed pair label with the merge ``step`` made."""
    table = pair_table(step)
    answer = table.loc[table["chosen"], "pair"].iloc[0]
    counts = dict(zip(table["pair"], table["count"]))
    times = f"{step.count:,} time{'s' if step.count != 1 else ''}"
    if guess == answer:
        outcome, message = "right", f"Right! {answer} occurs {times}, more than any other pair"
        if step.tied:
            others = len(step.ties) - 1
            message = (
                f"Right! {answer} occurs {times}, tied with {others} other pair{'s' if others != 1 else ''}; "
                f"the {step.tie_break} rule picks it"
            )
    elif guess in counts and counts[guess] == step.count:
        outcome = "tied"
        why = TIE_BREAK_HELP.get(step.tie_break, "")
        message = (
            f"Tied: {guess} also occurs {times}, as often as {answer}. "
            f"The {step.tie_break} rule chose {answer}" + (f" ({why})" if why else "")
        )
    else:
        outcome = "wrong"
        seen = f"{counts[guess]:,} times" if guess in counts else "less often"
        message = f"Not this time: {guess} occurs {seen}; {answer} occurs {times}"
    return QuizResult(step=step.index, guess=guess, answer=answer, outcome=outcome, message=message)


def score_line(results: Sequence[QuizResult]) -> str:
    """The running score, as one would say it: "2 of 3 right, 1 tied with the winner"."""
    right = sum(r.outcome == "right" for r in results)
    tied = sum(r.outcome == "tied" for r in results)
    line = f"{right} of {len(results)} right"
    return line + (f", {tied} tied with the winner" if tied else "")
