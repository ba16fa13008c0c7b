"""Grading quiz guesses against real engine steps."""

from __future__ import annotations

import bpe_core
from mergescope_ui.train.quiz import choices, grade


def test_quiz_choices_hide_the_order_and_grade_each_outcome() -> None:
    steps = list(bpe_core.train_steps("the cat in the hat", vocab_size=266, pattern="none"))
    tied = next(s for s in steps if s.tied)
    options = choices(tied)
    assert options == sorted(options)
    table_answer = grade(options[0], tied).answer
    assert grade(table_answer, tied).outcome == "right"
    other_tied = [o for o in options if o != table_answer and grade(o, tied).outcome == "tied"]
    assert other_tied, "a tied step offers another pair with the same count"
    assert "tie rule" in grade(other_tied[0], tied).message
    single = next(s for s in steps if not s.tied and len(s.top_pairs) > 1 and s.top_pairs[1].count < s.count)
    loser = next(o for o in choices(single) if grade(o, single).outcome != "right")
    assert grade(loser, single).outcome == "wrong"
