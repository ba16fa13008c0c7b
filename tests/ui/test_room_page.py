"""The students' room page headless (AppTest): join, a wrong code, a hostile name, the question, the end."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mergescope_ui.shared.rooms import BLOCK, MemoryRooms, room_store
from tests.ui.shared.room_fixtures import moment as _moment
from tests.ui.shared.room_fixtures import question as _question
from tests.ui.train.stage_driver import stage_data

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "views" / "classroom.py")


def _join(code: str, name: str) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["code"] = code
    at.run()
    at.text_input(key="room_name").set_value(name)
    at.button[0].click().run()  # the form's submit button
    return at


def test_a_wrong_code_says_so_and_keeps_the_form() -> None:
    at = _join("ZZZZ22", "Ada")
    assert not at.exception
    assert any("No room has this code" in e.value for e in at.error)
    assert at.text_input(key="room_name").value == "Ada"


def test_a_student_joins_answers_once_and_sees_the_verdict() -> None:
    store = room_store()
    code, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    name = "[Cy](http://e.io) <img>"
    at = _join(code, name)
    assert not at.exception
    line = next(h.value for h in at.html if "ms-room-line" in h.value)
    assert "&lt;img&gt;" in line and "<img" not in line  # the name as text, never markup
    assert "Teacher at step 3" in line
    assert stage_data(at)["hidden_counts"] == -1, "no question open: the counts show"
    number = store.ask(host)
    at.run()
    assert stage_data(at)["hidden_counts"] == 3, "the counts at step 3 would answer the question on step 4"
    answers = [b for b in at.button if b.key and b.key.startswith(f"room_answer_{number}_")]
    assert [b.label for b in answers] == ["e \\+ s", "l \\+ o", "o \\+ w"]  # escaped for Markdown
    answers[1].click().run()
    assert not [b for b in at.button if b.key and b.key.startswith("room_answer_")]  # once
    assert any("Wait for the reveal" in i.value for i in at.info)
    store.reveal(host)
    at.run()
    assert stage_data(at)["hidden_counts"] == -1, "the counts come with the reveal"
    verdict = next(h.value for h in at.html if "ms-room-verdict" in h.value)
    assert "ms-tied" in verdict and "Tied: l + o also occurs 3 times" in verdict
    # The what-if: its own question, the blocked pair named (escaped), answered and revealed the same way.
    what_if = replace(_question(4), kind=BLOCK, blocked="[x](http://e.io)", answer="o + w")
    number = store.ask(host, what_if)
    at.run()
    heading = next(m.value for m in at.markdown if f"Question {number}" in m.value)
    assert "🚫" in heading and "were blocked" in heading and "\\[x\\]" in heading  # escaped for Markdown
    at.button(key=f"room_answer_{number}_2").click().run()
    store.reveal(host)
    at.run()
    verdict = next(h.value for h in at.html if "ms-room-verdict" in h.value)
    assert "ms-right" in verdict and f"Question {number}" in verdict
    store.close(host)
    at.run()
    assert any("This room has closed" in w.value for w in at.warning)


def test_a_reloaded_student_keeps_their_place_and_a_left_one_does_not() -> None:
    store = room_store()
    code, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    first = _join(code, "Ada")
    joined = first.session_state["_room_joined"]
    memory = [str(e.proto) for e in first.get("bidi_component") if "mergescope_tab_memory" in str(e.proto)]
    assert len(memory) == 1 and f"{code} {joined.student}" in memory[0]  # what the tab is told to keep
    number = store.ask(host)
    first.run()
    first.button(key=f"room_answer_{number}_1").click().run()
    # A reload: a new session, whose tab gives back what it kept (the browser's answer, here by hand).
    again = AppTest.from_file(PAGE, default_timeout=60)
    again.session_state["room_tab_memory"] = {"value": f"{code} {joined.student}"}
    again.run()
    assert not again.exception
    line = next(h.value for h in again.html if "ms-room-line" in h.value)
    assert "You: Ada" in line and "Teacher at step 3" in line
    assert any("Wait for the reveal" in i.value for i in again.info)  # the same student: the answer kept
    assert store.state(code).students == 1  # not a second join
    # A kept place that is not one (another room's id, a made-up one) shows the form.
    stranger = AppTest.from_file(PAGE, default_timeout=60)
    stranger.session_state["room_tab_memory"] = {"value": f"{code} made-up-id"}
    stranger.run()
    assert not stranger.exception
    assert stranger.text_input(key="room_name").value == ""
    assert not [h for h in stranger.html if "ms-room-line" in h.value]


def test_the_pages_own_run_never_waits_on_the_room(monkeypatch) -> None:
    """The poll waits for the teacher only in its own reruns: inside the page's run it looks and goes on
    (a wait there would hold the page's run, and the buttons it replaces, for up to a second)."""
    store = room_store()
    code, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    at = _join(code, "Ada")
    waits: list[float] = []
    real = MemoryRooms.wait

    def wait(self: MemoryRooms, code: str, seen: int | None, *, timeout: float) -> int | None:
        waits.append(timeout)
        return real(self, code, seen, timeout=timeout)

    monkeypatch.setattr(MemoryRooms, "wait", wait)
    at.run()
    store.ask(host)
    at.run()
    assert waits and set(waits) == {0.0}, waits


def test_a_room_with_nothing_to_ask_does_not_promise_a_question() -> None:
    store = room_store()
    code, host = store.open()
    store.publish(host, _moment(3))  # no question: an encode trace, or the end of training
    at = _join(code, "Ada")
    assert not any("When your teacher asks" in c.value for c in at.caption)
    store.publish(host, _moment(3, question=_question(4)))
    at.run()
    assert any("When your teacher asks" in c.value for c in at.caption)


def test_the_stage_gets_the_rooms_window_encoded_once_with_each_students_serial() -> None:
    """Each student's stage gets the room's window as JSON bytes: the teacher's step, the views up to it and
    no further, and this student's own serial (the body is encoded once per room, version and step)."""
    store = room_store()
    code, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    first, second = _join(code, "Ada"), _join(code, "Grace")
    second.session_state["_room_serial"] = 41  # another student's stage, at another serial
    second.run()
    sent = []
    for at in (first, second):
        (stage,) = [e.proto for e in at.get("bidi_component") if e.proto.component_name == "mergescope_stage"]
        assert stage.WhichOneof("data") == "bytes"
        sent.append(json.loads(stage.bytes))
    assert [d["serial"] for d in sent] == [first.session_state["_room_serial"], 41]
    for data in sent:
        assert data["position"] == 3 and data["last"] == 3
        assert [v["step"] for v in data["views"]] == [0, 1, 2, 3]
    assert {k: v for k, v in sent[0].items() if k != "serial"} == {
        k: v for k, v in sent[1].items() if k != "serial"
    }
    store.publish(host, _moment(4, question=_question(5)))
    first.run()
    (stage,) = [e.proto for e in first.get("bidi_component") if e.proto.component_name == "mergescope_stage"]
    assert json.loads(stage.bytes)["position"] == 4
