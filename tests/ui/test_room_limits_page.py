"""The rooms' limits and the teacher's presence on the pages, headless (issues 45 and 40): each refusal is one
line (no exception), a second tab of a browser is the same student, a phone reads that the teacher left and
has no step past the teacher's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mergescope_ui.classroom.follow import FOLLOW_CSS
from mergescope_ui.shared import rooms
from mergescope_ui.shared.rooms import MemoryRooms
from mergescope_ui.shared.rooms.client import LOCAL
from mergescope_ui.shared.rooms.model import AWAY_AFTER, Limits
from tests.ui.shared.room_fixtures import moment as _moment
from tests.ui.shared.room_fixtures import question as _question

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "views" / "classroom.py")
SMALL = Limits(rooms_per_address=1, empty_seconds=300, joins_per_minute=4, code_guesses_per_minute=2)
BROWSER = "0f" * 16  # a browser's own id, as its localStorage gives it


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> MemoryRooms:
    """The pages' store for one test: small limits, a clock of its own (AppTest's browser is at LOCAL)."""
    store = MemoryRooms(clock=clock, limits=SMALL)
    monkeypatch.setattr(rooms, "_STORE", store)
    return store


def _student(code: str, name: str, *, browser: str | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["code"] = code
    if browser is not None:
        at.session_state["room_browser_id"] = {"value": browser}  # what the browser's storage answered
    at.run()
    at.text_input(key="room_name").set_value(name)
    at.button[0].click().run()  # the form's submit button
    return at


def _one_line(at: AppTest, kind: str, text: str) -> str:
    assert not at.exception, at.exception
    lines = [e.value for e in getattr(at, kind) if text in e.value]
    assert len(lines) == 1 and "\n" not in lines[0], [e.value for e in getattr(at, kind)]
    return lines[0]


def test_wrong_codes_from_one_address_stop_with_one_line(store: MemoryRooms) -> None:
    code, _ = store.open()
    for _ in range(SMALL.code_guesses_per_minute):
        _one_line(_student("ZZZZ22", "Eve"), "error", "No room has this code")
    at = _student(code, "Eve")  # the right code, after too many wrong ones from this address
    _one_line(at, "error", "Too many wrong room codes from your network")
    assert at.text_input(key="room_name").value == "Eve"  # the form stays


def test_too_many_joins_from_one_address_is_one_line(store: MemoryRooms) -> None:
    code, _ = store.open()
    for n in range(SMALL.joins_per_minute):
        assert not _student(code, f"s{n}").exception
    _one_line(_student(code, "late"), "error", "Too many joins from your network this minute")
    assert store.state(code).students == SMALL.joins_per_minute


def test_a_second_tab_of_a_browser_is_the_same_student(store: MemoryRooms) -> None:
    code, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    first = _student(code, "Ada", browser=BROWSER)
    second = _student(code, "Ada's twin", browser=BROWSER)
    assert store.state(code).students == 1 and store.names(code) == ("Ada",)
    assert second.session_state["_room_joined"].student == first.session_state["_room_joined"].student
    line = next(h.value for h in second.html if "ms-room-line" in h.value)
    assert "You: Ada<" in line  # the name this browser joined under
    _student(code, "Ben", browser="1e" * 16)
    assert store.state(code).students == 2


def test_a_teacher_over_the_address_limit_reads_one_line(store: MemoryRooms) -> None:
    store.open(address=LOCAL)  # this address's one room, opened elsewhere
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.query_params.update({"corpus": "low_lower_newest_widest", "pattern": "none"})
    at.switch_page("pages/views/train.py").run()
    at.button(key="room_open").click().run()
    _one_line(at, "warning", "Your network holds 1 open room,")
    assert "_room_host" not in at.session_state


def test_a_phone_reads_that_the_teacher_left_and_that_they_are_back(store: MemoryRooms, clock: Clock) -> None:
    code, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    at = _student(code, "Ada")
    assert not [w for w in at.warning if "has left" in w.value]
    clock.now += AWAY_AFTER + 1  # the teacher's page says nothing more (its browser closed)
    at.run()
    _one_line(at, "warning", "Your teacher has left the room")
    store.present(host)  # back
    at.run()
    assert not [w for w in at.warning if "has left" in w.value]
    store.close(host)
    at.run()
    _one_line(at, "warning", "This room has closed: your teacher ended the lesson")


def test_a_phone_has_no_step_past_the_teachers_and_no_play(store: MemoryRooms) -> None:
    code, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    at = _student(code, "Ada")
    (stage,) = [e.proto for e in at.get("bidi_component") if e.proto.component_name == "mergescope_stage"]
    data = json.loads(stage.bytes)
    assert data["max_steps"] == data["last"] == data["position"] == 3  # Next stops at the teacher's step
    assert "step 3" in data["wording"]["past_limit"]
    assert ".st-key-room_stage_box .ms-play{display:none;}" in FOLLOW_CSS
    assert any(".st-key-room_stage_box .ms-play" in h.value for h in at.html)  # sent with the page
