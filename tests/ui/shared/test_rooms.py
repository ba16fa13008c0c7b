"""The live classroom's rooms (issue 26): join, answer once, expiry, bounds, names, the teacher's reload."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from mergescope_ui.shared import rooms
from mergescope_ui.shared.rooms import MemoryRooms, records
from mergescope_ui.shared.rooms.model import (
    AWAY_AFTER,
    BLOCK,
    CLOSED_KEPT_SECONDS,
    CODE_ALPHABET,
    CODE_LENGTH,
    IDLE_SECONDS,
    MAX_NAME,
    MAX_ROOMS,
    MAX_STUDENTS,
    Limits,
    RoomError,
    Verdict,
    clean_name,
    limits_from,
    name_html,
    wanted_pages,
)
from mergescope_ui.shared.rooms.redis_store import RedisRooms
from mergescope_ui.shared.stage.contract import Place, Places, Span, TokenLabel
from tests import redis_server
from tests.ui.shared.room_fixtures import moment as _moment
from tests.ui.shared.room_fixtures import question as _question


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """One ``redis-server`` for this file's Redis cases (skipped without one; in CI, failed)."""
    redis_server.skip_or_fail()
    with redis_server.redis_server() as url:
        yield url


@pytest.fixture(params=["memory", "redis"])
def store(request: pytest.FixtureRequest, clock: Clock) -> Iterator[MemoryRooms]:
    """Every room rule, tested on both stores: this process's own, and the one several servers share
    (a store of its own for each test: its keys under a fresh prefix)."""
    yield from _store(request, clock, LIMITS)


LIMITS = limits_from({})  # the host's defaults
SMALL = Limits(rooms_per_address=2, empty_seconds=300, joins_per_minute=5, code_guesses_per_minute=2)


@pytest.fixture(params=["memory", "redis"])
def small(request: pytest.FixtureRequest, clock: Clock) -> Iterator[MemoryRooms]:
    """Both stores with :data:`SMALL` limits, as a host may set them."""
    yield from _store(request, clock, SMALL)


def _store(request: pytest.FixtureRequest, clock: Clock, limits: Limits) -> Iterator[MemoryRooms]:
    if request.param == "memory":
        yield MemoryRooms(clock=clock, limits=limits)
        return
    shared = RedisRooms.from_url(
        request.getfixturevalue("redis_url"), clock=clock, prefix=secrets.token_hex(6), limits=limits
    )
    yield shared  # type: ignore[misc]  (the same protocol: RoomStore)
    shared.close_connections()


def test_codes_are_short_unguessable_and_distinct(store: MemoryRooms) -> None:
    codes = [store.open()[0] for _ in range(50)]
    assert len(set(codes)) == 50
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    # Drawn with secrets, not a counter or a clock: consecutive codes share no common prefix pattern.
    assert len({c[:3] for c in codes}) > 40


def test_a_student_joins_by_code_typed_loosely(store: MemoryRooms) -> None:
    code, _ = store.open()
    loose = f" {code[:3].lower()}-{code[3:]} "
    student = store.join(loose, "Ada")
    assert store.names(code) == ("Ada",)
    state = store.state(code, student=student)
    assert state is not None and state.students == 1 and not state.closed


def test_a_member_is_found_in_their_open_room_only(store: MemoryRooms) -> None:
    code, host = store.open()
    other, _ = store.open()
    student = store.join(code, "<b>Ada</b>")
    assert store.member(code.lower(), student) == "<b>Ada</b>"  # the name as kept (escaped when shown)
    assert store.member(other, student) is None  # another room's student
    assert store.member(code, "made-up") is None
    store.close(host)
    assert store.member(code, student) is None  # an ended room has no place to go back to


def test_joining_a_wrong_code_says_so(store: MemoryRooms) -> None:
    store.open()
    with pytest.raises(RoomError, match="No room has this code"):
        store.join("ZZZZ22", "Ada")
    with pytest.raises(RoomError, match="No room has this code"):
        store.join("", "Ada")


def test_only_the_host_key_drives_the_room(store: MemoryRooms) -> None:
    code, host = store.open()
    student = store.join(code, "Eve")
    for key in (code, student, "", host[:-1]):  # the code, a student's id, nothing, a key cut short
        with pytest.raises(RoomError):
            store.publish(key, _moment(2))
        with pytest.raises(RoomError):
            store.ask(key)
        with pytest.raises(RoomError):
            store.close(key)
        assert store.hosted(key) is None
    store.publish(host, _moment(2))
    assert store.state(code).position == 2


def test_a_teacher_reloading_gets_the_room_back(store: MemoryRooms) -> None:
    code, host = store.open()
    store.publish(host, _moment(5, question=_question(6)))
    # A fresh session knows only the host key kept in the tab: it finds the room, at the step it was.
    assert store.hosted(host) == code
    assert store.state(code).position == 5
    store.close(host)
    assert store.hosted(host) is None  # an ended room is not given back


def test_each_student_answers_each_question_once(store: MemoryRooms) -> None:
    code, host = store.open()
    a, b = store.join(code, "A"), store.join(code, "B")
    store.publish(host, _moment(3, question=_question(4)))
    assert not store.answer(code, a, 1, "o + w")  # nothing asked yet
    number = store.ask(host)
    assert store.answer(code, a, number, "o + w")
    assert not store.answer(code, a, number, "l + o")  # a second answer is refused...
    assert store.state(code, student=a).mine == "o + w"  # ...and the first one stands
    assert not store.answer(code, b, number, "not a choice")
    assert not store.answer(code, "someone", number, "o + w")  # not a student of this room
    assert store.answer(code, b, number, "l + o")
    tally = store.state(code).tally
    assert (tally.answered, tally.right, tally.tied, dict(tally.counts)) == (
        2,
        1,
        1,
        {"e + s": 0, "l + o": 1, "o + w": 1},
    )
    store.reveal(host)
    assert not store.answer(code, store.join(code, "Late"), number, "o + w")  # revealed: closed to answers
    # The next question takes answers afresh.
    assert store.ask(host) == 2
    assert store.answer(code, a, 2, "e + s")


def test_a_second_question_waits_for_the_reveal(store: MemoryRooms) -> None:
    _, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    store.ask(host)
    with pytest.raises(RoomError, match="reveal it"):
        store.ask(host)


def test_stepping_past_the_asked_merge_reveals_it(store: MemoryRooms) -> None:
    code, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    store.ask(host)
    store.publish(host, _moment(4, question=_question(5)))
    assert store.state(code).asked.revealed


def test_a_room_expires_after_its_idle_time_and_then_is_forgotten(store: MemoryRooms, clock: Clock) -> None:
    code, host = store.open()
    student = store.join(code, "Ada")
    clock.now += IDLE_SECONDS - 1
    store.publish(host, _moment(1))  # a teacher action keeps it alive
    clock.now += IDLE_SECONDS - 1
    assert not store.state(code).closed
    for _ in range(5):  # students polling do not keep it alive
        store.version(code)
        store.state(code, student=student)
    clock.now += 2
    state = store.state(code)
    assert state.closed and state.reason == "expired"
    with pytest.raises(RoomError):
        store.publish(host, _moment(2))
    with pytest.raises(RoomError, match="ended"):
        store.join(code, "Late")
    clock.now += CLOSED_KEPT_SECONDS + 1
    store.open()  # sweeps
    assert store.state(code) is None and store.version(code) is None


def test_an_ended_room_says_so_and_keeps_its_summary(store: MemoryRooms) -> None:
    code, host = store.open()
    a = store.join(code, "A")
    for k in (0, 1, 2, 1, 3):
        store.publish(host, _moment(k, question=_question(k + 1)))
    store.ask(host)
    store.answer(code, a, 1, "l + o")
    summary = store.close(host)
    state = store.state(code)
    assert state.closed and state.reason == "ended"
    assert summary.steps == (0, 1, 2, 3)
    assert summary.students == 1
    (row,) = summary.rows()
    assert row == {
        "question": 1,
        "asked": "which pair merges next",
        "merge": 4,
        "blocked": "",
        "answer": "o + w",
        "answered": 1,
        "right": 0,
        "tied": 1,
        "wrong": 0,
        "share right": 0.0,
    }


def test_rooms_and_students_are_bounded(store: MemoryRooms) -> None:
    hosts = [store.open()[1] for _ in range(MAX_ROOMS)]
    with pytest.raises(RoomError, match=f"{MAX_ROOMS} open rooms"):
        store.open()
    store.close(hosts[0])  # an ended room frees its place
    code, _ = store.open()
    for n in range(MAX_STUDENTS):
        store.join(code, f"s{n}")
    with pytest.raises(RoomError, match="full"):
        store.join(code, "one more")
    assert len(store.names(code)) == MAX_STUDENTS


def test_names_are_cleaned_bounded_and_escaped() -> None:
    hostile = '<img src=x onerror="alert(1)">[link](https://evil.example)\u202eabc'
    kept = clean_name(hostile)
    assert len(kept) <= MAX_NAME and "\u202e" not in kept
    shown = name_html(kept)
    assert "<" not in shown and '"' not in shown
    assert clean_name("x" * 1000) == "x" * MAX_NAME
    assert clean_name("a\x00b\nc\td") == "a b c d"
    for empty in ("", "   ", "\u200b\u200b", "\n\t"):
        with pytest.raises(ValueError, match="display name"):
            clean_name(empty)


def test_a_student_window_never_runs_past_the_teachers_step(store: MemoryRooms) -> None:
    code, host = store.open()
    store.publish(host, _moment(10))
    window = store.window(code, position=99, serial=7)
    assert window is not None
    assert (window.position, window.hi, window.serial, window.quiz) == (10, 10, 7, False)
    assert max(v.step for v in window.views) == 10
    back = store.window(code, position=7, serial=8)
    assert back.position == 7 and back.lo <= 7 <= back.hi <= 10


def test_many_threads_answer_at_once(store: MemoryRooms) -> None:
    code, host = store.open()
    students = [store.join(code, f"s{n}") for n in range(MAX_STUDENTS)]
    store.publish(host, _moment(3, question=_question(4)))
    number = store.ask(host)
    accepted: list[bool] = []

    def answer(student: str) -> None:
        for _ in range(3):
            accepted.append(store.answer(code, student, number, "o + w"))

    threads = [threading.Thread(target=answer, args=(s,)) for s in students]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert accepted.count(True) == MAX_STUDENTS
    assert store.state(code).tally.answered == MAX_STUDENTS


def test_the_process_wide_store_is_one() -> None:
    assert rooms.room_store() is rooms.room_store()


def test_a_new_run_drops_the_old_runs_views(store: MemoryRooms) -> None:
    code, host = store.open()
    store.publish(host, replace(_moment(8), run="text A"))  # views of steps 4..8 of run A
    store.publish(host, replace(_moment(2), run="text B"))  # views of steps 0..2 of run B
    late = _moment(6)
    only_six = replace(late, window=replace(late.window, views=late.window.views[-1:]), run="text B")
    store.publish(host, only_six)
    window = store.window(code, position=6, serial=1)
    assert [v.step for v in window.views] == [2, 6]  # run A's steps 4 and 5 are gone


def _what_if(step: int) -> rooms.Question:
    """The what-if about merge ``step`` of :func:`_question`: o + w blocked, l + o merges instead."""
    verdicts = {
        "e + s": Verdict("wrong", "With o + w blocked: Not this time"),
        "l + o": Verdict("right", "With o + w blocked: Right!"),
        "o + w": Verdict("wrong", "Not this time: o + w is the pair blocked"),
    }
    labels = tuple(verdicts)
    return rooms.Question(
        step=step,
        choices=labels,
        shown=labels,
        answer="l + o",
        verdicts=verdicts,
        kind=BLOCK,
        blocked="o + w",
    )


def test_the_what_if_is_asked_answered_once_revealed_and_summed_up(store: MemoryRooms) -> None:
    code, host = store.open()
    a, b, c = (store.join(code, n) for n in "ABC")
    store.publish(host, _moment(3, question=_question(4)))
    first = store.ask(host)
    store.answer(code, a, first, "o + w")
    store.reveal(host)
    number = store.ask(host, _what_if(4))
    assert number == 2
    state = store.state(code, student=a)
    assert state.asked.question.kind == BLOCK and state.mine is None  # a fresh question, no answer yet
    assert state.asked.question.prompt == "if o + w were blocked, which pair would make merge 4?"
    assert store.answer(code, a, number, "l + o")
    assert not store.answer(code, a, number, "e + s")  # once
    assert store.answer(code, b, number, "o + w")  # the blocked pair: a choice, and wrong
    assert store.answer(code, c, number, "e + s")
    tally = store.state(code).tally
    assert (tally.answered, tally.right, dict(tally.counts)) == (3, 1, {"e + s": 1, "l + o": 1, "o + w": 1})
    store.reveal(host)
    mine = store.state(code, student=b)
    assert mine.asked.revealed and mine.asked.question.verdicts[mine.mine].outcome == "wrong"
    rows = store.close(host).rows()
    assert [(r["asked"], r["blocked"], r["answer"], r["right"], r["wrong"]) for r in rows] == [
        ("which pair merges next", "", "o + w", 1, 0),
        ("what if a pair is blocked", "o + w", "l + o", 1, 2),
    ]


def test_a_what_if_about_another_merge_is_refused(store: MemoryRooms) -> None:
    code, host = store.open()
    store.publish(host, _moment(3, question=_question(4)))
    with pytest.raises(RoomError, match="ask again"):
        store.ask(host, _what_if(6))  # the teacher has moved on: it is about another merge
    with pytest.raises(RoomError, match="no right answer"):
        store.ask(host, replace(_what_if(4), answer="x + y"))
    assert store.state(code).asked is None
    store.publish(host, _moment(9))  # the end of training: no next merge
    with pytest.raises(RoomError, match="no next merge"):
        store.ask(host, _what_if(10))


class CountingPager:
    """A teacher's pager for the tests: step ``step`` from place ``start``, counted."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def page(self, step: int, start: int) -> rooms.Page | None:
        self.calls.append((step, start))
        view = _moment(step).window.views[-1]
        token = (Span(ids=(1000 + start,), mark="new", was=(1, 2)),)
        place = Place(
            number=start + 1, lead=(), token=token, tail=(), link=None, cut_before=True, cut_after=True
        )
        label = TokenLabel(text=f"t{start}", classes="", title="", breaks=0)
        return replace(view, places=Places(total=20, start=start, items=(place,))), {str(1000 + start): label}


def _with_places(moment: rooms.Moment, total: int) -> rooms.Moment:
    """``moment`` whose views each have ``total`` places (the first page: none of them drawn)."""
    views = tuple(replace(v, places=Places(total=total, start=0, items=())) for v in moment.window.views)
    return replace(moment, window=replace(moment.window, views=views))


def test_students_page_through_places_made_once_for_the_room(store: MemoryRooms) -> None:
    code, host = store.open()
    pager = CountingPager()
    store.publish(host, _with_places(_moment(5), 20), pager=pager)
    for serial in (1, 2, 3):  # three students (or one redrawing) ask for places 7.. of step 5
        window = store.window(code, position=5, serial=serial, starts={5: 6})
        shown = {v.step: v for v in window.views}[5]
        assert shown.places.start == 6 and shown.places.items[0].number == 7
        assert window.labels["1006"].text == "t6"  # the page's tokens come with their labels
    assert pager.calls == [(5, 6)]  # built once
    # Not past the teacher's step, not out of the step's places, not for a step outside the window.
    window = store.window(code, position=5, serial=4, starts={6: 6, 5: 20, 4: -1})
    assert {v.step: v.places.start for v in window.views}[5] == 0
    assert pager.calls == [(5, 6)]
    # Looking back: a page of an earlier step.
    window = store.window(code, position=3, serial=5, starts={3: 12})
    assert {v.step: v.places.start for v in window.views}[3] == 12 and pager.calls[-1] == (3, 12)
    # A new run forgets the pages made for the old one.
    store.publish(host, replace(_with_places(_moment(5), 20), run="another"), pager=pager)
    store.window(code, position=5, serial=6, starts={5: 6})
    assert pager.calls[-1] == (5, 6) and len(pager.calls) == 3


def test_an_ended_or_expired_room_lets_the_teachers_run_go(store: MemoryRooms, clock: Clock) -> None:
    pager = CountingPager()
    for end in ("close", "expire"):
        code, host = store.open()
        store.join(code, "Ada")  # (a room nobody joined ends sooner)
        store.publish(host, _with_places(_moment(5), 20), pager=pager)
        if end == "close":
            store.close(host)
        else:
            clock.now += IDLE_SECONDS + 1
            assert store.state(code).reason == "expired"
        assert store._pager(code) is None  # (a large text's worker process ends with its run)


def test_without_a_pager_students_see_the_first_places(store: MemoryRooms) -> None:
    code, host = store.open()
    store.publish(host, _with_places(_moment(5), 20))
    window = store.window(code, position=5, serial=1, starts={5: 6})
    assert {v.step: v.places.start for v in window.views}[5] == 0


def test_a_waiting_student_wakes_when_the_teacher_acts(store: MemoryRooms) -> None:
    code, host = store.open()
    store.publish(host, _moment(1))
    seen = store.version(code)
    assert store.wait(code, seen, timeout=0.05) == seen  # nothing happened: the time runs out
    assert store.wait(code, seen - 1, timeout=5) == seen  # already changed: at once
    assert store.wait("ZZZZ22", 0, timeout=5) is None
    woke: list[tuple[int | None, float]] = []

    def wait() -> None:
        start = time.monotonic()
        woke.append((store.wait(code, seen, timeout=5), time.monotonic() - start))

    waiting = [threading.Thread(target=wait) for _ in range(3)]
    for t in waiting:
        t.start()
    time.sleep(0.2)
    store.publish(host, _moment(2))
    for t in waiting:
        t.join()
    assert [v for v, _ in woke] == [seen + 1] * 3
    assert all(0.1 < s < 4 for _, s in woke), woke  # woken by the step, long before the time ran out


def test_a_whole_lesson_in_one_room() -> None:
    """The rooms' example: open, join, publish, ask, answer once, reveal, expire (was a doctest)."""
    t = [0.0]
    store = MemoryRooms(clock=lambda: t[0])
    code, host = store.open()
    assert len(code) == 6 and store.hosted(host) == code
    ada = store.join(code, "  Ada <b>L</b> ")
    assert store.names(code) == ("Ada <b>L</b>",)
    store.publish(host, _moment(3, question=_question(4)))
    assert store.ask(host) == 1
    assert (store.answer(code, ada, 1, "o + w"), store.answer(code, ada, 1, "l + o")) == (True, False)
    store.reveal(host)
    state = store.state(code, student=ada)
    assert state.asked is not None and state.tally is not None
    assert (state.position, state.asked.revealed, state.mine, state.tally.right) == (3, True, "o + w", 1)
    t[0] += rooms.IDLE_SECONDS + 1
    assert (store.state(code).closed, store.state(code).reason) == (True, "expired")


def test_a_students_window_wants_only_pages_of_its_steps() -> None:
    """Pages wanted: a step of the window whose kept view starts elsewhere, at a place it has."""
    view = replace(_moment(3).window.views[-1], places=Places(total=20, start=0, items=()))
    assert wanted_pages({3: 6, 2: 6, 99: 6}, {3: view}, top=3, at=3) == {3: 6}
    assert wanted_pages({3: 20}, {3: view}, top=3, at=3) == {}


def test_a_moment_goes_through_the_shared_stores_codec() -> None:
    moment = _moment(3, question=_question(4))
    assert records.decode(records.encode(moment)) == moment


def test_a_room_nobody_joined_ends_soon(small: MemoryRooms, clock: Clock) -> None:
    empty, empty_host = small.open()
    joined, _ = small.open()
    small.join(joined, "Ada")
    small.publish(empty_host, _moment(2))  # the teacher stepping does not keep an empty room
    clock.now += SMALL.empty_seconds + 1
    state = small.state(empty)
    assert state.closed and state.reason == "empty"
    assert small.hosted(empty_host) is None
    assert not small.state(joined).closed  # a room someone joined lives by the idle rule


def test_a_session_holds_one_open_room_and_an_address_a_few(small: MemoryRooms) -> None:
    _, first = small.open(session="tab-1", address="10.0.0.9")
    with pytest.raises(RoomError, match="This page holds an open room already"):
        small.open(session="tab-1", address="10.0.0.9")
    small.close(first)
    small.open(session="tab-1", address="10.0.0.9")  # its room ended: another
    small.open(session="tab-2", address="10.0.0.9")
    with pytest.raises(RoomError, match="Your network holds 2 open rooms") as refused:
        small.open(session="tab-3", address="10.0.0.9")
    assert "\n" not in str(refused.value)
    small.open(session="tab-3", address="10.0.0.7")  # another address
    small.open()  # (no session, no address: the tests' and the server's own)


def test_one_browser_is_one_seat(store: MemoryRooms) -> None:
    code, _ = store.open()
    ada = store.join(code, "Ada", browser="b-1")
    assert store.join(code, "Ada again", browser="b-1") == ada  # a second tab: the same student
    assert store.names(code) == ("Ada",) and store.state(code).students == 1
    ben = store.join(code, "Ben", browser="b-2")
    assert ben != ada and store.names(code) == ("Ada", "Ben")
    other, _ = store.open()
    assert store.join(other, "Ada", browser="b-1") not in (ada, ben)  # a seat per room


def test_joins_and_wrong_codes_are_counted_per_address(small: MemoryRooms, clock: Clock) -> None:
    code, _ = small.open()
    for _ in range(SMALL.code_guesses_per_minute):
        with pytest.raises(RoomError, match="No room has this code"):
            small.join("ZZZZ22", "Eve", address="6.6.6.6")
    with pytest.raises(RoomError, match="Too many wrong room codes") as refused:
        small.join(code, "Eve", address="6.6.6.6")  # even the right code: guessing has stopped
    assert "\n" not in str(refused.value)
    small.join(code, "Ada", address="10.0.0.9")  # another address joins
    clock.now += 60
    small.join(code, "Eve", address="6.6.6.6")  # the next minute
    clock.now += 60
    for n in range(SMALL.joins_per_minute):
        small.join(code, f"s{n}", address="10.0.0.5")
    with pytest.raises(RoomError, match="Too many joins from your network"):
        small.join(code, "one more", address="10.0.0.5")
    clock.now += 60
    small.join(code, "one more", address="10.0.0.5")


def test_the_students_read_that_the_teacher_left(store: MemoryRooms, clock: Clock) -> None:
    code, host = store.open()
    store.join(code, "Ada")
    store.publish(host, _moment(2))
    clock.now += AWAY_AFTER - 1
    store.present(host)  # the teacher's page says it is there every few seconds
    clock.now += AWAY_AFTER - 1
    before = store.state(code)
    assert not before.away
    clock.now += 2
    left = store.state(code)
    assert left.away and left.version > before.version  # every student redraws
    assert store.wait(code, before.version, timeout=0.1) == left.version
    store.present(host)  # back (a reload, the network again)
    back = store.state(code)
    assert not back.away and back.version > left.version
    clock.now += AWAY_AFTER + 1
    assert store.state(code).away
    store.publish(host, _moment(3))  # a step says it too
    assert not store.state(code).away
    store.close(host)
    assert not store.state(code).away  # ended: the room's own word
