"""A room the student cannot reach (its store fails), and leaving a room: what the room page says and does."""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.rooms import StoreError, room_store

from . import keys

UNREACHABLE = "The room is unreachable just now: retrying every few seconds…"
RETRY_EVERY = 2.0  # seconds between two looks at a room that could not be reached


def unreachable(exc: StoreError, code: str) -> None:
    """The one line a student sees while room ``code``'s store fails, and a look again every
    :data:`RETRY_EVERY` seconds (the page reruns once it answers); a room whose record cannot be read
    offers another room instead."""
    if exc.damaged:
        st.warning(md_escape(exc), icon="📡")
        st.button("Join another room", key="room_leave", on_click=leave)
        return
    st.warning(UNREACHABLE, icon="📡")
    st.fragment(_retry, run_every=RETRY_EVERY)(code)


def _retry(code: str) -> None:
    try:
        room_store().version(code)  # does the store answer?
    except StoreError:
        return
    st.rerun(scope="app")


def leave() -> None:
    """Leave the room joined: the page shows the form again, and the tab forgets the room."""
    st.session_state[keys.FORGET] = True
    for key in keys.IN_ROOM:
        st.session_state.pop(key, None)
