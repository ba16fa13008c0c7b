"""A small thread-safe LRU for calls that report progress (pure Python; no Streamlit).

Why it exists instead of ``st.cache_resource``: see :mod:`mergescope_ui.shared.cache`.
Values are immutable results shared by every session of the server process.

>>> cache = ProgressCache(entries=2)
>>> cache.put("a", 1); cache.put("b", 2); cache.get("a"); cache.put("c", 3)
1
>>> cache.get("b"), cache.get("a"), len(cache)
(None, 1, 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class ProgressCache(Generic[V]):
    """The ``entries`` most recently used results, by key (a tuple of digests and settings)."""

    def __init__(self, entries: int) -> None:
        if entries < 1:
            raise ValueError(f"a cache needs at least 1 entry, not {entries}")
        self.entries = entries
        self._data: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
            return found

    def put(self, key: Hashable, result: V) -> None:
        with self._lock:
            self._data[key] = result
            self._data.move_to_end(key)
            while len(self._data) > self.entries:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)
