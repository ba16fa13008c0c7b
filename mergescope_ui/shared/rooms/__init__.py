"""Live classroom rooms: a teacher drives, students follow and answer.

May import :mod:`mergescope_ui.shared.stage` and :mod:`mergescope_ui.shared.html`, never a page package.
:mod:`.model` holds a room's records and :class:`RoomStore` (the interface and its rules);
:class:`MemoryRooms` (:mod:`.memory`) and :mod:`.redis_store` (with :mod:`.records`) keep the rooms,
without Streamlit; :mod:`.host` is the teacher's side on a page.

>>> t = [0.0]
>>> rooms = MemoryRooms(clock=lambda: t[0])
>>> code, host = rooms.open()
>>> len(code), rooms.hosted(host) == code
(6, True)
>>> ada = rooms.join(code, "  Ada <b>L</b> ")
>>> rooms.names(code)
('Ada <b>L</b>',)
>>> t[0] += IDLE_SECONDS + 1
>>> rooms.state(code).closed, rooms.state(code).reason
(True, 'expired')

A whole lesson (publish, ask, answer, reveal) is in ``tests/ui/shared/test_rooms.py``.
"""

from __future__ import annotations

import threading
from typing import Any

from .. import hosting
from .memory import MemoryRooms
from .model import (
    BLOCK,
    IDLE_SECONDS,
    MAX_NAME,
    NEXT,
    PRUNE,
    Moment,
    Question,
    RoomError,
    RoomState,
    RoomStore,
    StoreError,
    Verdict,
    clean_name,
    normal_code,
)

__all__ = [
    "BLOCK",
    "IDLE_SECONDS",
    "MAX_NAME",
    "NEXT",
    "PRUNE",
    "MemoryRooms",
    "Moment",
    "Question",
    "RoomError",
    "RoomState",
    "RoomStore",
    "StoreError",
    "Verdict",
    "clean_name",
    "normal_code",
    "room_store",
    "store_from",
]

_STORE: RoomStore[Any] | None = None
_STORE_LOCK = threading.Lock()


def room_store() -> RoomStore[Any]:
    """The process-wide store, made on first use (:func:`store_from` ``MERGESCOPE_ROOMS``)."""
    global _STORE
    with _STORE_LOCK:
        if _STORE is None:
            _STORE = store_from(hosting.raw("MERGESCOPE_ROOMS"))
        return _STORE


def store_from(setting: str) -> RoomStore[Any]:
    """The store ``MERGESCOPE_ROOMS`` names: unset, empty or ``memory``: this process's own
    (:class:`MemoryRooms`); a Redis URL: :class:`.redis_store.RedisRooms` (it connects on first use).

    >>> type(store_from("")).__name__, type(store_from(" memory ")).__name__
    ('MemoryRooms', 'MemoryRooms')
    >>> store_from("postgres://x")
    Traceback (most recent call last):
    ...
    ValueError: MERGESCOPE_ROOMS=postgres://x is no Redis URL: give redis://HOST:6379/0 or leave it unset
    """
    setting = setting.strip()
    if setting in ("", "memory"):
        return MemoryRooms()
    from .redis_store import RedisRooms  # (imports the redis client only when it is used)

    return RedisRooms.from_url(setting)
