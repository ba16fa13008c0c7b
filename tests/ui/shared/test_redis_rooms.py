"""The shared room store across servers: two stores over one Redis act as two Streamlit servers.

The room rules themselves run against both stores in test_rooms.py; here, what
only a shared store must do: a room opened on one server is joined, answered and
followed on another (answers once whichever server takes them, wake-ups from the
other server's teacher, pages of places made by the teacher's server), and the
students' page runs on a server that does not hold the teacher's room.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mergescope_ui.shared import rooms
from mergescope_ui.shared.rooms import store_from
from mergescope_ui.shared.rooms.redis_store import RedisRooms
from tests import redis_server
from tests.ui.shared.room_fixtures import moment as _moment
from tests.ui.shared.room_fixtures import question as _question
from tests.ui.shared.test_rooms import CountingPager, _with_places

PAGE = str(Path(__file__).resolve().parents[3] / "pages" / "views" / "classroom.py")


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    redis_server.skip_or_fail()
    with redis_server.redis_server() as url:
        yield url


@pytest.fixture
def servers(redis_url: str) -> Iterator[tuple[RedisRooms, RedisRooms]]:
    """Two stores over one Redis, as two servers behind a load balancer see it (the same keys)."""
    prefix = secrets.token_hex(6)
    pair = (RedisRooms.from_url(redis_url, prefix=prefix), RedisRooms.from_url(redis_url, prefix=prefix))
    yield pair
    for store in pair:
        store.close_connections()


def test_the_setting_names_the_store(redis_url: str) -> None:
    store = store_from(redis_url)
    assert isinstance(store, RedisRooms)
    store.close_connections()
    assert isinstance(store_from(""), rooms.MemoryRooms)
    with pytest.raises(ValueError, match="redis://"):
        store_from("mysql://localhost")


def test_a_room_opened_on_one_server_is_joined_and_answered_on_the_other(servers) -> None:
    teacher, other = servers
    code, host = teacher.open()
    teacher.publish(host, _moment(3, question=_question(4)))
    ada = other.join(code, "Ada")
    ben = teacher.join(code, "Ben")
    assert teacher.names(code) == other.names(code) == ("Ada", "Ben")
    assert other.member(code, ada) == "Ada" and teacher.member(code, ada) == "Ada"
    number = teacher.ask(host)
    assert other.state(code, student=ada).asked.number == number
    # One answer per student, whichever server takes it (the second, on the other server, is refused).
    assert other.answer(code, ada, number, "o + w")
    assert not teacher.answer(code, ada, number, "l + o")
    assert teacher.answer(code, ben, number, "l + o")
    tally = teacher.state(code).tally
    assert (tally.answered, tally.right, tally.tied) == (2, 1, 1)
    assert other.state(code, student=ada).mine == "o + w"
    teacher.reveal(host)
    assert not other.answer(code, ben, number, "o + w")  # revealed: closed to answers
    assert other.state(code).asked.revealed
    assert other.hosted(host) == code  # a teacher's reload that lands on the other server
    teacher.close(host)
    assert other.state(code).reason == "ended" and other.hosted(host) is None


def test_a_student_waiting_on_one_server_wakes_when_the_teacher_acts_on_the_other(servers) -> None:
    teacher, other = servers
    code, host = teacher.open()
    teacher.publish(host, _moment(1))
    seen = other.version(code)
    assert other.wait(code, seen, timeout=0.05) == seen  # nothing happened: the time runs out
    woke: list[tuple[int | None, float]] = []

    def wait() -> None:
        start = time.monotonic()
        woke.append((other.wait(code, seen, timeout=5), time.monotonic() - start))

    waiting = [threading.Thread(target=wait) for _ in range(3)]
    for t in waiting:
        t.start()
    time.sleep(0.3)
    teacher.publish(host, _moment(2))
    for t in waiting:
        t.join()
    assert [v for v, _ in woke] == [seen + 1] * 3
    assert all(0.2 < s < 3 for _, s in woke), woke  # woken by the step, long before the time ran out


def test_pages_of_places_are_made_by_the_teachers_server(servers) -> None:
    teacher, other = servers
    code, host = teacher.open()
    pager = CountingPager()
    teacher.publish(host, _with_places(_moment(5), 20), pager=pager)
    for serial in (1, 2):  # a student on the other server asks for places 7.. of step 5, twice
        window = other.window(code, position=5, serial=serial, starts={5: 6})
        shown = {v.step: v for v in window.views}[5]
        assert shown.places.start == 6 and shown.places.items[0].number == 7
        assert window.labels["1006"].text == "t6"
    assert pager.calls == [(5, 6)]  # made once, by the teacher's server, for the whole room
    teacher.close(host)
    assert teacher._pager(code) is None


def test_the_students_page_follows_a_room_another_server_drives(redis_url: str, monkeypatch) -> None:
    """The room page (AppTest) on a server whose store is not the teacher's, sharing one Redis."""
    prefix = secrets.token_hex(6)
    teacher = RedisRooms.from_url(redis_url, prefix=prefix)
    students = RedisRooms.from_url(redis_url, prefix=prefix)
    monkeypatch.setattr(rooms, "_STORE", students)  # this server's room_store()
    try:
        code, host = teacher.open()
        teacher.publish(host, _moment(3, question=_question(4)))
        at = AppTest.from_file(PAGE, default_timeout=60)
        at.query_params["code"] = code
        at.run()
        at.text_input(key="room_name").set_value("Ada <b>")
        at.button[0].click().run()
        assert not at.exception
        line = next(h.value for h in at.html if "ms-room-line" in h.value)
        assert "Teacher at step 3" in line and "Ada &lt;b&gt;" in line
        assert teacher.names(code) == ("Ada <b>",)
        number = teacher.ask(host)
        at.run()
        at.button(key=f"room_answer_{number}_2").click().run()
        assert teacher.state(code).tally.right == 1
        teacher.reveal(host)
        teacher.publish(host, _moment(4, question=_question(5)))
        at.run()
        line = next(h.value for h in at.html if "ms-room-line" in h.value)
        assert "Teacher at step 4" in line
        teacher.close(host)
        at.run()
        assert any("This room has closed" in w.value for w in at.warning)
    finally:
        teacher.close_connections()
        students.close_connections()
