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

Above the stage, all of it takes two or three short lines, so the stage still fits on a
projector's screen: the verdict and the score (:func:`quiz_html`; a long verdict wraps, whole to
the back of the room), then the question (:func:`question`) with the choices beside it.  Long
tokens are cut in the middle (:func:`short_pair`):

>>> tied = grade("l + o", step)
>>> print(quiz_html(tied, results=[tied]))
<div class="ms-quiz"><span class="ms-verdict ms-tied" title="Tied: l + o also occurs 3 times, \
as often as o + w. The lexicographic rule chose o + w: the greatest byte strings win.">⚖️ Tied: l + o \
also occurs 3 times, as often as o + w. The lexicographic rule chose o + w: the greatest byte strings \
win.</span><span class="ms-score">Quiz score: 0 of 1 right, 1 tied with the winner</span></div>
>>> question(2)
'🤔 Your guess for merge 2:'
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from bpe_core import MergeStep
from mergescope_ui.shared.html.tokens import clip_label

from .cards import RULE_GIST
from .tables import pair_table

MAX_CHOICES = 8
TOKEN_COLUMNS = 8  # each token of a pair in the choices and the verdict: one line on a projector
ICONS = {"right": "🎉", "tied": "⚖️", "wrong": "🤔"}
QUIZ_CSS = """
<style>
.ms-quiz{font-size:.92rem;line-height:1.2;display:flex;align-items:center;justify-content:space-between;
  gap:0 1rem;}
/* A long verdict wraps (a projector shows no tooltip), in lines close enough to keep the stage on it. */
.ms-quiz .ms-verdict{min-width:0;padding:0 .4rem;border-radius:.4rem;}
.ms-quiz .ms-right{background:#d3f9d8;color:#22702f;}
.ms-quiz .ms-tied{background:#fff3bf;color:#8a5a00;}
.ms-quiz .ms-wrong{background:#ffe3e3;color:#c92a2a;}
.ms-quiz .ms-score{opacity:.75;white-space:nowrap;margin-left:auto;}
/* The question, then the choices on the same line (rows of them close together). */
/* The verdict (two lines at most), then the guess: one height at every step, so the stage never moves. */
[data-testid="stMain"] .st-key-train_quiz_slot{height:6.5rem;flex:none;gap:.3rem;overflow:hidden;}
.st-key-train_quiz_slot .ms-quiz{height:2.4em;align-items:flex-start;}
.ms-quiz-done{font-weight:600;}
.st-key-quiz_guess{margin-top:0;}
.st-key-quiz_guess .stRadio{display:flex;flex-wrap:nowrap;align-items:baseline;gap:0 1rem;}
.st-key-quiz_guess [data-testid="stWidgetLabel"]{margin:0;min-height:0;flex:none;}
.st-key-quiz_guess [data-testid="stWidgetLabel"] p{font-size:1rem;font-weight:600;}
.st-key-quiz_guess [role="radiogroup"]{flex:1 1 0;min-width:0;row-gap:0;column-gap:.9rem;}
/* A phone: the question on its line, the choices in one row below it that scrolls sideways in its own box
   (rows of up to eight choices would not fit the slot's one height, and the slot hides what overflows). */
@media (max-width: 640px){
  .st-key-quiz_guess .stRadio{flex-direction:column;align-items:stretch;}
  .st-key-quiz_guess [role="radiogroup"]{flex:none;flex-wrap:nowrap;overflow-x:auto;overflow-y:hidden;
    padding-bottom:.25rem;}
  .st-key-quiz_guess [role="radiogroup"] > *{flex:none;}
  .st-key-quiz_guess [role="radiogroup"] p{white-space:nowrap;}
}
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
    seen: dict[str, int] = {}
    for label in short.values():
        seen[label] = seen.get(label, 0) + 1
    return {option: label if seen[label] == 1 else option for option, label in short.items()}


def grade(guess: str, step: MergeStep) -> QuizResult:
    """Compare a guessed pair label with the merge ``step`` made."""
    table = pair_table(step)
    answer = table.loc[table["chosen"], "pair"].iloc[0]
    counts = dict(zip(table["pair"], table["count"]))
    times = _times(step.count)
    named, winner = short_pair(guess), short_pair(answer)  # the message stays one line
    if guess == answer:
        outcome, message = "right", f"Right! {winner} occurs {times}, more than any other pair"
        if step.tied:
            others = step.tie_count - 1
            message = (
                f"Right! {winner} occurs {times}, tied with {others} other pair{'s' if others != 1 else ''}; "
                f"the {step.tie_break} rule picks it"
            )
    elif counts.get(guess) == step.count:
        outcome = "tied"
        why = RULE_GIST.get(step.tie_break, "")  # (short: one line above the stage; the sidebar has it all)
        message = (
            f"Tied: {named} also occurs {times}, as often as {winner}. "
            f"The {step.tie_break} rule chose {winner}" + (f": {why}" if why else "")
        )
    else:
        outcome = "wrong"
        seen = _times(counts[guess]) if guess in counts else "less often"
        message = f"Not this time: {named} occurs {seen}; {winner} occurs {times}"
    return QuizResult(step=step.index, guess=guess, answer=answer, outcome=outcome, message=message)


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


def quiz_html(verdict: QuizResult | None, *, results: Sequence[QuizResult]) -> str:
    """The ``verdict`` on the guess for the merge shown and the score of all ``results``, on one line;
    escaped HTML, for ``st.html`` ("" when there is neither)."""
    parts = []
    if verdict is not None:
        message = html.escape(verdict.message, quote=True)
        parts.append(
            f'<span class="ms-verdict ms-{verdict.outcome}" title="{message}.">'
            f"{ICONS[verdict.outcome]} {message}.</span>"
        )
    if results:
        parts.append(f'<span class="ms-score">Quiz score: {html.escape(score_line(results))}</span>')
    return f'<div class="ms-quiz">{"".join(parts)}</div>' if parts else ""


def question(upcoming: int) -> str:
    """The question for merge ``upcoming``, shown beside its choices (our own words: no user text)."""
    return f"🤔 Your guess for merge {upcoming:,}:"
