"""The stage's data (pure: no Streamlit): each step's view, the window around a step, the labels."""

from __future__ import annotations

import json

from bpe_core import Trainer, TrainOptions
from mergescope_ui.shared.stage.contract import AHEAD, BEHIND, CONTEXT_COLUMNS, PLACES_PER_STEP, Spans, wire
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.train.quiz import BPE_QUESTION
from mergescope_ui.train.stage_data import StageViews

STORY = "the keeper lit the lamp and the ships saw the light. 灯塔守护者点亮了灯。 " * 30


def _run(text: str = STORY, merges: int = 40, **options) -> TrainingRun:
    settings = TrainOptions(vocab_size=256 + merges, **options)
    run = TrainingRun(Trainer(text, settings), identity=RunIdentity.of(text, settings))
    run.jump(merges)
    return run


def _ids(line: Spans, side: str = "after") -> list[int]:
    """The token ids of a stretch of text after the step, or before it."""
    return [i for span in line for i in (span.was or span.ids if side == "before" else span.ids)]


def test_a_window_around_a_step_and_its_questions_in_the_quiz() -> None:
    run = _run()
    views = StageViews(run, STORY)
    window = views.window(position=20, serial=3, settings=StageSettings())
    assert window.lo == 20 - BEHIND and window.hi == 20 + AHEAD and window.serial == 3
    assert [v.step for v in window.views] == list(range(20 - BEHIND, 20 + AHEAD + 1))
    upto = views.window(position=20, serial=3, settings=StageSettings(upto=True))
    assert [v.step for v in upto.views] == list(range(20 - BEHIND - AHEAD, 21)), "as many steps, all before"
    assert upto.questions == ()
    quiz = views.window(position=20, serial=3, settings=StageSettings(quiz=True, hint=True))
    assert [q.step for q in quiz.questions] == list(range(21, 20 + AHEAD + 1)) and quiz.hint
    for q in quiz.questions:  # each choice judged as the quiz grades it, the step's own pair right
        step = run.records[q.step - 1]
        assert {c.label: c.outcome for c in q.choices} == {
            c: BPE_QUESTION.grade(c, step).outcome for c in BPE_QUESTION.choices(step)
        }
        assert [c.label for c in q.choices if c.outcome == "right"] == [BPE_QUESTION.grade("", step).answer]
    json.dumps(wire(window))  # it goes to the browser as JSON


def test_going_back_to_a_step_not_built_yet_keeps_every_label() -> None:
    run = _run()
    views = StageViews(run, STORY)
    for k in range(1, 21):  # the replay ends at step 20
        views.view(k)
    window = views.window(position=1, serial=0, settings=StageSettings())  # builds step 0: the replay back
    shown = {i for v in window.views for side in ("before", "after") for i in _ids(v.head, side)}
    assert {str(i) for i in shown} <= set(window.labels)


def _place_ids(place, side: str) -> list[int]:
    return _ids(place.lead, side) + _ids(place.token, side) + _ids(place.tail, side)


def test_each_place_is_the_new_token_with_a_little_text_around_it() -> None:
    run = _run(pattern="none")
    views = StageViews(run, STORY)
    for k in (1, 10, 40):
        step, places = run.records[k - 1], views.view(k).places
        assert places is not None
        assert places.total == step.replaced and 0 < len(places.items) <= PLACES_PER_STEP
        for p in places.items:
            assert _ids(p.token) == [step.new_id] and _ids(p.token, "before") == list(step.pair)
            for side in (_ids(p.lead), _ids(p.tail)[::-1]):
                widths = [views.columns(i) for i in side]
                assert len(side) <= 1 or sum(widths[1:]) <= CONTEXT_COLUMNS  # cut to columns, whole tokens


def test_every_new_token_is_marked_and_made_from_the_pair_and_nothing_else_is() -> None:
    run = _run(pattern="none")
    views = StageViews(run, STORY)
    for k in (1, 5, 25):
        step, v = run.records[k - 1], views.view(k)
        assert v.places is not None
        for line in [v.head] + [p.lead for p in v.places.items] + [p.tail for p in v.places.items]:
            for span in line:
                if span.mark == "new":
                    assert span.ids == (step.new_id,) and span.was == step.pair
                else:
                    assert span.mark == "" and span.was is None and step.new_id not in span.ids
            assert step.new_id not in _ids(line, "before")


def test_near_places_are_linked_by_the_text_between_their_tokens() -> None:
    text = "aXaXaX qrstuvwxyzqr aXaX"
    run = _run(text, merges=1, pattern="none")  # merge 1: a + X (5 times)
    places = StageViews(run, text).view(1).places
    assert places is not None and places.total == 5
    # aX aX aX: each token in the one before's right context, nothing between them; the fourth
    # one is 15 tokens past the third, beyond its 12 columns of context.
    assert [None if p.link is None else _ids(p.link) for p in places.items] == [[], [], None, [], None]
    first, second, third = places.items[:3]
    assert first.link is not None and second.link is not None
    line = _ids(first.lead) + _ids(first.token) + _ids(first.link) + _ids(second.token)
    line += _ids(second.link) + _ids(third.token) + _ids(third.tail)
    assert b"".join(run.trainer.vocab[i] for i in line) == b"aXaXaX qrstuvwxyzq"
    assert (first.cut_before, third.cut_after) == (False, True)


def test_labels_are_plain_text_shortened_and_carry_the_whole_token_in_the_tooltip() -> None:
    """Plain text: the stage puts a label in the page as a text node (tests/browser: markup stays text)."""
    text = "<b>low low low low low lower</b> " * 40
    run = _run(text, merges=60, pattern="none")
    views = StageViews(run, text)
    longest = max(run.records, key=lambda s: len(s.token))
    label = views.labels([longest.new_id])[str(longest.new_id)]
    assert label.text.startswith("<b>") and "…" in label.text and views.columns(longest.new_id) <= 14
    whole = longest.token.decode().replace(" ", "\N{OPEN BOX}")
    assert whole in label.title and f"{len(longest.token)} bytes" in label.title
    assert label.classes.startswith("ms-t")
