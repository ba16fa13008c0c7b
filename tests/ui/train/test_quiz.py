"""Grading quiz guesses against real engine steps, and the score line."""

from __future__ import annotations

import bpe_core
from mergescope_ui.train.cards import RULE_GIST
from mergescope_ui.train.quiz import choices, grade, score_line


def test_quiz_choices_hide_the_order_and_grade_each_outcome() -> None:
    steps = list(bpe_core.train_steps("the cat in the hat", vocab_size=266, pattern="none"))
    tied = next(s for s in steps if s.tied)
    options = choices(tied)
    assert options == sorted(options)
    answer = grade(options[0], tied).answer
    assert grade(answer, tied).outcome == "right"
    other_tied = [o for o in options if o != answer and grade(o, tied).outcome == "tied"]
    assert other_tied, "a tied step offers another pair with the same count"
    # A tie is not simply wrong: same count, and which rule chose the other pair (and how it chooses).
    message = grade(other_tied[0], tied).message
    assert f"also occurs {tied.count} times, as often as {answer}" in message
    assert f"The {tied.tie_break} rule chose {answer}: {RULE_GIST[tied.tie_break]}" in message
    single = next(s for s in steps if not s.tied and len(s.top_pairs) > 1 and s.top_pairs[1].count < s.count)
    loser = next(o for o in choices(single) if grade(o, single).outcome != "right")
    assert grade(loser, single).outcome == "wrong"


def test_score_line_reads_naturally() -> None:
    steps = list(bpe_core.train_steps("the cat in the hat", vocab_size=266, pattern="none"))
    tied = next(s for s in steps if s.tied)
    answer = grade(choices(tied)[0], tied).answer
    other = next(o for o in choices(tied) if grade(o, tied).outcome == "tied")
    right, tie = grade(answer, tied), grade(other, tied)
    miss = next(grade(o, s) for s in steps for o in choices(s) if grade(o, s).outcome == "wrong")
    assert score_line([right]) == "1 of 1 right"
    assert score_line([right, tie, miss]) == "1 of 3 right, 1 tied with the winner"
    assert score_line([miss]) == "0 of 1 right"
