"""A value this browser tab keeps across reloads (its ``sessionStorage``), with no cookie and no URL.

A teacher's room is driven by a secret (the host key, :mod:`mergescope_ui.shared.rooms`) that must
not travel in a link a teacher may copy or show as a QR code.  The tab keeps it
instead: ``sessionStorage`` lives as long as the tab, survives a reload, and is
not shared with other tabs or other browsers.  After a reload the new session
has no key; :func:`tab_memory` mounts a small component (components v2, no
iframe; ``assets/tab_memory.js``) that reads what the tab kept and sends it back, and the page
reruns with it.
"""

from __future__ import annotations

import re
from pathlib import Path

import streamlit as st

_MEMORY = st.components.v2.component(
    "mergescope_tab_memory",
    js=(Path(__file__).with_name("assets") / "tab_memory.js").read_text(encoding="utf-8"),
)


def tab_memory(name: str, *, key: str, value: str | None) -> str | None:
    """Keep ``value`` in this tab under ``name`` ("" forgets it); with ``value`` None, what the tab kept
    (None until the browser has answered, which reruns the page)."""
    known = (st.session_state.get(key) or {}).get("value")
    _MEMORY(key=key, data={"name": name, "value": value, "known": known}, on_value_change=lambda: None)
    return str(known) if isinstance(known, str) and known else None


_BROWSER_ID = re.compile(r"[0-9a-f]{32}")


def browser_id(*, key: str) -> str | None:
    """This browser's own id, the same in each of its tabs (its ``localStorage``; made there on its first
    visit): a room seats a browser once.  None until the browser has answered (which reruns the page), or
    when it keeps nothing (a private window); anything but 32 hex digits is not taken."""
    known = (st.session_state.get(key) or {}).get("value")
    data = {"name": "browser", "value": None, "known": known, "lasting": True}
    _MEMORY(key=key, data=data, on_value_change=lambda: None)
    return known if isinstance(known, str) and _BROWSER_ID.fullmatch(known) else None
