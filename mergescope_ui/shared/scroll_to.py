"""Bring a part of the page into view once, as a result appears (a components v2 component, no iframe).

Streamlit keeps the scroll position when a rerun draws something new further down, so a result a
click produced can appear out of sight.  :func:`scroll_to` mounted in the run that first draws the
result scrolls the main area until the elements ``selector`` names sit just under Streamlit's header.
Mount it in that run only (a flag popped from ``session_state``): it does nothing on later reruns.
Its JavaScript is ``assets/scroll_to.js``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

_COMPONENT = st.components.v2.component(
    "mergescope_scroll_to",
    js=(Path(__file__).with_name("assets") / "scroll_to.js").read_text(encoding="utf-8"),
    isolate_styles=False,
)


def scroll_to(selector: str, *, key: str, serial: int) -> None:
    """Scroll the elements ``selector`` matches (a constant CSS selector, never user text) into view,
    once per ``serial``."""
    _COMPONENT(key=key, data={"selector": selector, "serial": str(serial)})
