"""Grading quiz guesses against real engine steps, and the score line."""

from __future__ import annotations

import bpe_core
from mergescope_ui.train.cards import RULE_GIST
from mergescope_ui.train.quiz import BPE_QUESTION, score_line

choices, grade = BPE_QUESTION.choices, BPE_QUESTION.grade  # byte-level BPE's question


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


def test_a_pair_seen_once_occurs_once_in_every_verdict() -> None:
    """Every choice at every step of a text with pairs seen once: a count of 1 reads 'once', never
    '1 times' (nor '1 time'); other counts read 'N times'."""
    steps = list(bpe_core.train_steps("aaabdaaabac low lower", vocab_size=300, pattern="none"))
    seen_once = 0
    for step in steps:
        for option in choices(step):
            message = grade(option, step).message
            assert " 1 times" not in message and " 1 time" not in message, message
            seen_once += "occurs once" in message
            if step.count > 1 and grade(option, step).outcome == "right":
                assert f"occurs {step.count:,} times" in message
    assert seen_once > 10, "the text has steps whose pairs occur once"
