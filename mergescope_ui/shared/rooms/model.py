"""Live classroom rooms, their records and rules: what every store keeps (pure: no Streamlit).

A *room* is what a teacher opens from the Train page: the stage's step views up to the teacher's
step (never past it), the question the teacher asks (which pair merges next, or the what-if: with
that pair blocked, which merges instead?), the students who joined and their answers.  Every page
reaches the rooms through :class:`RoomStore`, which holds the rules the two stores share.

The rules:

- A room's code is drawn with :mod:`secrets` (about 2^30 codes, none derived from another).  The
  teacher holds a second, long secret, the *host key*, in their own session and tab; every call that
  moves the room takes it, and the join link never carries it.
- A room expires after :data:`IDLE_SECONDS` without a teacher action (a step, Ask, Reveal, the
  teacher's page drawing it); closed, it is kept :data:`CLOSED_KEPT_SECONDS` to tell its students.
- At most :data:`MAX_ROOMS` rooms and :data:`MAX_STUDENTS` students a room; a display name is cleaned
  (:func:`clean_name`) and escaped wherever it is shown (:func:`name_html`).
- A student answers each question once: a second answer is refused.
- Nobody squats the rooms (:class:`Limits`, the host's settings): a browser session holds one open room,
  a client address at most ``rooms_per_address``; a room nobody joined ends ``empty_seconds`` after it
  opened; one browser is one seat (a second tab is the same student); joins and wrong codes are counted
  per client address a minute.  Every refusal is a :class:`RoomError`, one sentence.
- The teacher's page says it is there every few seconds (:meth:`RoomStore.present`); after
  :data:`AWAY_AFTER` seconds without a word the students read that the teacher has left.
"""

from __future__ import annotations

import html
import re
import secrets
import unicodedata
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Generic, Protocol, TypeAlias, TypeVar

from .. import hosting
from ..stage.contract import AHEAD, BEHIND, StepView, TokenLabel, Window, view_ids

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed on a phone
CODE_LENGTH = 6
IDLE_SECONDS = 90 * 60  # a room with no teacher action for this long expires
CLOSED_KEPT_SECONDS = 30 * 60  # an ended or expired room still tells its students so, this long
MAX_ROOMS = 100  # open rooms one server holds
MAX_STUDENTS = 60  # students a room admits
MAX_NAME = 24  # characters of a display name
MAX_HISTORY = 400  # step views a room keeps for students looking back (the oldest go first)
MAX_WAIT = 5.0  # seconds a student's look at the room may wait for a change
AWAY_AFTER = 8.0  # seconds without a word from the teacher's page: the students read that the teacher left
COUNTED_SECONDS = 60  # the window joins and wrong codes are counted in, per client address


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """What keeps the rooms from being squatted (the host's settings, :func:`limits_from`): open rooms per
    client address, the seconds a room nobody joined lasts, joins and wrong codes per address a minute."""

    rooms_per_address: int
    empty_seconds: float
    joins_per_minute: int
    code_guesses_per_minute: int


def limits_from(env: Mapping[str, str] | None = None) -> Limits:
    """The :class:`Limits` the host's settings give (``env``: another environment, for tests).

    >>> limits_from({"MERGESCOPE_ROOMS_PER_ADDRESS": "5"}).rooms_per_address
    5
    """
    return Limits(
        rooms_per_address=hosting.positive_int("MERGESCOPE_ROOMS_PER_ADDRESS", env),
        empty_seconds=hosting.seconds("MERGESCOPE_ROOM_EMPTY_SECONDS", env),
        joins_per_minute=hosting.positive_int("MERGESCOPE_JOINS_PER_MINUTE", env),
        code_guesses_per_minute=hosting.positive_int("MERGESCOPE_CODE_GUESSES_PER_MINUTE", env),
    )


class RoomError(ValueError):
    """A room operation that cannot be done; the message says what to do instead."""


UNREACHABLE = (
    "The live rooms' store cannot be reached just now: the lesson goes on without the room, "
    "which is tried again at each step."
)
DAMAGED = (
    "A live room's record in the store cannot be read (damaged, or written by another version): "
    "the lesson goes on without it; open a new room."
)


class StoreError(RoomError):
    """The room store failed: unreachable (``damaged`` False: it may come back), or a record it cannot
    read (``damaged``: that room is lost).  The message is one line; the lesson goes on without the room.

    >>> StoreError(damaged=False).args[0] == UNREACHABLE, StoreError(damaged=True).damaged
    (True, True)
    """

    def __init__(self, *, damaged: bool) -> None:
        super().__init__(DAMAGED if damaged else UNREACHABLE)
        self.damaged = damaged


@dataclass(frozen=True, slots=True)
class Verdict:
    """How one answer to a question went: ``outcome`` right, tied or wrong, and the sentence saying why."""

    outcome: str
    message: str


# A question's kinds: which pair merges next; the what-if, a pair blocked; which piece a Unigram round prunes.
NEXT, BLOCK, PRUNE = "next", "block", "prune"
KIND_NAMES = {
    NEXT: "which pair merges next",
    BLOCK: "what if a pair is blocked",
    PRUNE: "which piece is pruned",
}


@dataclass(frozen=True, slots=True)
class Question:
    """Which pair makes merge ``step``?  ``choices`` (pair labels) with what each shows (``shown``), the
    ``answer``, and each choice's :class:`Verdict` (ties explained as in the single-player quiz).
    ``kind`` :data:`NEXT` asks about the run as it is; :data:`BLOCK` is the teacher's what-if (the pair
    merged at ``step`` blocked, ``blocked`` its label); :data:`PRUNE` asks which piece a round prunes.

    >>> q = Question(step=4, choices=("o + w",), shown=("o + w",), answer="o + w", verdicts={})
    >>> q.prompt, replace(q, kind=BLOCK, blocked="e + s").prompt
    ('which pair makes merge 4?', 'if e + s were blocked, which pair would make merge 4?')
    """

    step: int
    choices: tuple[str, ...]
    shown: tuple[str, ...]
    answer: str
    verdicts: Mapping[str, Verdict]
    kind: str = NEXT
    blocked: str = ""  # the pair blocked (a label, plain text), for a BLOCK question

    @property
    def prompt(self) -> str:
        """The question as the students read it (plain text: escape it where it is shown)."""
        if self.kind == BLOCK:
            return f"if {self.blocked} were blocked, which pair would make merge {self.step:,}?"
        if self.kind == PRUNE:
            return f"which of these pieces is pruned in round {self.step:,}?"
        return f"which pair makes merge {self.step:,}?"


@dataclass(frozen=True, slots=True)
class Moment:
    """What the teacher's screen shows: the stage's ``window`` (views up to ``window.position``, the
    teacher's step), the question the next merge poses (None at the end), ``lesson``: a link that
    replays the lesson at one's own pace, and ``run``: a name of the training run."""

    window: Window
    question: Question | None
    lesson: str
    run: str = ""  # names the run (text and settings): another run's views and token ids are not kept


@dataclass(frozen=True, slots=True)
class Asked:
    """A question the teacher posed: its number in the room (from 1), and whether it was revealed."""

    number: int
    question: Question
    revealed: bool


@dataclass(frozen=True, slots=True)
class Tally:
    """The answers to the open question so far: choice -> how many, and how many right / tied."""

    counts: Mapping[str, int]
    answered: int
    right: int
    tied: int


@dataclass(frozen=True, slots=True)
class RoomState:
    """A room as a page draws it.  ``version`` changes whenever what every student sees changes (a step, a
    question, a reveal, the end; not a join or an answer, which the teacher's page looks at every second);
    ``mine``: the asking student's answer to the open question (None: none yet, or no student)."""

    code: str
    version: int
    closed: bool
    reason: str  # "" while open; "ended" by the teacher, or "expired"
    position: int
    finished: bool
    students: int
    asked: Asked | None
    tally: Tally | None
    mine: str | None
    lesson: str
    askable: bool = False  # the step shown poses a question the teacher may ask (an encode trace: never)
    away: bool = False  # the teacher's page has said nothing for AWAY_AFTER seconds: the teacher has left


@dataclass(frozen=True, slots=True)
class QuestionSummary:
    """One question of the lesson as the summary lists it."""

    number: int
    step: int
    answer: str
    answered: int
    right: int
    tied: int
    kind: str = NEXT
    blocked: str = ""

    @property
    def share_right(self) -> float:
        """Right answers over answers (0.0 when nobody answered)."""
        return self.right / self.answered if self.answered else 0.0


@dataclass(frozen=True, slots=True)
class Summary:
    """The lesson at its end: steps shown (in the order first shown), students, and every question."""

    code: str
    steps: tuple[int, ...]
    students: int
    questions: tuple[QuestionSummary, ...]

    def rows(self) -> list[dict[str, object]]:
        """One row per question, for a table and its CSV.

        >>> q = QuestionSummary(number=1, step=4, answer="o + w", answered=4, right=3, tied=1)
        >>> w = replace(q, number=2, kind=BLOCK, blocked="e + s")
        >>> rows = Summary(code="ABC234", steps=(0, 1, 2), students=5, questions=(q, w)).rows()
        >>> rows[0]["share right"], rows[0]["asked"], rows[1]["asked"], rows[1]["blocked"]
        (0.75, 'which pair merges next', 'what if a pair is blocked', 'e + s')
        """
        return [
            {
                "question": q.number,
                "asked": KIND_NAMES.get(q.kind, q.kind),
                "merge": q.step,
                "blocked": q.blocked,
                "answer": q.answer,
                "answered": q.answered,
                "right": q.right,
                "tied": q.tied,
                "wrong": q.answered - q.right - q.tied,
                "share right": round(q.share_right, 3),
            }
            for q in self.questions
        ]


Page: TypeAlias = tuple[StepView, Mapping[str, TokenLabel]]  # a step's view from another place, its labels
MAX_PAGES = 200  # pages of places a room keeps (built once for all its students; the oldest go first)


class Pager(Protocol):
    """What the teacher's page lends its room so students can page through a step's places: the view of
    step ``step`` from its ``start``-th place on, with its labels (None: not shown).  It runs in the
    student's session thread: it must be safe beside the teacher's own session."""

    def page(self, step: int, start: int) -> Page | None: ...


_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def clean_name(name: str) -> str:
    """A display name as kept: NFC, controls and direction overrides removed, spaces folded, at most
    :data:`MAX_NAME` characters (ValueError when nothing is left).

    >>> clean_name("  Grace\\u202e  Hopper\\n"), len(clean_name("x" * 100))
    ('Grace Hopper', 24)
    >>> clean_name(" \\t ")
    Traceback (most recent call last):
    ...
    ValueError: Type a display name (letters or digits), up to 24 characters.
    """
    text = _CONTROLS.sub(" ", unicodedata.normalize("NFC", str(name)))
    text = " ".join(text.split())[:MAX_NAME].strip()
    if not text:
        raise ValueError(f"Type a display name (letters or digits), up to {MAX_NAME} characters.")
    return text


def name_html(name: str) -> str:
    """A display name for ``st.html``: escaped.

    >>> name_html('<img src=x onerror="alert(1)">')
    '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
    """
    return html.escape(name, quote=True)


def normal_code(code: str) -> str:
    """A typed room code as stored: upper case, spaces and dashes dropped ("" when it is no code's length).

    >>> normal_code(" ab-c 234 "), normal_code("x" * 40)
    ('ABC234', '')
    """
    text = "".join(str(code).split()).replace("-", "").upper()[: CODE_LENGTH + 2]
    return text if len(text) == CODE_LENGTH else ""


def new_code() -> str:
    """A fresh room code (:mod:`secrets`: one code says nothing of another)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def tally(asked: Asked, answers: Mapping[str, str]) -> Tally:
    """How the class answered ``asked`` so far (``answers``: student -> choice)."""
    counts = dict.fromkeys(asked.question.choices, 0)
    for choice in answers.values():
        if choice in counts:
            counts[choice] += 1
    outcomes = [asked.question.verdicts[c].outcome for c in answers.values() if c in asked.question.verdicts]
    right, tied = outcomes.count("right"), outcomes.count("tied")
    return Tally(counts=counts, answered=len(answers), right=right, tied=tied)


def asked_question(upcoming: Question | None, question: Question | None, *, pending: bool) -> Question:
    """The question a teacher asks at the room's step: ``question`` if it fits that step (a what-if), else
    the step's own; a :class:`RoomError` if the step has none, ``question`` does not fit, or a question
    is still open (``pending``)."""
    if upcoming is None:
        raise RoomError("There is no next merge to ask about: step back, or train further.")
    if question is not None and question.step != upcoming.step:
        raise RoomError(
            f"The room shows the step before merge {upcoming.step:,}, not before merge "
            f"{question.step:,}: ask again."
        )
    if question is not None and (question.answer not in question.choices or not question.choices):
        raise RoomError("This question has no right answer among its choices: ask another.")
    if pending:
        raise RoomError("A question is open: reveal it before asking the next.")
    return question or upcoming


def wanted_pages(
    starts: Mapping[int, int], history: Mapping[int, StepView], *, top: int, at: int
) -> dict[int, int]:
    """The pages a student's window needs: step -> first place, for the steps of the window whose kept
    view starts elsewhere, and only starts that are places of that step (a report is the browser's)."""
    at = max(0, min(at, top))
    wanted = {}
    for step, start in starts.items():
        view = history.get(step)
        places = view.places if view is not None else None
        if places is None or not at - BEHIND <= step <= min(top, at + AHEAD):
            continue
        if 0 <= start < places.total and start != places.start:
            wanted[step] = start
    return wanted


def student_window(
    live: Window,
    history: Mapping[int, StepView],
    labels: Mapping[str, TokenLabel],
    *,
    at: int,
    serial: int,
    pages: Mapping[int, Page] | None = None,
) -> Window:
    """A student's stage window at step ``at`` (cut to the teacher's step ``live.position``): the kept
    views around it (or the ``pages`` made for it: step -> view and its labels), no quiz of its own,
    phone sizes, and the stage's last step the teacher's: its Next stops there (a student cannot step
    past the teacher), and a jump past it says where the teacher is."""
    top = live.position
    at = max(0, min(at, top))
    lo, hi = max(0, at - BEHIND), min(top, at + AHEAD)
    pages = pages or {}
    views = tuple(pages[k][0] if k in pages else history[k] for k in range(lo, hi + 1) if k in history)
    if views:
        lo, hi = min(lo, views[0].step), max(v.step for v in views)
    known = dict(labels)
    for _, page_labels in pages.values():
        known.update(page_labels)
    return replace(
        live,
        serial=serial,
        position=at,
        lo=lo,
        hi=hi,
        views=views,
        labels={str(i): known[str(i)] for i in sorted(view_ids(views)) if str(i) in known},
        last=top,
        max_steps=top,
        wording=replace(
            live.wording, past_limit=f"Your teacher is at step {top:,}: there is no step past it yet."
        ),
        finished=live.finished and top >= live.last,
        quiz=False,
        large=False,
        notice="",
        arrows_from="",
    )


R = TypeVar("R")
# A room read for its RoomState: version, reason closed, moment, students, last question, its answers,
# whether the teacher is away
Seen: TypeAlias = tuple[int, str, Moment | None, int, Asked | None, Mapping[str, str], bool]
Lesson: TypeAlias = tuple[Iterable[int], int, Iterable[tuple[Asked, Mapping[str, str]]]]  # for Summary


class RoomStore(Generic[R]):
    """Where the rooms live: the one interface every page reaches them through, with the rules that need
    nothing of the storage written once, over the hooks a store gives (``R``: a room as it reads one).

    ``host`` is a room's host key (the teacher's secret), ``student`` the id :meth:`join` gave; a method
    that moves a room raises :class:`RoomError` for a key it does not know or a room that is closed.
    The rules run under ``_guard`` (the store's lock, or none)."""

    _guard: AbstractContextManager[object]
    _limits: Limits

    @property
    def limits(self) -> Limits:
        """The limits this store keeps (:class:`Limits`)."""
        return self._limits

    def open(self, *, session: str = "", address: str = "") -> tuple[str, str]:
        """A new room: its code and its host key.  ``session``: the browser session asking (it holds one open
        room at a time); ``address``: the client's (at most ``rooms_per_address`` open rooms)."""
        with self._guard:
            held = self._sweep()
            if len(held) >= MAX_ROOMS:
                raise RoomError(
                    f"This server holds {MAX_ROOMS} open rooms, the most it allows: end a room you no longer "
                    f"use, or wait for idle ones to expire ({IDLE_SECONDS // 60} minutes)."
                )
            if session and any(s == session for s, _ in held):
                raise RoomError("This page holds an open room already: end it before opening another.")
            most, empty = self._limits.rooms_per_address, self._limits.empty_seconds / 60
            if address and sum(a == address for _, a in held) >= most:
                raise RoomError(
                    f"Your network holds {most} open room{'s' * (most != 1)}, the most one address may: end "
                    f"one, or wait for a room nobody joined to end ({empty:g} minutes after it opened)."
                )
            host = secrets.token_urlsafe(24)
            return self._create(host, session=session, address=address), host

    def hosted(self, host: str) -> str | None:
        """The code of the open room ``host`` drives (a teacher's reload gets it back), or None."""
        with self._guard:
            code = self._host_code(str(host))
            room = self._find(code) if code else None
            return code if room is not None and not self._closed(room) else None

    def join(self, code: str, name: str, *, browser: str = "", address: str = "") -> str:
        """A new student in room ``code`` under ``name`` (cleaned): their id.  ``browser``: the browser's
        own id (a second tab of it gets the seat it has, under its first name); ``address``: the client's,
        whose joins and wrong codes are counted."""
        shown = clean_name(name)
        limits = self._limits
        with self._guard:
            if address and self._count(f"join:{address}", 1) > limits.joins_per_minute:
                raise RoomError(
                    f"Too many joins from your network this minute (at most {limits.joins_per_minute}): "
                    "wait a minute, then join again."
                )
            if address and self._count(f"guess:{address}", 0) >= limits.code_guesses_per_minute:
                raise RoomError(
                    f"Too many wrong room codes from your network this minute (at most "
                    f"{limits.code_guesses_per_minute}): check the code with your teacher, then try again "
                    "in a minute."
                )
            self._sweep()
            room = self._find(code)
            if room is None:
                if address:
                    self._count(f"guess:{address}", 1)
                raise RoomError("No room has this code: check it with your teacher (6 letters and digits).")
            if self._closed(room):
                raise RoomError("This room has ended: ask your teacher for the new code.")
            student = self._seat(normal_code(code), secrets.token_urlsafe(12), shown, browser)
            if student is None:
                raise RoomError(f"This room is full ({MAX_STUDENTS} students): ask your teacher for another.")
            return student  # (no new version: students see nothing of it)

    def member(self, code: str, student: str) -> str | None:
        """``student``'s name in the open room ``code`` (None: no such student, or the room ended)."""
        with self._guard:
            room = self._find(code)
            return None if room is None or self._closed(room) else self._name(normal_code(code), str(student))

    def summary(self, code: str) -> Summary | None:
        """The lesson so far (None: no such room)."""
        with self._guard:
            return None if self._find(code) is None else self._summary(normal_code(code))

    def state(self, code: str, *, student: str | None = None) -> RoomState | None:
        """The room as a page draws it (None: no such room, or forgotten)."""
        with self._guard:
            room = self._find(code)
            if room is None:
                return None
            code = normal_code(code)
            version, reason, moment, students, asked, answers, away = self._seen(code, room)
            window = moment.window if moment else None
            return RoomState(
                code=code,
                version=version,
                closed=self._closed(room),
                reason=reason,
                position=window.position if window else 0,
                finished=bool(window and window.finished and window.position >= window.last),
                students=students,
                asked=asked,
                tally=tally(asked, answers) if asked else None,
                mine=answers.get(student or "") if asked else None,
                lesson=moment.lesson if moment else "",
                askable=bool(moment and moment.question),
                away=away and not self._closed(room),
            )

    def _drive(self, host: str) -> tuple[str, R]:
        """The code and the room ``host`` drives (a :class:`RoomError` when it is gone or ended)."""
        code = self._host_code(str(host))
        room = self._find(code) if code else None
        if code is None or room is None:
            raise RoomError("This room is gone (ended, or idle too long): open a new one.")
        if self._closed(room):
            raise RoomError("This room has ended: open a new one.")
        return code, room

    def _summary(self, code: str) -> Summary:
        steps, students, asked = self._lesson(code)
        questions = tuple(question_summary(a, tally(a, answers)) for a, answers in asked)
        return Summary(code=code, steps=tuple(steps), students=students, questions=questions)

    # ----- what each store does on its storage -----
    def publish(self, host: str, moment: Moment, *, pager: Pager | None = None) -> None:
        """The teacher's screen shows ``moment``; ``pager`` makes the pages of places students ask for."""
        raise NotImplementedError

    def ask(self, host: str, question: Question | None = None) -> int:
        """Pose the question of the moment shown (or ``question``, a what-if on its merge); its number."""
        raise NotImplementedError

    def reveal(self, host: str) -> None:
        """Show every student the answer to the open question."""
        raise NotImplementedError

    def close(self, host: str) -> Summary:
        """End the room (its students are told); the lesson's summary."""
        raise NotImplementedError

    def present(self, host: str) -> None:
        """The teacher's page is there (every few seconds, and at every teacher action): the students no
        longer read that the teacher left."""
        raise NotImplementedError

    def answer(self, code: str, student: str, number: int, choice: str) -> bool:
        """Record ``student``'s answer to question ``number`` (False: answered already, or not open)."""
        raise NotImplementedError

    def version(self, code: str) -> int | None:
        """A number that changes whenever what every student sees changes (None: no such room)."""
        raise NotImplementedError

    def wait(self, code: str, seen: int | None, *, timeout: float) -> int | None:
        """The room's version once it is no longer ``seen``, or after ``timeout`` seconds (at most
        :data:`MAX_WAIT`) whatever it is then (None: no such room)."""
        raise NotImplementedError

    def window(
        self, code: str, *, position: int, serial: int, starts: Mapping[int, int] | None = None
    ) -> Window | None:
        """A student's stage at ``position`` (at most the teacher's step), from the views the room kept;
        ``starts``: step -> the first place the student's stage asked for there (made by the pager)."""
        raise NotImplementedError

    def names(self, code: str) -> tuple[str, ...]:
        """The display names in room ``code``, in the order they joined (cleaned, not escaped)."""
        raise NotImplementedError

    # ----- the hooks: the storage (called under the guard; ``code`` is normal unless said) -----
    def _find(self, code: str) -> R | None:
        """Room ``code`` (as typed), expired first if its idle time ran out (None: no such room)."""
        raise NotImplementedError

    def _closed(self, room: R) -> bool:
        raise NotImplementedError

    def _host_code(self, host: str) -> str | None:
        raise NotImplementedError

    def _sweep(self) -> list[tuple[str, str]]:
        """Forget the rooms closed long ago; the session and the client address of each room still open."""
        raise NotImplementedError

    def _create(self, host: str, *, session: str, address: str) -> str:
        """A new room (a fresh code) driven by ``host``, opened by ``session`` from ``address``; its code."""
        raise NotImplementedError

    def _seat(self, code: str, student: str, name: str, browser: str) -> str | None:
        """Seat ``student`` unless the room is full (None); a ``browser`` seated already keeps its seat (its
        id is returned)."""
        raise NotImplementedError

    def _count(self, bucket: str, add: int) -> int:
        """Add ``add`` to ``bucket``'s count for this :data:`COUNTED_SECONDS` window; the count then."""
        raise NotImplementedError

    def _ends(self, *, touched: float, created: float, joined: bool) -> tuple[float, str]:
        """When an open room ends by the rules, and why: idle since ``touched``, or (nobody ``joined``)
        empty since ``created``; the earlier.

        >>> from mergescope_ui.shared.rooms import MemoryRooms
        >>> rooms = MemoryRooms(limits=Limits(rooms_per_address=1, empty_seconds=60, joins_per_minute=1,
        ...     code_guesses_per_minute=1))
        >>> rooms._ends(touched=100.0, created=0.0, joined=False)
        (60.0, 'empty')
        >>> rooms._ends(touched=100.0, created=0.0, joined=True)
        (5500.0, 'expired')
        """
        idle = (touched + IDLE_SECONDS, "expired")
        return idle if joined else min(idle, (created + self._limits.empty_seconds, "empty"))

    def _name(self, code: str, student: str) -> str | None:
        raise NotImplementedError

    def _seen(self, code: str, room: R) -> Seen:
        """What :meth:`state` shows (:data:`Seen`)."""
        raise NotImplementedError

    def _lesson(self, code: str) -> Lesson:
        """The steps shown, the students, and each question asked with its answers."""
        raise NotImplementedError


def question_summary(asked: Asked, tally: Tally) -> QuestionSummary:
    """One line of the end-of-room summary: a question asked and how the class answered."""
    return QuestionSummary(
        number=asked.number,
        step=asked.question.step,
        answer=asked.question.answer,
        answered=tally.answered,
        right=tally.right,
        tied=tally.tied,
        kind=asked.question.kind,
        blocked=asked.question.blocked,
    )
