"""The rooms of one server process, behind one lock: :class:`MemoryRooms` (pure: no Streamlit)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from ..stage.contract import StepView, TokenLabel, Window
from . import model
from .model import Asked, Lesson, Limits, Moment, Page, Pager, Question, Seen, Summary


@dataclass
class _Room:
    code: str
    host: str
    touched: float
    created: float = 0.0
    seen: float = 0.0  # the teacher's page last said it is there
    away: bool = False  # ... more than AWAY_AFTER seconds ago (the students were told)
    session: str = ""  # the browser session that opened it
    address: str = ""  # ... and its client address
    browsers: dict[str, str] = field(default_factory=dict)  # a browser's id -> its student's id
    version: int = 0
    closed_at: float | None = None
    reason: str = ""
    students: dict[str, str] = field(default_factory=dict)  # id -> name
    moment: Moment | None = None
    history: dict[int, StepView] = field(default_factory=dict)
    labels: dict[str, TokenLabel] = field(default_factory=dict)
    steps: dict[int, None] = field(default_factory=dict)  # steps shown, in order (a set that keeps it)
    asked: list[Asked] = field(default_factory=list)
    answers: list[dict[str, str]] = field(default_factory=list)  # per question: student -> choice
    pager: Pager | None = None  # the teacher's (in this process only)
    pages: dict[tuple[int, int], Page] = field(default_factory=dict)  # (step, start) -> the page made


class MemoryRooms(model.RoomStore[_Room]):
    """The rooms of one server process, behind one lock (Streamlit runs each session in its own thread).

    ``clock`` gives seconds (``time.monotonic``; tests pass their own); ``limits``: the host's settings'
    (:func:`~.model.limits_from`) unless given.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, limits: Limits | None = None) -> None:
        self._clock = clock
        self._limits = limits or model.limits_from()
        self._counts: dict[str, tuple[int, int]] = {}  # bucket -> (window, count in it)
        self._lock = self._guard = threading.Lock()
        self._changed = threading.Condition(self._lock)  # notified whenever a room's version changes
        self._rooms: dict[str, _Room] = {}
        self._hosts: dict[str, str] = {}  # host key -> code

    # ----- the storage (the lock is held) -----
    def _bump(self, room: _Room) -> None:
        """What every student sees of ``room`` changed: a new version, and the waiting students wake up."""
        room.version += 1
        self._changed.notify_all()

    def _end(self, room: _Room, at: float, reason: str) -> None:
        room.closed_at, room.reason = at, reason
        room.pager, room.pages = None, {}  # the teacher's run (and a large text's worker) is let go
        self._bump(room)

    def _sweep(self) -> list[tuple[str, str]]:
        now = self._clock()
        for code, room in list(self._rooms.items()):
            self._find(code)
            if room.closed_at is not None and now - room.closed_at > model.CLOSED_KEPT_SECONDS:
                del self._rooms[code]
                self._hosts.pop(room.host, None)
        return [(r.session, r.address) for r in self._rooms.values() if r.closed_at is None]

    def _find(self, code: str) -> _Room | None:
        room = self._rooms.get(model.normal_code(code))
        if room is None or room.closed_at is not None:
            return room
        now = self._clock()
        at, reason = self._ends(touched=room.touched, created=room.created, joined=bool(room.students))
        if now > at:
            self._end(room, at, reason)
        elif not room.away and now - room.seen > model.AWAY_AFTER:
            room.away = True  # the teacher's page went quiet: the students are told
            self._bump(room)
        return room

    def _count(self, bucket: str, add: int) -> int:
        window = int(self._clock() // model.COUNTED_SECONDS)
        if len(self._counts) > 10_000:  # (the past windows go)
            self._counts = {k: v for k, v in self._counts.items() if v[0] == window}
        then, count = self._counts.get(bucket, (window, 0))
        count = (count if then == window else 0) + add
        if add:
            self._counts[bucket] = (window, count)
        return count

    def _closed(self, room: _Room) -> bool:
        return room.closed_at is not None

    def _host_code(self, host: str) -> str | None:
        return self._hosts.get(host)

    def _create(self, host: str, *, session: str, address: str) -> str:
        code = model.new_code()
        while code in self._rooms:
            code = model.new_code()
        now = self._clock()
        self._rooms[code] = _Room(
            code=code, host=host, touched=now, created=now, seen=now, session=session, address=address
        )
        self._hosts[host] = code
        return code

    def _seat(self, code: str, student: str, name: str, browser: str) -> str | None:
        room = self._rooms[code]
        if browser and browser in room.browsers:
            return room.browsers[browser]
        if len(room.students) >= model.MAX_STUDENTS:
            return None
        room.students[student] = name
        if browser:
            room.browsers[browser] = student
        return student

    def _name(self, code: str, student: str) -> str | None:
        return self._rooms[code].students.get(student)

    def _lesson(self, code: str) -> Lesson:
        room = self._rooms[code]
        return room.steps, len(room.students), zip(room.asked, room.answers, strict=True)

    def _seen(self, code: str, room: _Room) -> Seen:
        asked = room.asked[-1] if room.asked else None
        answers = room.answers[-1] if asked else {}
        return room.version, room.reason, room.moment, len(room.students), asked, answers, room.away

    def _driven(self, host: str, *, action: bool = True) -> _Room:
        """The room ``host`` drives, its teacher there (and, for an ``action``, not idle)."""
        room = self._drive(host)[1]
        room.seen = self._clock()
        if action:
            room.touched = room.seen
        if room.away:
            room.away = False
            self._bump(room)
        return room

    def present(self, host: str) -> None:
        with self._lock:
            self._driven(host, action=False)

    # ----- the teacher -----
    def publish(self, host: str, moment: Moment, *, pager: Pager | None = None) -> None:
        with self._lock:
            room = self._driven(host)
            window = moment.window
            room.pager = pager
            if room.moment is not None and room.moment.run != moment.run:
                room.history, room.labels, room.pages = {}, {}, {}
                self._bump(room)
            for view in window.views:
                if view.step <= window.position:
                    room.history[view.step] = view
            while len(room.history) > model.MAX_HISTORY:
                del room.history[min(room.history, key=lambda k: abs(k - window.position))]
            room.labels.update(window.labels)
            room.steps.setdefault(window.position, None)
            before = room.moment
            room.moment = moment
            if room.asked and not room.asked[-1].revealed and window.position >= room.asked[-1].question.step:
                room.asked[-1] = replace(room.asked[-1], revealed=True)  # the stage shows the answer now
                self._bump(room)
            if before is None or before.window.position != window.position or before.lesson != moment.lesson:
                self._bump(room)

    def ask(self, host: str, question: Question | None = None) -> int:
        with self._lock:
            room = self._driven(host)
            pending = bool(room.asked) and not room.asked[-1].revealed
            question = model.asked_question(
                room.moment.question if room.moment else None, question, pending=pending
            )
            room.asked.append(Asked(number=len(room.asked) + 1, question=question, revealed=False))
            room.answers.append({})
            self._bump(room)
            return len(room.asked)

    def reveal(self, host: str) -> None:
        with self._lock:
            room = self._driven(host)
            if room.asked and not room.asked[-1].revealed:
                room.asked[-1] = replace(room.asked[-1], revealed=True)
                self._bump(room)

    def close(self, host: str) -> Summary:
        with self._lock:
            room = self._driven(host)
            self._end(room, self._clock(), "ended")
            return self._summary(room.code)

    # ----- students -----
    def answer(self, code: str, student: str, number: int, choice: str) -> bool:
        with self._lock:
            room = self._find(code)
            if room is None or room.closed_at is not None or student not in room.students:
                return False
            if not room.asked or room.asked[-1].number != number or room.asked[-1].revealed:
                return False
            if choice not in room.asked[-1].question.choices or student in room.answers[-1]:
                return False
            room.answers[-1][student] = choice  # (no new version: every student would redraw at each answer)
            return True

    # ----- reading -----
    def version(self, code: str) -> int | None:
        with self._lock:
            room = self._find(code)
            return None if room is None else room.version

    def wait(self, code: str, seen: int | None, *, timeout: float) -> int | None:
        end = time.monotonic() + max(0.0, min(timeout, model.MAX_WAIT))
        with self._changed:
            room = self._find(code)
            while room is not None and room.version == seen:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(left)
                room = self._find(code)
            return None if room is None else room.version

    def window(
        self, code: str, *, position: int, serial: int, starts: Mapping[int, int] | None = None
    ) -> Window | None:
        with self._lock:
            room = self._find(code)
            if room is None or room.moment is None:
                return None
            live, pager = room.moment, room.pager
            wanted = model.wanted_pages(starts or {}, room.history, top=live.window.position, at=position)
            missing = [key for key in wanted.items() if key not in room.pages]
        made = {}
        if pager is not None:
            for step, start in missing:  # built outside the lock: the other sessions go on meanwhile
                page = pager.page(step, start)
                if page is not None:
                    made[step, start] = page
        with self._lock:
            if made and room.moment is not None and room.moment.run == live.run:
                room.pages.update(made)
                while len(room.pages) > model.MAX_PAGES:
                    del room.pages[next(iter(room.pages))]
            pages = {k: room.pages[k, s] for k, s in wanted.items() if (k, s) in room.pages}
            window = room.moment.window if room.moment else live.window
            return model.student_window(
                window, room.history, room.labels, at=position, serial=serial, pages=pages
            )

    def names(self, code: str) -> tuple[str, ...]:
        with self._lock:
            room = self._find(code)
            return () if room is None else tuple(room.students.values())

    def _pager(self, code: str) -> Pager | None:
        """The teacher's pager this store holds for room ``code`` (tests: it is let go at the end)."""
        with self._lock:
            room = self._find(code)
            return None if room is None else room.pager
