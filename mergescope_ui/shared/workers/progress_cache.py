"""A small thread-safe LRU for calls that report progress, shared by every session (:mod:`.cache` says why).

>>> cache = ProgressCache(entries=2)
>>> cache.put("a", 1); cache.put("b", 2); cache.get("a"); cache.put("c", 3)
1
>>> cache.get("b"), cache.get("a"), len(cache)
(None, 1, 2)

With ``seconds``, an entry not used for that long is dropped (at the next call, or by
:func:`expire_all`, which the server's memory thread calls):

>>> clock = [0.0]
>>> timed = ProgressCache(entries=2, seconds=60, clock=lambda: clock[0])
>>> timed.put("a", 1); clock[0] = 50; timed.get("a"); clock[0] = 100; timed.get("a")
1
1
>>> clock[0] = 161; timed.get("a"), len(timed)
(None, 0)
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class ProgressCache(Generic[V]):
    """The ``entries`` most recently used results by key, dropped ``seconds`` after their last use if set."""

    def __init__(
        self, entries: int, *, seconds: float | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if entries < 1:
            raise ValueError(f"a cache needs at least 1 entry, not {entries}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"a cache's lifetime must be a positive number of seconds, not {seconds}")
        self.entries, self.seconds, self._clock = entries, seconds, clock
        self._data: OrderedDict[Hashable, tuple[V, float]] = OrderedDict()  # oldest use first
        self._lock = threading.Lock()
        if seconds is not None:
            _TIMED.add(self)

    def expire(self) -> None:
        """Drop the entries unused for longer than the lifetime."""
        with self._lock:
            self._expire(self._clock())

    def _expire(self, now: float) -> None:
        while self._data and self.seconds is not None:
            _, used = next(iter(self._data.values()))
            if now - used <= self.seconds:
                return
            self._data.popitem(last=False)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            now = self._clock()
            self._expire(now)
            found = self._data.get(key)
            if found is None:
                return None
            self._data[key] = (found[0], now)
            self._data.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, result: V) -> None:
        with self._lock:
            now = self._clock()
            self._expire(now)
            self._data[key] = (result, now)
            self._data.move_to_end(key)
            while len(self._data) > self.entries:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        with self._lock:
            self._expire(self._clock())
            return len(self._data)


_TIMED: weakref.WeakSet[ProgressCache[Any]] = weakref.WeakSet()  # the caches with a lifetime


def expire_all() -> None:
    """Drop every timed cache's expired entries (so a result leaves memory even if no one asks again)."""
    for cache in list(_TIMED):
        cache.expire()
