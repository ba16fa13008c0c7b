"""A long-lived worker process that keeps one session's heavy objects and answers requests (no Streamlit).

A training run is stepped and asked for tables many times over minutes, and its trainer's state (a
10 MB text as ten million linked ids) is far too big to send back and forth as a job's result
(:mod:`.jobs`).  A :class:`SessionWorker` is a process (started as a job's is) that keeps such
objects and answers requests about them, module-level functions ``fn(ctx, *args, **kwargs)`` with a
:class:`Context`, while the server's thread waits on a pipe.  Each request has the
:class:`~.jobs.Limits` time limit, the process its memory limit; an interrupted wait asks the worker
to stop early and hands what it returns to ``late``.  The process ends with its object, on
:meth:`~SessionWorker.stop`, with the server, and at most :data:`MAX_WORKERS` live at once.  One
idle for ``idle_after`` seconds ends itself; the next request starts a new one, which replays the
requests written down (:meth:`~SessionWorker.remember`: the engine is deterministic, so the same
objects come under the same handles).

>>> worker = SessionWorker(name="doc")
>>> worker.call(_add, 20, 22)
42
>>> worker.call(_add, -1, 0)
Traceback (most recent call last):
...
ValueError: -1 is negative: give a positive number
>>> worker.stop()
>>> worker.alive
False

Let go after 0.2 s idle, the worker holds its kept object again at the next request:

>>> worker = SessionWorker(name="doc", idle_after=0.2)
>>> handle = worker.call(_keep, "kept")
>>> worker.remember(_keep, "kept")  # how to make it again
>>> time.sleep(1.0)
>>> worker.alive, worker.call(_kept, handle), worker.restarts
(False, 'kept', 1)
>>> worker.stop()
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import itertools
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Hashable
from multiprocessing.connection import Connection
from typing import Any, Final, NoReturn

from .. import hosting
from .jobs import FAILED, MEGABYTE, MEMORY, PROGRESS_EVERY, Limits, Request, outcome, start_process

MAX_WORKERS: Final = hosting.positive_int("MERGESCOPE_SESSION_WORKERS")
"""Session workers alive at once in one server (``MERGESCOPE_SESSION_WORKERS``)."""
LOOK_EVERY: Final = 0.1  # seconds between two looks at the worker while a request runs
IDLE_SECONDS: Final = hosting.seconds("MERGESCOPE_WORKER_IDLE_SECONDS")
"""A session worker with no request for this long ends itself (``0``: never; see the module docstring)."""
IDLE_EXIT: Final = 75  # the exit code of a worker that ended idle (it had no request running)

ProgressFn = Callable[[int, int], object]
LateFn = Callable[[Any], object]


class Context:
    """What a request's function gets in the worker: the kept objects, progress, and the stop flag."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._objects: dict[int, Any] = {}
        self._ids = itertools.count(1)
        self._request, self._stopped, self._last = 0, False, 0.0

    def put(self, obj: Any) -> int:
        """Keep ``obj``; returns its handle for later requests."""
        handle = next(self._ids)
        self._objects[handle] = obj
        return handle

    def get(self, handle: int) -> Any:
        """The object kept under ``handle`` (ValueError when there is none)."""
        try:
            return self._objects[handle]
        except KeyError:
            raise ValueError(f"this worker keeps no object {handle}; start the run again") from None

    def drop(self, handle: int) -> None:
        self._objects.pop(handle, None)

    def progress(self, done: int, total: int, note: str = "") -> None:
        """Tell the waiting page how far the request is (at most every :data:`~.jobs.PROGRESS_EVERY`)."""
        now = time.monotonic()
        if now - self._last >= PROGRESS_EVERY:
            self._last = now
            self._conn.send(("progress", self._request, int(done), int(total), str(note)))

    def stopped(self) -> bool:
        """True once the page stopped waiting for this request: end it early with what is done."""
        while not self._stopped and self._conn.poll():
            message = self._conn.recv()
            if message[0] == "stop" and message[1] == self._request:
                self._stopped = True
            elif message[0] == "drop":
                self.drop(message[1])
            # a stop for an earlier request (it ended before the stop came) means nothing now
        return self._stopped

    def _begin(self, request: int) -> None:
        self._request, self._stopped, self._last = request, False, 0.0


class _EndedIdle(Exception):
    """The worker ended itself idle before it read the request: a new one can answer it."""


class SessionWorker:
    """One worker process and the requests sent to it (see the module docstring)."""

    def __init__(
        self, *, limits: Limits | None = None, name: str = "session", idle_after: float | None = None
    ) -> None:
        self.limits = limits or Limits()
        self.name = name
        self.idle_after = IDLE_SECONDS if idle_after is None else idle_after
        self.message = ""
        self.restarts = 0  # new processes started after one ended idle
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._pending: tuple[int, float, LateFn | None] | None = None
        self._drops: deque[int] = deque()
        self._released: set[int] = set()
        self._journal: dict[Hashable, Request] = {}
        self._entries = itertools.count()
        self._holds = False  # the process keeps objects (as of its last answer)
        self._due = False  # a new process is due (a restart was interrupted)
        self._spawn()

    def _spawn(self) -> None:
        """Start the process (refused past :data:`MAX_WORKERS`)."""
        with _registry_lock:
            live = sum(w.alive for w in _live)  # a count: a list would keep them alive through the collection
            if live >= MAX_WORKERS:
                gc.collect()  # workers of sessions that ended but were not collected yet
                live = sum(w.alive for w in _live)
            if live >= MAX_WORKERS:
                raise ValueError(
                    f"the server already holds {live} large runs of other sessions, its limit; try a "
                    "smaller text, or again in a few minutes"
                )
            memory, name = self.limits.memory_bytes, f"mergescope-{self.name}"
            try:
                self._process, self._conn = start_process(
                    _serve, self.idle_after, memory=memory, name=name, duplex=True
                )
            except (OSError, ValueError) as exc:
                raise ValueError(
                    f"could not start a worker process ({type(exc).__name__}); try again in a minute"
                ) from None
            _live.add(self)
        self._finalizer = weakref.finalize(self, _end_process, self._process, self._conn)

    # ----- what callers use -----
    @property
    def alive(self) -> bool:
        return not self.message and self._process.is_alive()

    @property
    def idle(self) -> bool:
        """True when the process ended itself idle (the next request starts a new one)."""
        return not self.message and not self._process.is_alive() and self._process.exitcode == IDLE_EXIT

    @property
    def pid(self) -> int | None:
        return int(self._process.pid) if self._process.pid is not None else None

    def remember(
        self, fn: Callable[..., Any], *args: Any, key: Hashable | None = None, **kwargs: Any
    ) -> None:
        """Write down ``fn(ctx, *args, **kwargs)``, a request that made what this worker keeps: a new
        process (after this one ended idle) runs them, in order, before its first request.  An entry
        with an earlier one's ``key`` takes its place (how far a run trained: only the last counts)."""
        self._journal[next(self._entries) if key is None else key] = (fn, args, kwargs)

    def call(
        self,
        fn: Callable[..., Any],
        *args: Any,
        progress: ProgressFn | None = None,
        late: LateFn | None = None,
        beat: bool = False,
        **kwargs: Any,
    ) -> Any:
        """Run ``fn(ctx, *args, **kwargs)`` in the worker and return its value.

        ``progress(done, total)`` is called as the worker reports (with ``beat``, also at each look at a
        silent worker, with the last figures: a page drawing a bar there notices a click within
        :data:`LOOK_EVERY`).  The request's ``ValueError`` comes back as one; a worker that ended (a
        limit, cancel, crash) raises one with the reason, now and at every later call.  When this wait
        is interrupted (an exception out of ``progress``), the worker is asked to stop early and
        ``late(value)`` gets what the request returned, before the next call.
        """
        with self._lock:
            with contextlib.suppress(_EndedIdle):  # that request was never read: nothing to hand over
                self._finish_pending(progress, beat)
            for _ in range(3):
                self._check()
                if self._due or self.idle:
                    self._restart(progress, beat)
                try:
                    return self._ask((fn, args, kwargs), progress, late, beat)
                except _EndedIdle:
                    continue  # it ended just before reading this request: a new process answers it
            self._fail("the worker process kept ending before it read a request; start the run again")

    def _ask(self, call: Request, progress: ProgressFn | None, late: LateFn | None, beat: bool) -> Any:
        request = next(self._ids)
        try:
            while self._drops:
                self._conn.send(("drop", self._drops.popleft()))
            self._conn.send(("call", request, *call))
        except (OSError, ValueError):
            self._dead()
        deadline = time.monotonic() + self.limits.seconds
        self._pending = (request, deadline, late)
        try:
            return self._receive(request, deadline, progress, beat)
        except _EndedIdle:
            raise
        except BaseException:
            if self._pending is not None:  # the page stopped waiting: let the worker stop too
                with contextlib.suppress(OSError, ValueError):
                    self._conn.send(("stop", request))
            raise

    def _restart(self, progress: ProgressFn | None, beat: bool) -> None:
        """A new process for one that ended idle, holding again what the requests written down made."""
        if self._holds and not self._journal:
            self._fail(
                f"this run's worker process was let go after {self.idle_after:g} s without a request, to "
                "free the server's memory for others, and what it held with it; start the run again"
            )
        self._finalizer()
        self._spawn()  # past the server's limit: a ValueError now, and the next request tries again
        self.restarts += 1
        self._due, self._holds = True, False
        try:
            for call in list(self._journal.values()):
                self._ask(call, progress, None, beat)
        except _EndedIdle:
            return  # it ended idle again: the next request starts afresh
        except ValueError as exc:
            self._fail(f"the run could not be brought back after its worker was let go idle ({exc})")
        except BaseException:  # the page stopped waiting: half replayed, the next request starts afresh
            self._pending = None
            self._finalizer()
            raise
        self._due = False
        self._drops.clear()
        self._drops.extend(self._released.copy())

    def release(self, handle: int) -> None:
        """Let the worker drop the object under ``handle`` (sent with the next call; safe from any thread)."""
        self._released.add(handle)
        self._drops.append(handle)

    def stop(self, message: str = "cancelled: the run was stopped") -> None:
        """End the worker now; every later call raises ``ValueError(message)``."""
        if not self.message:
            self.message = message
        self._finalizer()

    # ----- waiting -----
    def _check(self) -> None:
        if self.message:
            raise ValueError(self.message)

    def _fail(self, message: str) -> NoReturn:
        """End the worker with ``message`` (unless it ended already) and raise its ``ValueError``."""
        self._pending = None
        self.stop(message)
        raise ValueError(self.message)

    def _dead(self) -> None:
        """The process is gone: a new one when it ended idle (:class:`_EndedIdle`), else the reason."""
        with contextlib.suppress(Exception):
            self._process.join(timeout=2)  # its exit code
        if self.idle:
            self._pending = None
            raise _EndedIdle
        self._fail(f"the worker process stopped (exit code {self._process.exitcode}); start the run again")

    def _finish_pending(self, progress: ProgressFn | None = None, beat: bool = False) -> None:
        """Wait for an interrupted request's answer and hand it to its ``late`` callback."""
        if self._pending is None:
            return
        request, deadline, late = self._pending
        try:
            value = self._receive(request, deadline, progress, beat)
        except ValueError:
            return  # the request failed: nothing to hand over (a dead worker raises in _check)
        if late is not None:
            late(value)

    def _receive(self, request: int, deadline: float, progress: ProgressFn | None, beat: bool = False) -> Any:
        conn = self._conn
        last = (0, 0)
        while True:
            wait = min(LOOK_EVERY, deadline - time.monotonic())
            try:
                ready = wait > 0 and conn.poll(wait)
            except (OSError, EOFError):
                ready = False
            if ready:
                try:
                    kind, got, *rest = conn.recv()
                except (OSError, EOFError):
                    self._dead()
                if got != request:
                    continue  # an answer to a request abandoned long ago
                if kind == "progress":
                    last = (rest[0], rest[1])
                    if progress is not None:
                        progress(*last)
                    continue
                self._pending = None
                if kind == "done":
                    self._holds = rest[1]
                    return rest[0]
                if kind == FAILED:
                    self._holds = rest[1]
                    raise ValueError(rest[0])
                self._fail(
                    f"stopped: the run needed more than {self.limits.memory_bytes // MEGABYTE} MB, this "
                    "server's memory limit for one session's worker; try a smaller text or fewer steps "
                    "(merges or rounds)"
                )
            elif not self._process.is_alive():
                self._dead()
            elif time.monotonic() >= deadline:
                self._fail(
                    f"stopped after {self.limits.seconds:g} s, this server's time limit for one request; "
                    "try a smaller text or fewer steps (merges or rounds)"
                )
            elif beat and progress is not None:
                progress(*last)


def _end_process(process: Any, conn: Connection) -> None:
    """Kill a worker's process and close its pipe (the finalizer: it must not hold the worker)."""
    with contextlib.suppress(Exception):
        if process.is_alive():
            process.kill()
        process.join(timeout=5)
    with contextlib.suppress(OSError):
        conn.close()


# ----- the server's workers -----
_live: weakref.WeakSet[SessionWorker] = weakref.WeakSet()
_registry_lock = threading.Lock()


def live_workers() -> list[SessionWorker]:
    """The workers whose process runs now."""
    with _registry_lock:
        return [w for w in _live if w.alive]


def stop_all(message: str = "cancelled: the server is stopping") -> None:
    """End every worker (at the interpreter's exit)."""
    for worker in list(_live):
        worker.stop(message)


atexit.register(stop_all)


# ----- in the worker process -----
def _serve(conn: Connection, idle_after: float = 0.0) -> None:
    """A session's worker: answer requests until the pipe closes (``idle_after`` idle: :data:`IDLE_EXIT`)."""
    ctx = Context(conn)
    while True:
        try:
            if idle_after > 0 and not conn.poll(idle_after):
                os._exit(IDLE_EXIT)  # what it kept goes with it: the server replays what it wrote down
            message = conn.recv()
        except (EOFError, OSError):
            return  # the server closed the pipe
        if message[0] == "drop":
            ctx.drop(message[1])
            continue
        if message[0] != "call":
            continue  # a stop for a request that had ended
        _, request, fn, args, kwargs = message
        ctx._begin(request)
        failed = "the worker failed ({}); try a smaller input"
        kind, value = outcome((fn, (ctx, *args), kwargs), failed=failed, log="mergescope session worker")
        try:
            conn.send((kind, request, value, bool(ctx._objects)))
        except MemoryError:
            conn.send((MEMORY, request))
        if kind == MEMORY:
            return  # what the objects hold may be half made: the server ends this worker


def _keep(ctx: Context, obj: Any) -> int:
    """The module docstring's object kept."""
    return ctx.put(obj)


def _kept(ctx: Context, handle: int) -> Any:
    return ctx.get(handle)


def _add(ctx: Context, a: int, b: int) -> int:
    """The module docstring's request."""
    if a < 0:
        raise ValueError(f"{a} is negative: give a positive number")
    return a + b
