"""The Train page's "⬇️ Download this lesson" under AppTest: the button, the limits said above it, and a
message instead of it where no file can be made (the file itself: test_lesson_file.py, and
tests/browser/test_lesson_file.py downloads it from the page)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from mergescope_ui.train import keys, lesson_file_view
from tests.ui.train.train_page import open_train

LABEL = "⬇️ Download this lesson"


def _buttons(at: AppTest) -> list[str]:
    return [b.proto.label for b in at.get("download_button")]


def _captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption)


def test_the_button_is_below_the_stage_with_its_limits_above_it() -> None:
    at = open_train()
    assert LABEL in _buttons(at)
    assert "Up to 2,000 steps and 20 MB a file" in _captions(at)
    first, last = at.number_input(key=keys.LESSON_FIRST), at.number_input(key=keys.LESSON_LAST)
    assert (first.value, last.value) == (0, min(lesson_file_view.DEFAULT_STEPS, last.max))
    button = next(b for b in at.get("download_button") if b.proto.label == LABEL)
    assert button.proto.deferred_file_id, "the file is made when clicked, not at every rerun"


def test_a_range_backwards_is_a_message_not_a_button() -> None:
    at = open_train()
    at.number_input(key=keys.LESSON_FIRST).set_value(20).run()
    at.number_input(key=keys.LESSON_LAST).set_value(5).run()
    assert not at.exception
    assert LABEL not in _buttons(at)
    assert any("No lesson file for these steps" in w.value and "not a range" in w.value for w in at.warning)


def test_a_text_too_long_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lesson_file_view, "MAX_LESSON_CHARS", 10)
    at = open_train()
    assert LABEL not in _buttons(at)
    assert "A lesson file is made from texts up to 10 characters" in _captions(at)


def test_wordpiece_has_it_too() -> None:
    at = open_train(**{keys.SCHEME: "wordpiece"})
    assert LABEL in _buttons(at)
