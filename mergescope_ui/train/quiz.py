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
>>> print(grade("l + o", step).message)
Tied: l + o also occurs 3 times, as often as o + w. The lexicographic rule chose o + w: \
the greatest byte strings win
>>> score_line([grade("o + w", step)]), score_line([grade("o + w", step), grade("l + o", step)])
('1 of 1 right', '1 of 2 right, 1 tied with the winner')

Above the stage, all of it takes two short lines (:func:`quiz_html`, then the choices), so the
stage still fits on a projector's screen:

>>> tied = grade("l + o", step)
>>> print(quiz_html(tied, results=[tied], upcoming=2).replace("><div", ">\\n<div"))
<div class="ms-quiz">
<div><span class="ms-verdict ms-tied">⚖️ Tied: l + o also occurs 3 times, as often as o + w. \
The lexicographic rule chose o + w: the greatest byte strings win.</span></div>
<div class="ms-quiz-l"><span class="ms-quiz-q">🤔 Your guess for merge 2: which pair will merge?</span>\
<span class="ms-score">Quiz score: 0 of 1 right, 1 tied with the winner</span></div></div>
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from bpe_core import MergeStep

from .cards import RULE_GIST
from .tables import pair_table

MAX_CHOICES = 8
ICONS = {"right": "🎉", "tied": "⚖️", "wrong": "🤔"}
QUIZ_CSS = """
<style>
.ms-quiz{font-size:1rem;line-height:1.4;}
.ms-quiz .ms-verdict{display:inline;padding:.1rem .5rem;border-radius:.4rem;margin-right:.4rem;}
.ms-quiz .ms-right{background:#d3f9d8;color:#2b8a3e;}
.ms-quiz .ms-tied{background:#fff3bf;color:#8a5a00;}
.ms-quiz .ms-wrong{background:#ffe3e3;color:#c92a2a;}
.ms-quiz .ms-quiz-l{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 1rem;margin-top:.25rem;}
.ms-quiz .ms-score{opacity:.75;white-space:nowrap;}
.ms-quiz .ms-quiz-q{font-weight:600;}
/* The choices sit right under their question: one line, no gap of their own. */
.st-key-quiz_guess{margin-top:-.75rem;}
</style>
"""


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
        why = RULE_GIST.get(step.tie_break, "")  # (short: one line above the stage; the sidebar has it all)
        message = (
            f"Tied: {guess} also occurs {times}, as often as {answer}. "
            f"The {step.tie_break} rule chose {answer}" + (f": {why}" if why else "")
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


def quiz_html(verdict: QuizResult | None, *, results: Sequence[QuizResult], upcoming: int | None) -> str:
    """The ``verdict`` on the guess for the merge shown and the score of all ``results`` on one line, then
    the question for merge ``upcoming`` (None: training is over); escaped HTML, for ``st.html``."""
    parts = []
    if verdict is not None:
        parts.append(
            f'<div><span class="ms-verdict ms-{verdict.outcome}">{ICONS[verdict.outcome]} '
            f"{html.escape(verdict.message, quote=True)}.</span></div>"
        )
    line = []
    if upcoming is not None:
        line.append(
            f'<span class="ms-quiz-q">🤔 Your guess for merge {upcoming:,}: which pair will merge?</span>'
        )
    if results:
        line.append(f'<span class="ms-score">Quiz score: {html.escape(score_line(results))}</span>')
    if line:
        parts.append(f'<div class="ms-quiz-l">{"".join(line)}</div>')
    return f'<div class="ms-quiz">{"".join(parts)}</div>'
