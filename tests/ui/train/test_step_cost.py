"""Which part of the Train panel a stage report reruns (issue #22, item 12), under AppTest.

A report that stepping paused on and that needs no window reruns only the part below the stage: the
stage is not sent again (AppTest's page then holds only what that run drew), while the tables and the
URL follow the step.  A report that needs a window, or one that says nothing of why it came, runs the
stage's part (AppTest runs the whole page for it).  In the browser: tests/browser/test_train_cost.py.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from mergescope_ui.shared import keys as shared_keys
from tests.ui.train.stage_driver import send, stage_data

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"


def _train() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page(TRAIN).run()
    assert not at.exception, at.exception
    return at


def _stages(at: AppTest) -> int:
    return sum(el.proto.component_name == "mergescope_stage" for el in at.get("bidi_component"))


def _merges_heading(at: AppTest) -> list[str]:
    return [h.value for h in at.html if "Merges so far (" in h.value]


def test_a_settled_report_reruns_the_part_below_and_not_the_stage() -> None:
    at = _train()
    send(at, position=2, why={"window": True, "settled": False})  # a window near its edge
    assert _stages(at) == 1 and stage_data(at)["position"] == 2
    assert at.session_state[shared_keys.RUN].position == 2
    send(at, position=3, why={"window": False, "settled": True})  # stepping paused on step 3
    assert not at.exception, at.exception
    assert _stages(at) == 0, "the stage has what it needs: it is not sent again"
    assert any("Merges so far (3)" in h for h in _merges_heading(at)), "the tables below follow"
    assert at.query_params["step"] == "3", "the URL follows"
    assert at.session_state[shared_keys.RUN].position == 3


def test_a_settled_report_that_needs_a_window_reruns_both_parts() -> None:
    at = _train()
    send(at, position=3, why={"window": False, "settled": True})
    assert _stages(at) == 0
    at.run()
    send(at, position=7, why={"window": True, "settled": True})  # Jump to 7, say
    assert _stages(at) == 1 and stage_data(at)["position"] == 7, "a window around step 7"
    assert any("Merges so far (7)" in h for h in _merges_heading(at))
    assert at.query_params["step"] == "7"
