"""Rooms for the tests: a question (o + w right, l + o tied, e + s wrong) and a moment of empty views."""

from __future__ import annotations

from mergescope_ui.shared.rooms.model import BEHIND, Moment, Question, Verdict
from mergescope_ui.shared.stage.contract import StepView, Window, Wording


def question(step: int) -> Question:
    """A question for the tests: o + w is right, l + o tied, e + s wrong."""
    verdicts = {
        "e + s": Verdict("wrong", "Not this time"),
        "l + o": Verdict("tied", "Tied: l + o also occurs 3 times"),
        "o + w": Verdict("right", "Right!"),
    }
    labels = tuple(verdicts)
    return Question(step=step, choices=labels, shown=labels, answer="o + w", verdicts=verdicts)


def moment(position: int, *, question: Question | None = None) -> Moment:
    """A moment for the tests: empty views of steps 0..position."""
    views = tuple(
        StepView(
            step=k,
            heading=f"Step {k}",
            status="",
            card="",
            pairs="",
            figures="",
            before_caption="",
            after_caption="",
            head=(),
            head_more=False,
            places=None,
        )
        for k in range(max(0, position - BEHIND), position + 1)
    )
    wording = Wording(heading="", waiting="", waiting_card="", past_end="", past_limit="", finished="")
    window = Window(
        serial=0,
        position=position,
        lo=views[0].step,
        hi=position,
        views=views,
        labels={},
        last=position + 5,
        finished=False,
        max_steps=100,
        quiz=True,
        animate=True,
        speed=1.0,
        large=True,
        notice="",
        wording=wording,
        arrows_from="",
    )
    return Moment(window=window, question=question, lesson="/train?step=" + str(position))
