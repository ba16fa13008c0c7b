"""The stage's window goes as JSON bytes made from each step view's JSON, encoded once
(:func:`mergescope_ui.shared.stage.contract.window_json`): the same data as ``wire(window)`` at every
step of every built-in corpus, in the quiz too, and what the Train page sends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bpe_core import Trainer, TrainOptions
from mergescope_ui.shared.inputs.corpora import find_corpus, load_index, load_text
from mergescope_ui.shared.stage import contract as stage_contract
from mergescope_ui.shared.stage.contract import window_json, wire
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.train.stage_data import StageViews
from tests.ui.train.stage_driver import send, stage_data

ROOT = Path(__file__).resolve().parents[3]
MERGES = 30


@pytest.mark.parametrize("corpus", [c.id for c in load_index()])
def test_every_window_of_every_corpus_is_the_wired_window(corpus: str) -> None:
    text = load_text(find_corpus(corpus))
    settings = TrainOptions(vocab_size=256 + MERGES)
    run = TrainingRun(Trainer(text, settings), identity=RunIdentity.of(text, settings))
    run.jump(MERGES)
    views = StageViews(run, text)
    for position in range(run.pulled + 1):
        for quiz in (False, True):
            window = views.window(position=position, serial=position, settings=StageSettings(quiz=quiz))
            assert json.loads(window_json(window)) == wire(window), (position, quiz)


def test_each_view_is_encoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "the keeper lit the lamp and the ships saw the light " * 20
    settings = TrainOptions(vocab_size=256 + MERGES)
    run = TrainingRun(Trainer(text, settings), identity=RunIdentity.of(text, settings))
    run.jump(MERGES)
    views = StageViews(run, text)
    encoded: list[int] = []
    real = stage_contract.json.dumps

    def counted(value: object, **options: object) -> str:
        if isinstance(value, dict) and "heading" in value:  # a step view's fields
            encoded.append(value["step"])
        return real(value, **options)

    monkeypatch.setattr(stage_contract.json, "dumps", counted)
    first = views.window(position=5, serial=1, settings=StageSettings())
    window_json(first)
    assert sorted(encoded) == [v.step for v in first.views]
    shown = {v.step for v in first.views}
    second = views.window(position=6, serial=1, settings=StageSettings())
    window_json(second)
    added = {v.step for v in second.views} - shown
    assert added and sorted(encoded) == sorted([*shown, *added]), "only the step new to this window"


def test_the_train_page_sends_the_window_as_bytes() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page("pages/views/train.py").run()
    send(at, position=2, why={"window": True, "settled": False})
    assert not at.exception, at.exception
    (stage,) = [el for el in at.get("bidi_component") if el.proto.component_name == "mergescope_stage"]
    assert stage.proto.WhichOneof("data") == "bytes"
    assert stage_data(at)["position"] == 2
