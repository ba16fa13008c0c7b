"""Stepping a trainer across reruns without retraining (the Train page keeps the run, Tokenize reads it)."""

from __future__ import annotations

from pathlib import Path

import pytest

import bpe_core
from bpe_core.training import STOP_NO_PAIRS
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun


class CountingTrainer:
    """Wraps a real trainer and counts next() calls, to prove Back never pulls."""

    def __init__(self, trainer: bpe_core.Trainer) -> None:
        self.inner = trainer
        self.pulls = 0

    def __iter__(self):
        return self

    def __next__(self) -> bpe_core.MergeStep:
        self.pulls += 1
        return next(self.inner)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def _run(
    text: str = "low low low low low lowest lowest newest newest newest", merges: int = 50
) -> TrainingRun:
    settings = bpe_core.TrainOptions(vocab_size=256 + merges, pattern="none")
    trainer = CountingTrainer(bpe_core.Trainer(text, settings))
    return TrainingRun(trainer=trainer, identity=RunIdentity.of(text, settings))


def test_next_three_back_one_lands_on_step_two_without_pulling() -> None:
    run = _run()
    for _ in range(3):
        assert run.forward()
    pulls = run.trainer.pulls
    assert run.back()
    assert run.position == 2 and run.current is run.records[1] and run.current.index == 2
    assert run.trainer.pulls == pulls
    assert run.sequence() == run.records[1].sequence
    assert run.forward() and run.trainer.pulls == pulls  # replay, no new pull
    assert run.position == 3


def test_jump_pulls_only_what_is_missing_and_reports_progress() -> None:
    run = _run(Path("corpora/lighthouse_story.txt").read_text(encoding="utf-8"), merges=80)
    seen: list[tuple[int, int]] = []
    assert run.jump(60, progress=lambda done, total: seen.append((done, total)), every=20) == 60
    assert seen == [(20, 60), (40, 60), (60, 60)]
    assert run.jump(10) == 10 and run.trainer.pulls == 60
    assert [s.index for s in run.records] == list(range(1, 61))
    with pytest.raises(ValueError, match="negative"):
        run.jump(-1)


def test_finishing_early_says_why_and_next_stops() -> None:
    run = _run("aaabdaaabac", merges=50)
    reached = run.jump(50)
    assert run.finished and run.at_end and reached == run.pulled < 50
    assert run.stop_reason == STOP_NO_PAIRS
    assert not run.forward() and run.position == reached
    run.reset()
    assert run.position == 0 and run.sequence() == tuple(run.trainer.initial_sequence)


def test_one_character_corpus_has_nothing_to_merge() -> None:
    run = _run("x")
    assert run.peek() is None and run.at_end and run.stop_reason == STOP_NO_PAIRS
    assert run.sequence() == (ord("x"),)


def test_peek_does_not_move() -> None:
    run = _run()
    upcoming = run.peek()
    assert upcoming is not None and upcoming.index == 1 and run.position == 0
    run.forward()
    assert run.current is upcoming
