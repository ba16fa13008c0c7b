"""The rooms of one server process, behind one lock: :class:`MemoryRooms` (pure: no Streamlit)."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from ..stage.contract import StepView, TokenLabel, Window
from .model import (
    CLOSED_KEPT_SECONDS,
    IDLE_SECONDS,
    MAX_HISTORY,
    MAX_PAGES,
    MAX_ROOMS,
    MAX_STUDENTS,
    MAX_WAIT,
    Asked,
    Moment,
    Page,
    Pager,
    Question,
    RoomError,
    RoomState,
    Summary,
    Tally,
    asked_question,
    clean_name,
    new_code,
    normal_code,
    question_summary,
    student_window,
    wanted_pages,
)


@dataclass
class _Room:
    code: str
    host: str
    touched: float
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


class MemoryRooms:
    """The rooms of one server process, behind one lock (Streamlit runs each session in its own thread).

    ``clock`` gives seconds (``time.monotonic``; tests pass their own).
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # notified whenever a room's version changes
        self._rooms: dict[str, _Room] = {}
        self._hosts: dict[str, str] = {}  # host key -> code

    # ----- housekeeping -----
    def _bump(self, room: _Room) -> None:
        """What every student sees of ``room`` changed (the lock is held): a new version, and the students
        waiting for one wake up."""
        room.version += 1
        self._changed.notify_all()

    def _expire(self, room: _Room, now: float) -> None:
        if room.closed_at is None and now - room.touched > IDLE_SECONDS:
            room.closed_at, room.reason = room.touched + IDLE_SECONDS, "expired"
            room.pager, room.pages = None, {}  # the teacher's run (and a large text's worker) is let go
            self._bump(room)

    def _sweep(self, now: float) -> None:
        for code in list(self._rooms):
            room = self._rooms[code]
            self._expire(room, now)
            if room.closed_at is not None and now - room.closed_at > CLOSED_KEPT_SECONDS:
                del self._rooms[code]
                self._hosts.pop(room.host, None)

    def _room(self, code: str) -> _Room | None:
        room = self._rooms.get(normal_code(code))
        if room is not None:
            self._expire(room, self._clock())
        return room

    def _driven(self, host: str) -> _Room:
        code = self._hosts.get(str(host))
        room = self._room(code) if code else None
        if room is None:
            raise RoomError("This room is gone (ended, or idle too long): open a new one.")
        if room.closed_at is not None:
            raise RoomError("This room has ended: open a new one.")
        room.touched = self._clock()
        return room

    # ----- the teacher -----
    def open(self) -> tuple[str, str]:
        with self._lock:
            now = self._clock()
            self._sweep(now)
            if sum(r.closed_at is None for r in self._rooms.values()) >= MAX_ROOMS:
                raise RoomError(
                    f"This server holds {MAX_ROOMS} open rooms, the most it allows: end a room you no longer "
                    f"use, or wait for idle ones to expire ({IDLE_SECONDS // 60} minutes)."
                )
            code = new_code()
            while code in self._rooms:
                code = new_code()
            host = secrets.token_urlsafe(24)
            self._rooms[code] = _Room(code=code, host=host, touched=now)
            self._hosts[host] = code
            return code, host

    def hosted(self, host: str) -> str | None:
        with self._lock:
            code = self._hosts.get(str(host))
            room = self._room(code) if code else None
            return room.code if room is not None and room.closed_at is None else None

    def publish(self, host: str, moment: Moment, *, pager: Pager | None = None) -> None:
        with self._lock:
            room = self._driven(host)
            window = moment.window
            room.pager = pager
            if room.moment is not None and room.moment.run != moment.run:
                room.history.clear()
                room.labels.clear()
                room.pages.clear()
                self._bump(room)
            for view in window.views:
                if view.step <= window.position:
                    room.history[view.step] = view
            while len(room.history) > MAX_HISTORY:
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
            question = asked_question(room.moment.question if room.moment else None, question)
            if room.asked and not room.asked[-1].revealed:
                raise RoomError("A question is open: reveal it before asking the next.")
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
            room.closed_at, room.reason = self._clock(), "ended"
            room.pager, room.pages = None, {}  # (the teacher's run is let go)
            self._bump(room)
            return self._summary(room)

    # ----- students -----
    def join(self, code: str, name: str) -> str:
        shown = clean_name(name)
        with self._lock:
            self._sweep(self._clock())
            room = self._room(code)
            if room is None:
                raise RoomError("No room has this code: check it with your teacher (6 letters and digits).")
            if room.closed_at is not None:
                raise RoomError("This room has ended: ask your teacher for the new code.")
            if len(room.students) >= MAX_STUDENTS:
                raise RoomError(f"This room is full ({MAX_STUDENTS} students): ask your teacher for another.")
            student = secrets.token_urlsafe(12)
            room.students[student] = shown  # (no new version: students see nothing of it)
            return student

    def member(self, code: str, student: str) -> str | None:
        with self._lock:
            room = self._room(code)
            if room is None or room.closed_at is not None:
                return None
            return room.students.get(str(student))

    def answer(self, code: str, student: str, number: int, choice: str) -> bool:
        with self._lock:
            room = self._room(code)
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
            room = self._room(code)
            return None if room is None else room.version

    def wait(self, code: str, seen: int | None, *, timeout: float) -> int | None:
        end = time.monotonic() + max(0.0, min(timeout, MAX_WAIT))
        with self._changed:
            room = self._room(code)
            while room is not None and room.version == seen:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(left)
                room = self._room(code)
            return None if room is None else room.version

    def state(self, code: str, *, student: str | None = None) -> RoomState | None:
        with self._lock:
            room = self._room(code)
            if room is None:
                return None
            asked = room.asked[-1] if room.asked else None
            tally = self._tally(asked, room.answers[-1]) if asked else None
            window = room.moment.window if room.moment else None
            return RoomState(
                code=room.code,
                version=room.version,
                closed=room.closed_at is not None,
                reason=room.reason,
                position=window.position if window else 0,
                finished=bool(window and window.finished and window.position >= window.last),
                students=len(room.students),
                asked=asked,
                tally=tally,
                mine=room.answers[-1].get(student or "") if asked else None,
                lesson=room.moment.lesson if room.moment else "",
                askable=bool(room.moment and room.moment.question),
            )

    def window(
        self, code: str, *, position: int, serial: int, starts: Mapping[int, int] | None = None
    ) -> Window | None:
        with self._lock:
            room = self._room(code)
            if room is None or room.moment is None:
                return None
            live, pager = room.moment, room.pager
            wanted = wanted_pages(starts or {}, room.history, top=live.window.position, at=position)
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
                while len(room.pages) > MAX_PAGES:
                    del room.pages[next(iter(room.pages))]
            pages = {k: room.pages[k, s] for k, s in wanted.items() if (k, s) in room.pages}
            window = room.moment.window if room.moment else live.window
            return student_window(window, room.history, room.labels, at=position, serial=serial, pages=pages)

    def summary(self, code: str) -> Summary | None:
        with self._lock:
            room = self._room(code)
            return None if room is None else self._summary(room)

    def names(self, code: str) -> tuple[str, ...]:
        with self._lock:
            room = self._room(code)
            return () if room is None else tuple(room.students.values())

    def _pager(self, code: str) -> Pager | None:
        """The teacher's pager this store holds for room ``code`` (tests: it is let go at the end)."""
        with self._lock:
            room = self._room(code)
            return None if room is None else room.pager

    @staticmethod
    def _tally(asked: Asked, answers: Mapping[str, str]) -> Tally:
        counts = dict.fromkeys(asked.question.choices, 0)
        for choice in answers.values():
            counts[choice] += 1
        outcomes = [asked.question.verdicts[c].outcome for c in answers.values()]
        return Tally(
            counts=counts,
            answered=len(answers),
            right=outcomes.count("right"),
            tied=outcomes.count("tied"),
        )

    def _summary(self, room: _Room) -> Summary:
        questions = []
        for asked, answers in zip(room.asked, room.answers, strict=True):
            tally = self._tally(asked, answers)
            questions.append(question_summary(asked, tally))
        return Summary(
            code=room.code, steps=tuple(room.steps), students=len(room.students), questions=tuple(questions)
        )
