"""The classroom quiz: guess the next merge before Next reveals it.

>>> from bpe_core import train_steps
>>> step = next(train_steps("low low lowest", vocab_size=300, pattern="none"))
>>> choices(step)[:3]
['e + s', 'l + o', 'o + w']
>>> grade("o + w", step).outcome, grade("l + o", step).outcome, grade("e + s", step).outcome
('right', 'tied', 'wrong')
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe_core import MergeStep

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
    if guess == answer:
        outcome, message = "right", f"Right! {answer} occurs {step.count} times, more than any other pair"
        if step.tied:
            message = (
                f"Right! {answer} ties at {step.count} with {len(step.ties) - 1} other pair(s); "
                f"the {step.tie_break} rule picks it"
            )
    elif guess in counts and counts[guess] == step.count:
        outcome = "tied"
        message = (
            f"Close: {guess} also occurs {step.count} times, but the {step.tie_break} tie rule picks {answer}"
        )
    else:
        outcome = "wrong"
        seen = f"{counts[guess]} times" if guess in counts else "less often"
        message = f"Not this time: {guess} occurs {seen}; {answer} occurs {step.count} times"
    return QuizResult(step=step.index, guess=guess, answer=answer, outcome=outcome, message=message)
