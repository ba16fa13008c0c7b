"""A memo of at most a given number of entries, the oldest dropped first (the stage views of a run), and
one that every session shares (:class:`SharedMemo`: the Train page's tables of a step).

>>> made = {}
>>> remember(made, "a", lambda: 1, limit=2), remember(made, "b", lambda: 2, limit=2)
(1, 2)
>>> remember(made, "a", lambda: 9, limit=2), remember(made, "c", lambda: 3, limit=2), list(made)
(1, 3, ['b', 'c'])
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, MutableMapping
from typing import TypeVar

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


def remember(memo: MutableMapping[_K, _V], key: _K, make: Callable[[], _V], *, limit: int) -> _V:
    """``memo[key]``, made by ``make()`` the first time; past ``limit`` entries the oldest goes first."""
    if key not in memo:
        value = make()
        while len(memo) >= limit:
            memo.pop(next(iter(memo)))
        memo[key] = value
    return memo[key]


class SharedMemo:
    """A memo every session of the server shares, of at most ``limit`` entries (the oldest dropped first),
    safe across the sessions' threads: what a class on one lesson draws alike is made once.  ``make``
    runs outside the lock (two sessions may make one value at once; the first kept wins).

    >>> memo, made = SharedMemo(limit=2), []
    >>> memo.get("a", lambda: made.append("a") or 1), memo.get("a", lambda: made.append("a") or 9), made
    (1, 1, ['a'])
    >>> memo.get("b", lambda: 2), memo.get("c", lambda: 3), len(memo)
    (2, 3, 2)
    """

    def __init__(self, *, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        self.limit = limit
        self._memo: dict[Hashable, object] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], _V]) -> _V:
        """The value for ``key``, made by ``make()`` the first time (for any session)."""
        with self._lock:
            if key in self._memo:
                return self._memo[key]  # type: ignore[return-value]  # one key, one kind of value
        value = make()
        with self._lock:
            return remember(self._memo, key, lambda: value, limit=self.limit)  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self._memo)
