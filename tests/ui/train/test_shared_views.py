"""The stage's views and labels are built once for every session on an equal run (a class stepping one
lesson: same text, same settings), and never shared with a run of another text or other settings."""

from __future__ import annotations

import gc

import pytest

from bpe_core import Trainer, TrainOptions
from mergescope_ui.shared.stage import producer
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.train.scheme_run import SchemeSettings, start_scheme_run
from mergescope_ui.train.stage_data import StageViews
from mergescope_ui.train.unigram_stage import UnigramViews
from mergescope_ui.train.whatif.branch import WhatIf, start_branch
from mergescope_ui.train.wordpiece_stage import WordPieceViews

TEXT = "the keeper lit the lamp and the ships saw the light. 灯塔守护者点亮了灯。 " * 20


def _run(text: str = TEXT, merges: int = 30) -> TrainingRun:
    settings = TrainOptions(vocab_size=256 + merges)
    run = TrainingRun(Trainer(text, settings), identity=RunIdentity.of(text, settings))
    run.jump(merges)
    return run


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The steps whose view was built (not taken from the shared views)."""
    built: list[int] = []
    real = StageViews.build

    def counted(self: StageViews, k: int, start: int):
        built.append(k)
        return real(self, k, start)

    monkeypatch.setattr(StageViews, "build", counted)
    return built


def test_two_sessions_on_equal_runs_build_each_view_once(builds: list[int]) -> None:
    first, second = StageViews(_run(), TEXT), StageViews(_run(), TEXT)  # two sessions, two trainers
    window = first.window(position=10, serial=1, settings=StageSettings())
    built = sorted(builds)
    assert built == [v.step for v in window.views]
    again = second.window(position=10, serial=1, settings=StageSettings())
    assert sorted(builds) == built, "the second session took the first one's views"
    assert again == window
    assert all(a is b for a, b in zip(again.views, window.views, strict=True))
    assert second.labels([257])["257"] is first.labels([257])["257"]


def test_what_a_session_is_shown_is_what_it_would_build_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    first = StageViews(_run(), TEXT)
    first.window(position=5, serial=1, settings=StageSettings())  # steps 1-13 built by this one
    shared = StageViews(_run(), TEXT).window(position=12, serial=2, settings=StageSettings())
    monkeypatch.setattr(producer, "SHARED", producer.SharedViews())
    alone = StageViews(_run(), TEXT).window(position=12, serial=2, settings=StageSettings())
    assert shared == alone


def test_another_text_or_a_what_if_has_views_of_its_own(builds: list[int]) -> None:
    lesson = StageViews(_run(), TEXT)
    lesson.view(3)
    other_text = TEXT.replace("lamp", "lantern")
    other = StageViews(_run(other_text), other_text)
    assert other.view(3) != lesson.view(3) and builds == [3, 3]
    real = _run()
    step = real.records[4]
    branch = start_branch(real, WhatIf(kind="block", step=5, pair=step.pair))
    branch.jump(8)
    what_if = StageViews(branch, TEXT)
    assert what_if.view(5).card != lesson.view(5).card, "the what-if merged another pair at step 5"
    assert builds == [3, 3, 5, 5]


@pytest.mark.parametrize("scheme", ["wordpiece", "unigram"])
def test_wordpiece_and_unigram_views_are_shared_too(scheme: str) -> None:
    wordpiece = scheme == "wordpiece"
    settings = SchemeSettings(scheme=scheme, steps=4) if wordpiece else SchemeSettings(scheme=scheme)
    views = WordPieceViews if wordpiece else UnigramViews
    first, second = (views(start_scheme_run(TEXT, settings), TEXT) for _ in range(2))
    for v in (first, second):
        v.run.jump(2)
    assert second.view(2) is first.view(2) and second.labels([1]) == first.labels([1])
    other = views(start_scheme_run(TEXT + " more", settings), TEXT + " more")
    other.run.jump(2)
    assert other.view(2) is not first.view(2)


def test_the_shared_views_go_with_the_last_session_on_their_run() -> None:
    first, second = StageViews(_run(), TEXT), StageViews(_run(), TEXT)
    first.view(2)
    assert len(producer.SHARED) == 1
    del first
    gc.collect()
    assert len(producer.SHARED) == 1 and second.view(2).step == 2, "kept while a session steps"
    del second
    gc.collect()
    assert len(producer.SHARED) == 0, "the class left: nothing kept"
