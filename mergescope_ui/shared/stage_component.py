"""The stage component: one screen for the current step, shared by every view that steps through something.

The Train page steps through a training run (:mod:`mergescope_ui.train.stage`);
other views (an encode trace, a classroom) send the same records of
:mod:`mergescope_ui.shared.stage_contract` and mount the same component.  Its
HTML, CSS and JavaScript are the constant files in ``stage_assets/``; every
string in the data is HTML-escaped on the server before it is sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from .stage_contract import Window, window_json

ASSETS = Path(__file__).with_name("stage_assets")
_COMPONENT = st.components.v2.component(
    "mergescope_stage",
    html=(ASSETS / "stage.html").read_text(encoding="utf-8"),
    css=(ASSETS / "stage.css").read_text(encoding="utf-8"),
    js=(ASSETS / "stage.js").read_text(encoding="utf-8"),
    isolate_styles=False,  # the page's token and card styles apply inside
)


def mount_stage(
    window: Window,
    *,
    key: str,
    on_shown: Callable[[], None],
    wired: dict[str, Any] | bytes | None = None,
) -> None:
    """Mount the stage under ``key`` with ``window``; ``on_shown`` runs when it reports another step, or
    asks again for the one it shows (its trigger ``ask``: a window came without that step).
    ``wired``: the window's data made already (a live room's :func:`body_with_serial`); by default
    :func:`~.stage_contract.window_json`: as bytes, Streamlit neither encodes it as JSON nor hashes that
    JSON at each mount, and each step view is encoded once for every session."""
    data = wired if wired is not None else window_json(window)
    _COMPONENT(key=key, data=data, on_shown_change=on_shown, on_ask_change=on_shown)


def pack_body(wired: dict[str, Any]) -> bytes:
    """A window's :func:`wire` data without its serial, as JSON bytes: encoded once for every student of a
    room, each one's serial spliced in by :func:`body_with_serial`.

    >>> pack_body({"position": 3, "views": []})
    b'{"position":3,"views":[]}'
    >>> pack_body({"serial": 1})
    Traceback (most recent call last):
    ValueError: the serial is spliced in per student: send the window's data without "serial"
    """
    if "serial" in wired:
        raise ValueError('the serial is spliced in per student: send the window\'s data without "serial"')
    return json.dumps(wired, separators=(",", ":")).encode()


def body_with_serial(body: bytes, *, serial: int) -> bytes:
    """A window's JSON ``body`` (:func:`pack_body`) with ``serial`` spliced in: what the stage reads.

    >>> body_with_serial(b'{"a":1}', serial=5), body_with_serial(b"{}", serial=5)
    (b'{"serial":5,"a":1}', b'{"serial":5}')
    >>> import json; json.loads(body_with_serial(pack_body({"position": 2}), serial=9))
    {'serial': 9, 'position': 2}
    """
    rest = body[1:]
    return b'{"serial":%d%s%s' % (serial, b"," if rest != b"}" else b"", rest)
