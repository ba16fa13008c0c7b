"""A memo of at most a given number of entries, the oldest dropped first (the stage views of a run).

>>> made = {}
>>> remember(made, "a", lambda: 1, limit=2), remember(made, "b", lambda: 2, limit=2)
(1, 2)
>>> remember(made, "a", lambda: 9, limit=2), remember(made, "c", lambda: 3, limit=2), list(made)
(1, 3, ['b', 'c'])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


def remember(memo: dict[_K, _V], key: _K, make: Callable[[], _V], *, limit: int) -> _V:
    """``memo[key]``, made by ``make()`` the first time; past ``limit`` entries the oldest goes first."""
    if key not in memo:
        if len(memo) >= limit:
            memo.pop(next(iter(memo)))
        memo[key] = make()
    return memo[key]
