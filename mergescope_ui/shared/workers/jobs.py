"""Heavy work in worker processes, so that one student's upload cannot freeze the class (no Streamlit).

The server's sessions share one interpreter lock (a 10 MB tokenizer file loaded on the server's
thread held it for minutes), so a :class:`Runner` runs each heavy job in a process of its own:
started safely (:func:`worker_context`, never ``fork`` in the threaded server); bounded (``slots``
running, ``queue`` waiting, :data:`MAX_JOBS_PER_OWNER` a session); limited (:class:`Limits`: past its
time the runner kills the process, past its memory ``RLIMIT_AS`` raises ``MemoryError`` in it);
watched (:class:`Progress` through a pipe, :meth:`Runner.cancel`); owned (a job nobody asked about
for ``stale_after`` seconds is killed: its page left); and ended with the server (an ``atexit`` hook,
and each worker watches the server's process, so even a killed server leaves nothing running).

A job is a module-level function ``fn(*args, progress=report, **kwargs)`` (``report(done, total,
note="")``) that returns compact data; a ``ValueError`` it raises is the user's message (:func:`outcome`).
One thread per runner reads the pipes, enforces the limits and starts waiting jobs.

>>> runner = Runner(slots=1)
>>> job = runner.submit(_double, 21, owner="doc")
>>> runner.wait(job, timeout=60).value
42
>>> runner.wait(runner.submit(_double, -1, owner="doc"), timeout=60).message
'-1 is negative: give a positive number'
>>> runner.shutdown()
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import multiprocessing
import os
import resource
import signal
import sys
import threading
import time
import types
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Final, TypeAlias

from .. import hosting

MEGABYTE: Final = 1024 * 1024
PRELOAD: Final = [
    "bpe_core",
    "mergescope_ui.shared.workers.jobs",
    "mergescope_ui.shared.inputs.tokenizer_files",
    "mergescope_ui.lab.compute",
    "mergescope_ui.shared.workers.session_worker",
    "mergescope_ui.shared.workers.remote_trainer",
    "mergescope_ui.train.scheme_driver",
]
"""Imported once by the fork server, so that a job starts without importing them again."""
MAX_JOBS_PER_OWNER: Final = 2
DEFAULT_SLOTS: Final = hosting.positive_int("MERGESCOPE_JOB_SLOTS")
"""Jobs running at once in one server (``MERGESCOPE_JOB_SLOTS``)."""
DEFAULT_QUEUE: Final = 16
STALE_SECONDS: Final = 20.0
"""A job nobody has asked about for this long is killed (a waiting page asks several times a second)."""
FORGET_AFTER: Final = 600.0  # seconds an ended job's record is kept for a page that has not asked yet
PROGRESS_EVERY: Final = 0.1  # seconds between two progress messages from one worker (more are dropped)

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
CANCELLED, TIMEOUT, MEMORY, REAPED = "cancelled", "timeout", "memory", "reaped"
ENDED: Final = frozenset({DONE, FAILED, CANCELLED, TIMEOUT, MEMORY, REAPED})
STOPPED_MESSAGE: Final = "cancelled: the job was stopped"  # a job's message after its Cancel
Request: TypeAlias = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]  # a call: fn, args, kwargs


def worker_context(method: str | None = None) -> Any:
    """The multiprocessing context a worker starts from: ``method``, by default ``forkserver`` (which
    preloads :data:`PRELOAD`) or ``spawn`` where there is none; never ``fork``."""
    methods = multiprocessing.get_all_start_methods()
    method = method or ("forkserver" if "forkserver" in methods else "spawn")
    if method == "fork":
        raise ValueError("fork is not safe inside a threaded server; use forkserver or spawn")
    context: Any = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(PRELOAD)
    return context


def start_process(
    target: Callable[..., None], *args: Any, memory: int, name: str, duplex: bool = False, context: Any = None
) -> tuple[Any, Connection]:
    """Start ``target(pipe, *args)`` in a daemon worker process (from ``context``, by default
    :func:`worker_context`'s) after :func:`start_worker` (``memory``: its limit in bytes); the process,
    and the server's end of the pipe.  The worker starts with a bare ``__main__``: a new process runs the
    parent's ``__main__`` again (multiprocessing's main fixup), in Streamlit the page script.  (No page
    file may take a standard module's name either: its folder is on ``sys.path`` under AppTest.)"""
    context = context or worker_context()
    parent, child = context.Pipe(duplex=duplex)
    boot = (os.getpid(), memory, target, child, *args)
    process = context.Process(target=_boot, args=boot, name=name, daemon=True)
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        process.start()
    finally:
        child.close()
        if main is not None:
            sys.modules["__main__"] = main
    return process, parent


@dataclass(frozen=True, slots=True)
class Limits:
    """What one job may use: ``seconds`` of running time and ``memory_bytes`` of address space.

    >>> Limits(seconds=0)
    Traceback (most recent call last):
    ...
    ValueError: a job's time limit must be positive, not 0; give seconds > 0
    """

    seconds: float = 120.0
    memory_bytes: int = 1536 * MEGABYTE

    def __post_init__(self) -> None:
        if not self.seconds > 0:
            raise ValueError(f"a job's time limit must be positive, not {self.seconds}; give seconds > 0")
        if self.memory_bytes < 64 * MEGABYTE:
            raise ValueError(
                f"a job's memory limit of {self.memory_bytes} bytes is below 64 MB, too little for Python; "
                "give more"
            )


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a job is: ``done`` of ``total`` units (``total`` 0: unknown), and what it is doing."""

    done: int = 0
    total: int = 0
    note: str = ""

    @property
    def fraction(self) -> float:
        """``done / total`` within 0..1 (0 when the total is unknown).

        >>> Progress(3, 4).fraction, Progress(9, 4).fraction, Progress(1, 0).fraction
        (0.75, 1.0, 0.0)
        """
        return min(1.0, self.done / self.total) if self.total > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Status:
    """A job as a page sees it: its state, its progress, and once ended its value or message."""

    job: str
    state: str
    progress: Progress
    value: Any = None
    message: str = ""
    pid: int | None = None
    ahead: int = 0  # jobs queued before this one

    @property
    def ended(self) -> bool:
        return self.state in ENDED

    @property
    def ok(self) -> bool:
        return self.state == DONE


@dataclass(eq=False)
class _Job:
    id: str
    owner: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    limits: Limits
    seen: float
    process: Any = None  # multiprocessing.process.BaseProcess once started
    conn: Connection | None = None
    started: float = 0.0
    state: str = QUEUED
    progress: Progress = field(default_factory=Progress)
    value: Any = None
    message: str = ""


class Runner:
    """Worker processes for heavy jobs, shared by every session of one server (see the module doc)."""

    def __init__(
        self,
        *,
        slots: int = DEFAULT_SLOTS,
        queue: int = DEFAULT_QUEUE,
        stale_after: float = STALE_SECONDS,
        method: str | None = None,
        tick: float = 0.2,
    ) -> None:
        if slots < 1:
            raise ValueError(f"a runner needs at least 1 slot, not {slots}")
        self._context = worker_context(method)
        self.slots, self.queue, self.stale_after, self.tick = slots, queue, stale_after, tick
        self._jobs: dict[str, _Job] = {}
        self._waiting: deque[str] = deque()
        self._lock = threading.RLock()
        self._ids = itertools.count(1)
        self._stopped = False
        self._wake_r, self._wake_w = multiprocessing.Pipe(duplex=False)
        self._thread = threading.Thread(target=self._watch, name="mergescope-jobs", daemon=True)
        self._thread.start()

    # ----- what pages call -----
    def submit(
        self, fn: Callable[..., Any], *args: Any, owner: str, limits: Limits | None = None, **kwargs: Any
    ) -> str:
        """Queue ``fn(*args, progress=..., **kwargs)`` for ``owner``; returns the job's id.

        Refused (ValueError) when the owner already has :data:`MAX_JOBS_PER_OWNER` jobs not yet
        ended, or the queue is full.
        """
        with self._lock:
            if self._stopped:
                raise ValueError("the server is stopping; try again in a minute")
            mine = [j for j in self._jobs.values() if j.owner == owner and j.state not in ENDED]
            if len(mine) >= MAX_JOBS_PER_OWNER:
                raise ValueError(
                    f"this session already has {len(mine)} jobs running; wait for one to finish or cancel it"
                )
            if len(self._waiting) >= self.queue:
                raise ValueError(
                    f"the server is busy ({len(self._waiting)} jobs waiting); try again in a minute"
                )
            job = _Job(
                id=f"job-{next(self._ids)}",
                owner=owner,
                fn=fn,
                args=args,
                kwargs=kwargs,
                limits=limits or Limits(),
                seen=time.monotonic(),
            )
            self._jobs[job.id] = job
            self._waiting.append(job.id)
            self._start_waiting()
        self._wake()
        return job.id

    def status(self, job: str) -> Status:
        """Where ``job`` stands (asking keeps it alive for another ``stale_after`` seconds)."""
        with self._lock:
            j = self._jobs.get(job)
            if j is None:
                return Status(job, REAPED, Progress(), message="this job is no longer known; start it again")
            j.seen = time.monotonic()
            ahead = self._waiting.index(job) if j.state == QUEUED else 0
            pid = j.process.pid if j.process is not None else None
            return Status(job, j.state, j.progress, j.value, j.message, pid, ahead)

    def known(self, job: str) -> bool:
        """True while the runner keeps ``job``'s record (until :meth:`forget`, or long after it ended)."""
        with self._lock:
            return job in self._jobs

    def cancel(self, job: str, *, message: str = STOPPED_MESSAGE) -> None:
        """End ``job`` and its process now (nothing happens to a job already ended)."""
        with self._lock:
            j = self._jobs.get(job)
            if j is not None and j.state not in ENDED:
                self._end(j, CANCELLED, message)
        self._wake()

    def cancel_owner(self, owner: str) -> None:
        """End every job of ``owner`` (its session ended)."""
        self._cancel_all("cancelled: its session ended", owner)

    def _cancel_all(self, message: str, owner: str | None = None) -> None:
        with self._lock:
            for j in list(self._jobs.values()):
                if owner in (None, j.owner) and j.state not in ENDED:
                    self._end(j, CANCELLED, message)

    def forget(self, job: str) -> None:
        """Drop ``job``'s record (ending it first if it still runs), freeing its value."""
        self.cancel(job)
        with self._lock:
            self._jobs.pop(job, None)

    def wait(self, job: str, *, timeout: float | None = None, every: float = 0.05) -> Status:
        """Block until ``job`` ends (asking its status meanwhile); for scripts and tests, not for pages."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            status = self.status(job)
            if status.ended:
                return status
            if deadline is not None and time.monotonic() > deadline:
                self.cancel(job, message=f"cancelled: no result after {timeout} s")
                return self.status(job)
            time.sleep(every)

    def jobs(self) -> list[Status]:
        """Every job still on record, oldest first."""
        with self._lock:
            return [self._peek(i) for i in self._jobs]

    def pids(self) -> list[int]:
        """The processes of jobs that are running now."""
        with self._lock:
            return [
                j.process.pid for j in self._jobs.values() if j.state == RUNNING and j.process is not None
            ]

    def shutdown(self) -> None:
        """Kill every job process and stop the watching thread (the server is stopping)."""
        with self._lock:
            self._stopped = True
            self._cancel_all("cancelled: the server is stopping")
        self._wake()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    # ----- the watching thread -----
    def _peek(self, job: str) -> Status:
        with self._lock:
            j = self._jobs[job]
            return Status(job, j.state, j.progress, j.value, j.message)

    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # the runner was shut down
            self._wake_w.send_bytes(b"")

    def _watch(self) -> None:
        while True:
            with self._lock:
                if self._stopped and not any(j.state == RUNNING for j in self._jobs.values()):
                    return
                running = [j for j in self._jobs.values() if j.state == RUNNING]
                handles: list[Any] = [self._wake_r]
                for j in running:
                    handles += [j.conn, j.process.sentinel]
            try:
                ready = wait(handles, timeout=self.tick)
            except (OSError, ValueError):  # a job ended (its pipe closed) meanwhile
                ready = []
            if self._wake_r in ready:
                while self._wake_r.poll():
                    self._wake_r.recv_bytes()
            with self._lock:
                now = time.monotonic()
                for j in running:
                    if j.state != RUNNING:
                        continue
                    self._read(j)
                    if j.state != RUNNING:
                        continue
                    if not j.process.is_alive():
                        self._read(j)  # what it sent just before it ended
                        if j.state == RUNNING:
                            code = j.process.exitcode
                            self._end(j, FAILED, f"the worker stopped without a result (exit code {code})")
                    elif now - j.started > j.limits.seconds:
                        limit = f"{j.limits.seconds:g} s, this server's time limit for one job"
                        self._end(j, TIMEOUT, f"stopped after {limit}; try a smaller input")
                for j in list(self._jobs.values()):
                    if j.state in (QUEUED, RUNNING) and now - j.seen > self.stale_after:
                        self._end(j, REAPED, "stopped: nobody was waiting for it any more")
                    elif j.state in ENDED and now - j.seen > FORGET_AFTER:
                        del self._jobs[j.id]  # an end nobody came back for
                self._start_waiting()

    def _read(self, j: _Job) -> None:
        """Take every message ``j``'s worker has sent so far."""
        if j.conn is None:
            return
        try:
            while j.state == RUNNING and j.conn.poll():
                kind, *rest = j.conn.recv()
                if kind == "started":  # the time limit counts from here, not from the process start
                    j.started = time.monotonic()
                elif kind == "progress":
                    j.progress = Progress(*rest)
                elif kind == "done":
                    self._end(j, DONE, "", value=rest[0])
                elif kind == MEMORY:
                    limit = f"{j.limits.memory_bytes // MEGABYTE} MB, this server's memory limit for one job"
                    self._end(j, MEMORY, f"stopped: the job needed more than {limit}; try a smaller input")
                else:
                    self._end(j, FAILED, rest[0])
        except (EOFError, OSError):
            pass  # the worker is gone; the caller looks at its exit code

    def _start_waiting(self) -> None:
        while self._waiting and sum(j.state == RUNNING for j in self._jobs.values()) < self.slots:
            j = self._jobs.get(self._waiting.popleft())
            if j is None or j.state != QUEUED:
                continue
            try:
                memory, call = j.limits.memory_bytes, (j.fn, j.args, j.kwargs)
                j.process, j.conn = start_process(
                    _work, call, memory=memory, name=f"mergescope-{j.id}", context=self._context
                )
            except (OSError, ValueError) as exc:
                self._end(j, FAILED, f"could not start a worker process ({type(exc).__name__}: {exc})")
                continue
            j.started, j.state = time.monotonic(), RUNNING

    def _end(self, j: _Job, state: str, message: str, *, value: Any = None) -> None:
        """Record how ``j`` ended and make sure its process is gone."""
        j.state, j.message, j.value = state, message, value
        j.fn, j.args, j.kwargs = _nothing, (), {}  # the inputs (an upload's bytes) are freed now
        if j.id in self._waiting:
            self._waiting.remove(j.id)
        if j.process is not None:
            if j.process.is_alive():
                j.process.kill()
            j.process.join(timeout=5)
        if j.conn is not None:
            j.conn.close()


def _nothing() -> None:
    """What an ended job's function is replaced with."""


# ----- in the worker process -----
def _work(conn: Connection, call: Request) -> None:
    """A job's worker: make the ``call``, reporting its progress, and send how it ended."""
    last = [0.0]

    def report(done: int, total: int, note: str = "") -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY or (total and done >= total):
            last[0] = now
            conn.send(("progress", int(done), int(total), str(note)))

    conn.send(("started",))
    fn, args, kwargs = call
    failed = "the job failed ({}); try a smaller or simpler input"
    ended = outcome((fn, args, {**kwargs, "progress": report}), failed=failed, log="mergescope job failed")
    try:
        conn.send(ended)
    except MemoryError:
        conn.send((MEMORY, None))


def outcome(call: Request, *, failed: str, log: str) -> tuple[str, Any]:
    """How the ``call`` ``(fn, args, kwargs)`` ended, in a worker: ``("done", value)``, ``("memory", None)``
    or ``("failed", message)``: a ``ValueError``'s own, else ``failed`` with the exception's name (the
    page never gets a traceback; the server's stderr gets ``log`` and the exception)."""
    fn, args, kwargs = call
    try:
        return DONE, fn(*args, **kwargs)
    except MemoryError:
        return MEMORY, None  # what the call held is freed before anything is sent
    except ValueError as exc:
        return FAILED, str(exc) or "the input could not be used"
    except Exception as exc:
        print(f"{log}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return FAILED, failed.format(type(exc).__name__)


WORKER_NICE: Final = 10
"""How much lower a worker's CPU priority is than the server's: on 2 cores, two heavy jobs would
otherwise take both from the sessions' pages."""


def _boot(server: int, memory_bytes: int, target: Callable[..., None], *args: Any) -> None:
    """In a new worker: :func:`start_worker`, then ``target(*args)``."""
    start_worker(server, memory_bytes)
    target(*args)


def start_worker(server: int, memory_bytes: int) -> None:
    """What every worker process does first (a job's and a session's): leave Ctrl+C to the server, end
    with it (:func:`_orphan_watch`), limit the memory it adds, and yield the CPU to it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C on the server's terminal is the server's
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_orphan_watch, args=(server, os.getppid()), daemon=True).start()
    # The limit is on what the job adds: a worker starts with the fork server's modules mapped (some
    # hundreds of MB of address space, most of it never touched).
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _address_space() + memory_bytes
    resource.setrlimit(
        resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard)
    )
    os.nice(WORKER_NICE)


def _address_space() -> int:
    """This process's address space in bytes now (0 where /proc does not say)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _orphan_watch(server: int, parent: int) -> None:
    """End this worker when the server process is gone (even killed, with no chance to clean up): its
    parent (the fork server, which ends with the server) changed, or the server is no more."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(1)
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:
            pass


def _double(n: int, *, progress: Callable[..., None]) -> int:
    """The module docstring's job."""
    if n < 0:
        raise ValueError(f"{n} is negative: give a positive number")
    progress(1, 1)
    return 2 * n


# ----- the server's one runner -----
_runner: list[Runner] = []
_runner_lock = threading.Lock()


def runner() -> Runner:
    """The server's runner, made on first use and shut down when the interpreter exits."""
    with _runner_lock:
        if not _runner:
            _runner.append(Runner())
            atexit.register(_runner[0].shutdown)
        return _runner[0]
