"""The rooms in one Redis, for several Streamlit servers behind a load balancer (``MERGESCOPE_ROOMS``).

:class:`RedisRooms` keeps the rules of :class:`~.model.RoomStore` (the tests of
tests/ui/shared/test_rooms.py run against both stores) over these keys, under the store's ``prefix``:

- ``room:{code}``: a hash: the host key, ``touched`` and ``closed`` (``time.time`` seconds by default,
  one clock for every server), ``reason``, ``version``, the moment shown (:mod:`.records` JSON, its
  views and labels kept apart), its position, lesson and run, and the open question's number and
  choices (``open``, ``choices``); ``host:{key}`` -> code; the set ``rooms`` of codes.
- ``room:{code}:students`` (id -> name), ``:order`` (ids as they joined), ``:asked`` (the questions),
  and per question ``:answers:{n}`` (student -> choice).  Joining and answering are one Lua script
  each, so a room's bound holds and an answer counts once (``HSETNX``) whichever server takes it.
- ``room:{code}:history`` (step -> view), ``:labels`` (id -> label), ``:pages`` ("step:start" -> a
  page of places), ``:steps`` (the steps shown, in order).

Every change students see increments ``version`` and is published on ``room:{code}``, where each
server's subscriber thread wakes its waiting students.  A page of places missing is wished for on
``wanted``; the teacher's server (its pager) makes and stores it.  A room's keys expire a while after
the room would be forgotten.

>>> RedisRooms.from_url("http://x")
Traceback (most recent call last):
...
ValueError: MERGESCOPE_ROOMS=http://x is no Redis URL: give redis://HOST:6379/0 or leave it unset
"""

from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from types import TracebackType
from typing import Any, Literal, ParamSpec, TypeVar

from ..stage.contract import AHEAD, BEHIND, StepView, TokenLabel, Window, view_ids
from . import model
from . import records as room_records
from .model import (
    Asked,
    Lesson,
    Limits,
    Moment,
    Page,
    Pager,
    Question,
    RoomError,
    Seen,
    StoreError,
    Summary,
    normal_code,
)

KEPT_SECONDS = (
    model.IDLE_SECONDS + model.CLOSED_KEPT_SECONDS + 60
)  # a room's keys outlive the room's own rules
PAGE_WAIT = 1.0  # seconds a student's server waits for the teacher's server to make a page of places
# A Redis that does not answer: a call gives up after these seconds (connecting, then reading) and one
# more try, so a page says so at once instead of holding its session (a stopped Redis never answers).
CONNECT_TIMEOUT, READ_TIMEOUT = 1.0, 1.0

_JOIN = """
if ARGV[4] ~= '' then
  local seated = redis.call('HGET', KEYS[3], ARGV[4])
  if seated then return seated end
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return '' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[1])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], ARGV[4], ARGV[1]) end
return ARGV[1]
"""
_ANSWER = """
local room = redis.call('HMGET', KEYS[1], 'closed', 'open', 'choices')
if room[1] ~= '' or room[2] ~= ARGV[1] then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 0 then return 0 end
local known = false
for _, c in ipairs(cjson.decode(room[3])) do if c == ARGV[3] then known = true end end
if not known then return 0 end
return redis.call('HSETNX', KEYS[3], ARGV[2], ARGV[3])
"""
# The rules a look at a room applies first (KEYS: the room, its students; ARGV: now, idle seconds, empty
# seconds, away seconds): idle too long, or nobody joined in time, it ends (1); its teacher's page quiet
# too long, the students are told (2).
_EXPIRE = """
local room = redis.call('HMGET', KEYS[1], 'closed', 'touched', 'created', 'seen', 'away')
if room[1] ~= '' or room[2] == false then return 0 end
local now = tonumber(ARGV[1])
local at, reason = tonumber(room[2]) + tonumber(ARGV[2]), 'expired'
if room[3] and redis.call('HLEN', KEYS[2]) == 0 and tonumber(room[3]) + tonumber(ARGV[3]) < at then
  at, reason = tonumber(room[3]) + tonumber(ARGV[3]), 'empty'
end
if now > at then
  redis.call('HSET', KEYS[1], 'closed', tostring(at), 'reason', reason, 'open', '0')
elseif room[4] and room[5] ~= '1' and now - tonumber(room[4]) > tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[1], 'away', '1')
else
  return 0
end
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('PUBLISH', KEYS[1], reason)
return 1
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class _StoreErrors:
    """The guard of every call on the store: what Redis or a record read back raises becomes one
    :class:`~.model.StoreError` (a :class:`~.model.RoomError`, a room rule's own sentence, goes on as it is).

    >>> with _StoreErrors():
    ...     json.loads("{not json")
    Traceback (most recent call last):
    ...
    mergescope_ui.shared.rooms.model.StoreError: A live room's record in the store cannot be read (damaged, \
or written by another version): the lesson goes on without it; open a new room.
    """

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> Literal[False]:
        if error is None or isinstance(error, RoomError) or not isinstance(error, Exception):
            return False
        import redis

        if isinstance(error, (redis.ConnectionError, redis.TimeoutError, OSError)):
            raise StoreError(damaged=False) from error
        if isinstance(error, (redis.RedisError, ValueError, KeyError, TypeError, AttributeError, IndexError)):
            raise StoreError(damaged=True) from error  # (a JSON or record that is not one, a field missing)
        return False


P = ParamSpec("P")
T = TypeVar("T")


def _guarded(method: Callable[P, T]) -> Callable[P, T]:
    """``method`` under :class:`_StoreErrors`: a failure is a :class:`~.model.StoreError`."""

    @functools.wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        with _StoreErrors():
            return method(*args, **kwargs)

    return run


class RedisRooms(model.RoomStore[dict[str, str]]):
    """The rooms of every server that reaches one Redis (``client``: a ``redis.Redis``); ``clock`` gives
    seconds, the same on every server; ``prefix`` names the keys (tests give each store its own)."""

    def __init__(
        self,
        client: Any,
        *,
        clock: Callable[[], float] = time.time,
        prefix: str = "mergescope",
        limits: Limits | None = None,
    ):
        self._redis = client
        self._limits = limits or model.limits_from()
        self._guard = _StoreErrors()  # (the scripts keep a room's bounds: no lock here, a failure said once)
        self._clock = clock
        self._prefix = prefix
        self._join = client.register_script(_JOIN)
        self._answer = client.register_script(_ANSWER)
        self._expire = client.register_script(_EXPIRE)
        self._pagers: dict[str, Pager] = {}  # code -> the teacher's pager, for the rooms driven from here
        self._changed = threading.Condition()
        self._news = 0  # messages heard: a waiting student looks at the room again after each
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()
        self._builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="room-pages")

    @classmethod
    def from_url(cls, url: str, **options: Any) -> RedisRooms:
        """The store at ``url`` (``redis://host:port/db``, ``rediss://``, ``unix://``)."""
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(
                f"MERGESCOPE_ROOMS={url} is no Redis URL: give redis://HOST:6379/0 or leave it unset"
            )
        import redis  # an optional dependency of the shared store (requirements.txt pins it)
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        client = redis.Redis.from_url(
            url,
            socket_connect_timeout=CONNECT_TIMEOUT,
            socket_timeout=READ_TIMEOUT,
            retry=Retry(NoBackoff(), 1),
        )
        return cls(client, **options)

    # ----- keys -----
    def _key(self, code: str, part: str = "") -> str:
        return f"{self._prefix}:room:{code}{':' + part if part else ''}"

    def _keys(self, code: str, questions: int) -> list[str]:
        answers = [f"answers:{n}" for n in range(1, questions + 1)]
        parts = [
            "",
            "students",
            "order",
            "browsers",
            "asked",
            "history",
            "labels",
            "pages",
            "steps",
            "stepset",
        ]
        return [self._key(code, p) for p in (*parts, *answers)]

    def close_connections(self) -> None:
        """Stop listening and let the connections go (a test's store, or a server going down)."""
        self._stop.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
        self._builder.shutdown(wait=False)
        self._redis.close()

    # ----- housekeeping -----
    def _find(self, code: str) -> dict[str, str] | None:
        """Room ``code``'s hash (None: no such room), expired first if its idle time ran out."""
        code = normal_code(code)
        if not code:
            return None
        key = self._key(code)
        pipe = self._redis.pipeline(transaction=False)
        self._rules(pipe, code)
        pipe.hgetall(key)
        _, raw = pipe.execute()
        if not raw:
            return None
        meta = {_text(k): _text(v) for k, v in raw.items()}
        if meta.get("closed"):  # (an ended or expired room: the teacher's run, a large text's worker, goes)
            self._pagers.pop(code, None)
        return meta

    def _rules(self, pipe: Any, code: str) -> None:
        """Apply the rules of a look at room ``code`` (:data:`_EXPIRE`) in ``pipe``."""
        limits = self._limits
        args = [repr(self._clock()), model.IDLE_SECONDS, repr(limits.empty_seconds), repr(model.AWAY_AFTER)]
        self._expire(keys=[self._key(code), self._key(code, "students")], args=args, client=pipe)

    def _bump(self, pipe: Any, code: str) -> None:
        pipe.hincrby(self._key(code), "version", 1)
        pipe.publish(self._key(code), "changed")

    def _keep(self, pipe: Any, code: str, questions: int, seconds: int = KEPT_SECONDS) -> None:
        for key in self._keys(code, questions):
            pipe.expire(key, seconds)

    def _sweep(self) -> list[tuple[str, str]]:
        """Forget the rooms closed long ago (and any whose keys expired); the session and client address of
        each room still open (two servers opening at once may each see the other's room not yet)."""
        now, held = self._clock(), []
        codes = sorted(_text(c) for c in self._redis.smembers(f"{self._prefix}:rooms"))
        pipe = self._redis.pipeline(transaction=False)
        for code in codes:
            self._rules(pipe, code)
        for code in codes:
            pipe.hmget(self._key(code), "closed", "host", "session", "address")
        found = pipe.execute()[len(codes) :]
        for code, fields in zip(codes, found, strict=True):
            closed, host, session, address = (None if f is None else _text(f) for f in fields)
            if host is None or (closed and now - float(closed) > model.CLOSED_KEPT_SECONDS):
                pipe = self._redis.pipeline()
                if host is not None:
                    pipe.delete(f"{self._prefix}:host:{host}")
                pipe.delete(*self._keys(code, int(self._redis.llen(self._key(code, "asked")))))
                pipe.srem(f"{self._prefix}:rooms", code)
                pipe.execute()
                self._pagers.pop(code, None)
            elif not closed:
                held.append((session or "", address or ""))
        return held

    def _closed(self, room: dict[str, str]) -> bool:
        return bool(room["closed"])

    def _host_code(self, host: str) -> str | None:
        code = self._redis.get(f"{self._prefix}:host:{host}")
        return None if code is None else _text(code)

    def _create(self, host: str, *, session: str, address: str) -> str:
        code = model.new_code()
        while not self._redis.hsetnx(self._key(code), "host", host):  # a code in use: draw again
            code = model.new_code()
        pipe = self._redis.pipeline()
        now = repr(self._clock())
        fields = {"touched": now, "created": now, "seen": now, "away": "", "closed": "", "reason": ""}
        fields |= {"version": "0", "open": "0", "session": session, "address": address}
        pipe.hset(self._key(code), mapping=fields)
        pipe.set(f"{self._prefix}:host:{host}", code, ex=KEPT_SECONDS)
        pipe.sadd(f"{self._prefix}:rooms", code)
        self._keep(pipe, code, 0)
        pipe.execute()
        return code

    def _seat(self, code: str, student: str, name: str, browser: str) -> str | None:
        keys = [self._key(code, "students"), self._key(code, "order"), self._key(code, "browsers")]
        seated = _text(self._join(keys=keys, args=[student, name, model.MAX_STUDENTS, browser]))
        if seated:
            self._redis.expire(self._key(code, "browsers"), KEPT_SECONDS)
        return seated or None

    def _count(self, bucket: str, add: int) -> int:
        window = int(self._clock() // model.COUNTED_SECONDS)
        key = f"{self._prefix}:count:{bucket}:{window}"
        if not add:
            return int(self._redis.get(key) or 0)
        pipe = self._redis.pipeline()
        pipe.incrby(key, add)
        pipe.expire(key, 2 * model.COUNTED_SECONDS)
        return int(pipe.execute()[0])

    def _name(self, code: str, student: str) -> str | None:
        name = self._redis.hget(self._key(code, "students"), student)
        return None if name is None else _text(name)

    def _lesson(self, code: str) -> Lesson:
        steps = [int(s) for s in self._redis.lrange(self._key(code, "steps"), 0, -1)]
        asked = [(a, self._answers(code, a.number)) for a in self._asked(code)]
        return steps, int(self._redis.hlen(self._key(code, "students"))), asked

    def _asked(self, code: str) -> list[Asked]:
        return [room_records.decode(a) for a in self._redis.lrange(self._key(code, "asked"), 0, -1)]

    # ----- the teacher -----
    @_guarded
    def publish(self, host: str, moment: Moment, *, pager: Pager | None = None) -> None:
        code, meta = self._drive(host)
        window = moment.window
        if pager is not None:
            self._pagers[code] = pager
            self._listen()
        else:
            self._pagers.pop(code, None)
        changed = False
        pipe = self._redis.pipeline()
        if meta.get("run") is not None and meta["run"] != moment.run:
            pipe.delete(self._key(code, "history"), self._key(code, "labels"), self._key(code, "pages"))
            changed = True
        views = {v.step: room_records.encode(v) for v in window.views if v.step <= window.position}
        if views:
            pipe.hset(self._key(code, "history"), mapping=views)
        if window.labels:
            labels = {k: room_records.encode(v) for k, v in window.labels.items()}
            pipe.hset(self._key(code, "labels"), mapping=labels)
        bare = replace(moment, window=replace(window, views=(), labels={}))
        fields = {
            "moment": room_records.encode(bare),
            "position": window.position,
            "lesson": moment.lesson,
            "run": moment.run,
            "touched": repr(self._clock()),
            "pager": "1" if pager is not None else "",  # a teacher's server makes pages of places
            **self._here(),
        }
        changed = changed or meta.get("away") == "1"
        asked = int(self._redis.llen(self._key(code, "asked")))
        if meta["open"] != "0":
            last = room_records.decode(self._redis.lindex(self._key(code, "asked"), -1))
            if window.position >= last.question.step:  # the stage shows the answer now
                pipe.lset(self._key(code, "asked"), -1, room_records.encode(replace(last, revealed=True)))
                fields["open"] = "0"
                changed = True
        pipe.hset(self._key(code), mapping=fields)
        if meta.get("position") != str(window.position) or meta.get("lesson") != moment.lesson:
            changed = True
        if self._redis.sadd(self._key(code, "stepset"), window.position):
            pipe.rpush(self._key(code, "steps"), window.position)
        if changed:
            self._bump(pipe, code)
        self._keep(pipe, code, asked)
        pipe.set(f"{self._prefix}:host:{host}", code, ex=KEPT_SECONDS)
        pipe.execute()
        history = self._key(code, "history")
        if self._redis.hlen(history) > model.MAX_HISTORY:
            kept = (int(s) for s in self._redis.hkeys(history))
            steps = sorted(kept, key=lambda k: abs(k - window.position))
            self._redis.hdel(history, *steps[model.MAX_HISTORY :])

    @_guarded
    def ask(self, host: str, question: Question | None = None) -> int:
        code, meta = self._drive(host)
        live: Moment | None = room_records.decode(meta["moment"]) if meta.get("moment") else None
        question = model.asked_question(
            live.question if live else None, question, pending=meta["open"] != "0"
        )
        number = int(self._redis.llen(self._key(code, "asked"))) + 1
        pipe = self._redis.pipeline()
        pipe.rpush(self._key(code, "asked"), room_records.encode(Asked(number, question, revealed=False)))
        choices = json.dumps(list(question.choices))
        fields = {"open": number, "choices": choices, "touched": repr(self._clock()), **self._here()}
        pipe.hset(self._key(code), mapping=fields)
        self._bump(pipe, code)
        self._keep(pipe, code, number)
        pipe.execute()
        return number

    @_guarded
    def reveal(self, host: str) -> None:
        code, meta = self._drive(host)
        if meta["open"] == "0":
            self.present(host)
            return
        last = room_records.decode(self._redis.lindex(self._key(code, "asked"), -1))
        pipe = self._redis.pipeline()
        pipe.lset(self._key(code, "asked"), -1, room_records.encode(replace(last, revealed=True)))
        pipe.hset(self._key(code), mapping={"open": "0", "touched": repr(self._clock()), **self._here()})
        self._bump(pipe, code)
        pipe.execute()

    def _here(self) -> dict[str, str]:
        """The fields saying the teacher's page is there now (the caller bumps the version if it was away)."""
        return {"seen": repr(self._clock()), "away": ""}

    @_guarded
    def present(self, host: str) -> None:
        code, meta = self._drive(host)
        pipe = self._redis.pipeline()
        pipe.hset(self._key(code), mapping=self._here())
        if meta.get("away") == "1":
            self._bump(pipe, code)
        pipe.execute()

    @_guarded
    def close(self, host: str) -> Summary:
        code, _ = self._drive(host)
        self._pagers.pop(code, None)  # (the teacher's run is let go)
        asked = int(self._redis.llen(self._key(code, "asked")))
        pipe = self._redis.pipeline()
        ended = {"closed": repr(self._clock()), "reason": "ended", "open": "0", "pager": ""}
        pipe.hset(self._key(code), mapping=ended)
        pipe.delete(self._key(code, "pages"))
        self._bump(pipe, code)
        self._keep(pipe, code, asked, model.CLOSED_KEPT_SECONDS + 60)
        pipe.execute()
        return self._summary(code)

    # ----- students -----
    @_guarded
    def answer(self, code: str, student: str, number: int, choice: str) -> bool:
        meta = self._find(code)  # (expires an idle room first)
        if meta is None:
            return False
        code = normal_code(code)
        keys = [self._key(code), self._key(code, "students"), self._key(code, f"answers:{number}")]
        return bool(self._answer(keys=keys, args=[str(number), str(student), str(choice)]))

    # ----- reading -----
    @_guarded
    def version(self, code: str) -> int | None:
        meta = self._find(code)
        return None if meta is None else int(meta["version"])

    def _listen(self) -> None:
        """Start this server's subscriber (once): it wakes the students waiting here, makes pages wished."""
        with self._changed:
            if self._listener is not None:
                return
            self._listener = threading.Thread(target=self._hear, name="room-news", daemon=True)
            self._listener.start()

    def _hear(self) -> None:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        subscribed = False
        try:
            while not self._stop.is_set():
                try:
                    if not subscribed:  # (a Redis down when this began: subscribed once it is back)
                        pubsub.psubscribe(f"{self._prefix}:room:*")
                        pubsub.subscribe(f"{self._prefix}:wanted")
                        subscribed = True
                    message = pubsub.get_message(timeout=0.2)
                except Exception:  # the connection dropped: say so to the waiting, and listen again
                    time.sleep(0.5)
                    message = {"type": "pmessage", "channel": b"", "data": b""}
                if message is None:
                    continue
                if _text(message.get("channel", b"")) == f"{self._prefix}:wanted":
                    self._builder.submit(self._make_page, _text(message["data"]))
                    continue
                with self._changed:
                    self._news += 1
                    self._changed.notify_all()
        finally:
            pubsub.close()

    def _make_page(self, wish: str) -> None:
        """A page a student's server asked for ("code step start"), if this server holds that room's pager."""
        try:
            code, step, start = wish.split()
            pager = self._pagers.get(code)
            if pager is None:
                return
            page = pager.page(int(step), int(start))
            if page is None:
                return
            pipe = self._redis.pipeline()
            pipe.hset(self._key(code, "pages"), f"{int(step)}:{int(start)}", room_records.encode(page))
            pipe.expire(self._key(code, "pages"), KEPT_SECONDS)
            pipe.publish(self._key(code), "page")
            pipe.execute()
        except Exception:  # no page, or the teacher's run gone: the student sees the first places
            return

    def _news_after(self, heard: int, deadline: float) -> int:
        with self._changed:
            while self._news == heard:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(left)
            return self._news

    def wait(self, code: str, seen: int | None, *, timeout: float) -> int | None:
        deadline = time.monotonic() + max(0.0, min(timeout, model.MAX_WAIT))
        if timeout > 0:
            self._listen()
        while True:
            with self._changed:
                heard = self._news  # (before reading: news after this read wakes the wait below)
            version = self.version(code)
            if version is None or version != seen or time.monotonic() >= deadline:
                return version
            self._news_after(heard, deadline)

    def _seen(self, code: str, meta: dict[str, str]) -> Seen:
        last = self._redis.lindex(self._key(code, "asked"), -1)
        asked: Asked | None = room_records.decode(last) if last is not None else None
        live: Moment | None = room_records.decode(meta["moment"]) if meta.get("moment") else None
        students = int(self._redis.hlen(self._key(code, "students")))
        answers = self._answers(code, asked.number) if asked else {}
        return int(meta["version"]), meta["reason"], live, students, asked, answers, meta.get("away") == "1"

    def _answers(self, code: str, number: int) -> dict[str, str]:
        raw = self._redis.hgetall(self._key(code, f"answers:{number}"))
        return {_text(k): _text(v) for k, v in raw.items()}

    @_guarded
    def window(
        self, code: str, *, position: int, serial: int, starts: Mapping[int, int] | None = None
    ) -> Window | None:
        meta = self._find(code)
        if meta is None or not meta.get("moment"):
            return None
        code = normal_code(code)
        live: Moment = room_records.decode(meta["moment"])
        top = live.window.position
        at = max(0, min(position, top))
        steps = list(range(max(0, at - BEHIND), min(top, at + AHEAD) + 1))
        history: dict[int, StepView] = self._decoded("history", code, steps)
        wanted = model.wanted_pages(starts or {}, history, top=top, at=position) if meta.get("pager") else {}
        pages = self._pages(code, wanted, run=live.run)
        ids = sorted(view_ids([*history.values(), *(view for view, _ in pages.values())]))
        labels: dict[str, TokenLabel] = self._decoded("labels", code, [str(i) for i in ids])
        return model.student_window(live.window, history, labels, at=position, serial=serial, pages=pages)

    def _decoded(self, part: str, code: str, names: list[Any]) -> dict[Any, Any]:
        """The fields ``names`` of the room's hash ``part`` that it holds, decoded."""
        found = self._redis.hmget(self._key(code, part), names) if names else []
        return {n: room_records.decode(raw) for n, raw in zip(names, found, strict=True) if raw is not None}

    def _pages(self, code: str, wanted: Mapping[int, int], *, run: str) -> dict[int, Page]:
        """The pages of places ``wanted`` (step -> first place): kept, made here by the teacher's pager, or
        asked of the teacher's server and waited for (at most :data:`PAGE_WAIT` seconds)."""
        if not wanted:
            return {}
        names = [f"{step}:{start}" for step, start in wanted.items()]
        deadline = time.monotonic() + PAGE_WAIT
        asked = False
        while True:
            with self._changed:
                heard = self._news
            found = dict(zip(wanted, self._redis.hmget(self._key(code, "pages"), names), strict=True))
            missing = [step for step, raw in found.items() if raw is None]
            pager = self._pagers.get(code)
            if missing and pager is not None:  # the teacher's process: made here, outside any lock
                made = {}
                for step in missing:
                    page = pager.page(step, wanted[step])
                    if page is not None:
                        found[step] = made[f"{step}:{wanted[step]}"] = room_records.encode(page)
                if made and self._redis.hget(self._key(code), "run") == run.encode():
                    self._redis.hset(self._key(code, "pages"), mapping=made)
                    if self._redis.hlen(self._key(code, "pages")) > model.MAX_PAGES:
                        self._redis.delete(self._key(code, "pages"))  # (the oldest go: all, here)
                        self._redis.hset(self._key(code, "pages"), mapping=made)
                missing = []
            if not missing or time.monotonic() >= deadline:
                return {step: room_records.decode(raw) for step, raw in found.items() if raw is not None}
            if not asked:
                self._listen()
                for step in missing:
                    self._redis.publish(f"{self._prefix}:wanted", f"{code} {step} {wanted[step]}")
                asked = True
            self._news_after(heard, deadline)

    @_guarded
    def names(self, code: str) -> tuple[str, ...]:
        code = normal_code(code)
        if self._find(code) is None:
            return ()
        order = self._redis.lrange(self._key(code, "order"), 0, -1)
        if not order:
            return ()
        names = self._redis.hmget(self._key(code, "students"), order)
        return tuple(_text(n) for n in names if n is not None)

    def _pager(self, code: str) -> Pager | None:
        """The teacher's pager this server holds for room ``code`` (tests: it is let go at the end)."""
        self._find(code)
        return self._pagers.get(normal_code(code))
