"""The stage component: one screen for the current step, shared by every view that steps through something.

The Train page steps through a training run (:mod:`mergescope_ui.train.stage`);
other views (an encode trace, a classroom) send the same records of
:mod:`mergescope_ui.shared.stage.contract` and mount the same component.  Its
HTML, CSS and JavaScript are the constant files in ``assets/``; every
string in the data is HTML-escaped on the server before it is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

from .contract import Window, window_json

ASSETS = Path(__file__).with_name("assets")
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
) -> None:
    """Mount the stage under ``key`` with ``window``; ``on_shown`` runs when it reports another step, or
    asks again for the one it shows (its trigger ``ask``: a window came without that step).
    The window goes as :func:`~.stage_contract.window_json`: as bytes, Streamlit neither encodes it as
    JSON nor hashes that JSON at each mount, and each step view is encoded once for every session."""
    _COMPONENT(key=key, data=window_json(window), on_shown_change=on_shown, on_ask_change=on_shown)
