"""Giving memory back: the server returns what ended sessions freed, instead of holding it for good.

glibc's allocator keeps most freed pages mapped, so the server's resident memory would stay at its
peak.  :func:`start_trimmer` (once per server, from ``app.py``) tunes glibc (:func:`tune_allocator`:
big blocks get pages of their own, at most two heaps) and starts a thread that every
:data:`TRIM_EVERY_SECONDS` (:func:`release`) drops expired cached results, collects cycles (Streamlit's
own collection is off, ``.streamlit/config.toml``) and returns free pages (``malloc_trim(0)``).

A full collection holds the interpreter lock over every tracked object, so the objects alive at the
start (the imported modules) are frozen out of its sight (``gc.freeze()``) and :func:`collect` runs
it only on a quiet server.  Elsewhere than glibc the allocator calls do nothing.
``bench/bench_load.py`` prints the effect; ``tests/browser/test_load.py`` holds it.

>>> isinstance(trim(), bool)
True
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time
from functools import cache

from .progress_cache import expire_all

TRIM_EVERY_SECONDS = 15.0
FULL_COLLECT_MAX_SECONDS = 0.2
"""A full collection this quick may run at every quiet tick (a class of 40's heap took 56-101 ms)."""
FULL_COLLECT_EVERY_SECONDS = 600.0
# The collector's thresholds (gc.set_threshold): a young collection after 20,000 new objects, not 700
# (Streamlit makes thousands a page run: with 700, a room of 40 made seven 400 ms full collections in 16 s).
GC_THRESHOLDS = (20_000, 20, 20)
MMAP_THRESHOLD = 128 * 1024  # glibc's default start value, kept fixed
ARENA_MAX = 2
_M_MMAP_THRESHOLD, _M_ARENA_MAX = -3, -8  # mallopt's parameter numbers (glibc's malloc.h)


@cache
def _libc() -> ctypes.CDLL | None:
    """glibc, or None where the C library has no ``malloc_trim`` (not glibc)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim, libc.mallopt  # noqa: B018 (present only in glibc)
    except (OSError, AttributeError):
        return None
    return libc


def trim() -> bool:
    """Return free heap pages to the system; True if glibc could."""
    libc = _libc()
    return bool(libc is not None and libc.malloc_trim(0))


_last_full = {"seconds": 0.0, "at": float("-inf")}


BUSY_COLLECTIONS = 3
"""A server whose collector ran this many times since the last tick is busy (sessions are running pages):
a tick then collects the young generations only."""
_collections = [0]  # the collector's runs since the last tick (counted by _count_collection)
_busy_since_full = [False]  # a tick found the server busy since the last full collection


def _count_collection(phase: str, info: dict[str, int]) -> None:
    """``gc.callbacks`` entry: count the collector's runs (automatic ones: allocation is activity)."""
    if phase == "start":
        _collections[0] += 1


def collect(*, now: float | None = None, busy: bool | None = None) -> int:
    """Collect cycles without a long stall; returns the generation collected (2: all, 1: the young).

    The whole heap only on a server not ``busy`` (default: :data:`BUSY_COLLECTIONS` runs of the collector
    since the last call), and then while the last full collection was quick, on the first quiet tick
    after a busy one, or once :data:`FULL_COLLECT_EVERY_SECONDS` passed since the last.

    >>> collect(busy=False) in (1, 2), collect(busy=True)
    (True, 1)
    """
    now = time.monotonic() if now is None else now
    busy = _collections[0] >= BUSY_COLLECTIONS if busy is None else busy
    quick = _last_full["seconds"] <= FULL_COLLECT_MAX_SECONDS
    due = quick or _busy_since_full[0] or now - _last_full["at"] >= FULL_COLLECT_EVERY_SECONDS
    if not busy and due:
        started = time.perf_counter()
        gc.collect()
        _last_full.update(seconds=time.perf_counter() - started, at=now)
        _busy_since_full[0] = False
        generation = 2
    else:
        gc.collect(1)
        _busy_since_full[0] = _busy_since_full[0] or busy
        generation = 1
    _collections[0] = 0  # counted from here: this collection is the tick's own, not the sessions'
    return generation


def release() -> bool:
    """Drop expired cached results, collect cycles, return free pages: what one tick of the thread does."""
    expire_all()
    collect()
    return trim()


def tune_allocator() -> bool:
    """Fix glibc's mmap threshold and cap its heaps (see the module docstring); True if glibc took both."""
    libc = _libc()
    if libc is None:
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) & bool(libc.mallopt(_M_ARENA_MAX, ARENA_MAX))


def _loop(every: float) -> None:
    while True:
        time.sleep(every)
        release()


_started: list[threading.Thread] = []
_lock = threading.Lock()


def start_trimmer(every: float = TRIM_EVERY_SECONDS) -> threading.Thread:
    """Tune the allocator and start the server's one (daemon) trimming thread, once; the thread."""
    with _lock:
        if not _started:
            tune_allocator()
            gc.collect()
            gc.freeze()  # what lives now (the imported modules) lives as long as the server
            gc.set_threshold(*GC_THRESHOLDS)
            gc.callbacks.append(_count_collection)
            thread = threading.Thread(target=_loop, args=(every,), name="mergescope-memory-trim", daemon=True)
            thread.start()
            _started.append(thread)
        return _started[0]
