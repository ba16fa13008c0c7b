"""The stage's data (pure: no Streamlit): each step's view, the window around a step, the labels."""

from __future__ import annotations

import html
import json

from bpe_core import Trainer, TrainOptions
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.train.stage_data import (
    AHEAD,
    BEHIND,
    CONTEXT_COLUMNS,
    PLACES_PER_STEP,
    StageOptions,
    StageViews,
)

STORY = "the keeper lit the lamp and the ships saw the light. 灯塔守护者点亮了灯。 " * 30


def _run(text: str = STORY, merges: int = 40, **options) -> TrainingRun:
    settings = TrainOptions(vocab_size=256 + merges, **options)
    run = TrainingRun(Trainer(text, settings), identity=RunIdentity.of(text, settings))
    run.jump(merges)
    return run


def test_a_window_around_a_step_and_nothing_after_it_in_the_quiz() -> None:
    run = _run()
    views = StageViews(run, STORY)
    data = views.payload(position=20, serial=3, options=StageOptions())
    assert data["lo"] == 20 - BEHIND and data["hi"] == 20 + AHEAD and data["serial"] == 3
    assert sorted(map(int, data["views"])) == list(range(20 - BEHIND, 20 + AHEAD + 1))
    quiz = views.payload(position=20, serial=3, options=StageOptions(quiz=True))
    assert max(map(int, quiz["views"])) == 20
    json.dumps(data)  # it goes to the browser as JSON


def test_going_back_to_a_step_not_built_yet_keeps_every_label() -> None:
    run = _run()
    views = StageViews(run, STORY)
    for k in range(1, 21):  # the replay ends at step 20
        views.view(k)
    data = views.payload(position=1, serial=0, options=StageOptions())  # builds step 0: the replay goes back
    shown = {i for v in data["views"].values() for i in v["head"]}
    assert {str(i) for i in shown} <= set(data["tokens"])


def test_each_place_is_the_new_token_with_a_little_text_around_it() -> None:
    run = _run(pattern="none")
    views = StageViews(run, STORY)
    for k in (1, 10, 40):
        step, places = run.records[k - 1], views.view(k)["places"]
        assert places["total"] == step.replaced and 0 < len(places["items"]) <= PLACES_PER_STEP
        labels = views.labels(i for p in places["items"] for i in (*p["left"], *p["right"]))
        for p in places["items"]:
            assert p["token"] == step.new_id
            for side in (p["left"], p["right"][::-1]):
                widths = [labels[str(i)][4] for i in side]
                assert (
                    len(side) <= 1 or sum(widths[1:]) <= CONTEXT_COLUMNS
                )  # cut to the columns, whole tokens


def test_labels_are_escaped_shortened_and_carry_the_whole_token_in_the_tooltip() -> None:
    text = "<b>low low low low low lower</b> " * 40
    run = _run(text, merges=60, pattern="none")
    views = StageViews(run, text)
    longest = max(run.records, key=lambda s: len(s.token))
    label, classes, title, _, columns = views.labels([longest.new_id])[str(longest.new_id)]
    assert "<" not in label and "…" in html.unescape(label) and columns <= 14
    whole = longest.token.decode().replace(" ", "\N{OPEN BOX}")
    assert whole in html.unescape(title) and f"{len(longest.token)} bytes" in title
    assert classes.startswith("ms-t")
