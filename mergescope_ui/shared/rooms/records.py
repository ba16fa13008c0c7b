"""A room's records as JSON and back, for a store other processes share (:mod:`.redis_store`).

:func:`mergescope_ui.shared.stage.contract.wire` sends records one way, to the stage; a shared store
must read them back, so this codec tags them: a record is ``{"@": its class,
"f": {field: value}}``, a dict ``{"d": {key: value}}`` (string keys), a tuple a
list.  Only the classes of :data:`RECORDS` are ever made back (never a class a
stored name points to), so a store's content cannot run code; a field a newer
version added is left at its default.

>>> encode(Verdict("right", "Right!"))
'{"@":"Verdict","f":{"outcome":"right","message":"Right!"}}'
>>> decode('{"@":"os.system","f":{}}')
Traceback (most recent call last):
...
ValueError: a stored room record names os.system, not a room record: clear the store (its rooms are lost)
"""

from __future__ import annotations

import json
from dataclasses import MISSING, fields, is_dataclass
from typing import Any

from ..stage.contract import ButtonTitles, Place, Places, Span, StepView, TokenLabel, Window, Wording
from .model import Asked, Moment, Question, Verdict

_ROOM = (Asked, Moment, Question, Verdict)
_STAGE = (ButtonTitles, Place, Places, Span, StepView, TokenLabel, Window, Wording)
RECORDS: dict[str, type] = {cls.__name__: cls for cls in (*_ROOM, *_STAGE)}
_NAMES: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls)) for cls in RECORDS.values()}


def plain(value: Any) -> Any:
    """``value`` as tagged JSON-ready data (see the module's docstring).

    >>> plain({"a": (1, 2)}), plain(None)
    ({'d': {'a': [1, 2]}}, None)
    """
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    names = _NAMES.get(type(value))
    if names is not None:
        return {"@": type(value).__name__, "f": {n: plain(getattr(value, n)) for n in names}}
    if isinstance(value, dict) or (hasattr(value, "items") and not is_dataclass(value)):
        return {"d": {str(k): plain(v) for k, v in value.items()}}
    raise ValueError(f"{type(value).__name__} is not a room record: send the records of rooms.py")


def unplain(data: Any) -> Any:
    """The records :func:`plain` made ``data`` of (lists become tuples, as the records hold them)."""
    if data is None or isinstance(data, (str, int, float, bool)):
        return data
    if isinstance(data, list):
        return tuple(unplain(v) for v in data)
    if isinstance(data, dict) and "@" in data:
        name = data["@"]
        cls = RECORDS.get(name) if isinstance(name, str) else None
        if cls is None:
            raise ValueError(
                f"a stored room record names {name}, not a room record: clear the store (its rooms are lost)"
            )
        given = data.get("f") or {}
        kwargs = {}
        for f in fields(cls):
            if f.name in given:
                kwargs[f.name] = unplain(given[f.name])
            elif f.default is MISSING and f.default_factory is MISSING:
                raise ValueError(f"a stored {name} has no {f.name}: clear the store (its rooms are lost)")
        return cls(**kwargs)
    if isinstance(data, dict) and "d" in data:
        return {k: unplain(v) for k, v in data["d"].items()}
    raise ValueError("a stored room record is not one: clear the store (its rooms are lost)")


def encode(value: Any) -> str:
    """``value`` (a record, or tuples and dicts of them) as compact JSON."""
    return json.dumps(plain(value), separators=(",", ":"))


def decode(text: str | bytes) -> Any:
    """The records :func:`encode` wrote."""
    return unplain(json.loads(text))
