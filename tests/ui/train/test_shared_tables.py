"""The tables below the stage are made once for every session on the same run and step (a class stepping one
lesson), and never shared with a session on another run: each session's tables are those of its own run."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.train import details
from tests.ui.train.stage_driver import send

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"


def _session(corpus: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["corpus"] = corpus
    at.run()
    at.switch_page(TRAIN).run()
    assert not at.exception, at.exception
    return at


def _tables(at: AppTest) -> list[str]:
    marks = ("Merges so far (", "pairs counted before merge")
    return [h.value for h in at.html if any(m in h.value for m in marks)]


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which tables were made (not taken from the shared memo), emptied first."""
    details.SHARED._memo.clear()
    calls: list[str] = []
    for name in ("_merges_html", "_longest_html", "_top_pairs_html"):
        real = getattr(details, name)

        def counted(*args: object, _real=real, _name=name) -> str:
            calls.append(_name)
            return _real(*args)

        monkeypatch.setattr(details, name, counted)
    return calls


def test_two_sessions_on_one_lesson_share_the_tables_and_another_lesson_has_its_own(made) -> None:
    first, second = _session("lighthouse_story"), _session("lighthouse_story")
    send(first, position=3, why={"window": False, "settled": True})
    made_once = sorted(made)
    assert made_once == ["_longest_html", "_merges_html", "_top_pairs_html"]
    send(second, position=3, why={"window": False, "settled": True})
    assert sorted(made) == made_once, "the second session drew the first one's tables"
    assert _tables(second) == _tables(first) and len(_tables(first)) == 2
    other = _session("cat_in_the_hat")
    send(other, position=3, why={"window": False, "settled": True})
    assert len(made) == 2 * len(made_once), "another text's run makes its own"
    run = other.session_state[shared_keys.RUN]
    steps = run.records[:3]
    own = details._merges_html(steps, details._longest_html(steps))
    assert any(h.endswith(own) for h in _tables(other)), "its tables are its own run's"
    assert _tables(other) != _tables(first)
