"""Joining a room: the code (the join link fills it in) and a display name.

The tab keeps the room joined (:mod:`mergescope_ui.shared.tab_memory`: the code and the student's
id, never in a link), so a student who reloads the page is back in the room under the same name,
their answer kept, without joining again.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.rooms import MAX_NAME, RoomError, StoreError, clean_name, normal_code, room_store
from mergescope_ui.shared.rooms.client import client_address
from mergescope_ui.shared.tab_memory import browser_id, tab_memory

from . import keys
from .reach import unreachable

TITLE = "🎓 Live room"
UNREACHABLE_JOIN = "The room is unreachable just now: join again in a moment."


@dataclass(frozen=True, slots=True)
class Joined:
    """The room this session joined: its code, the student's id there, and the name they chose."""

    code: str
    student: str
    name: str


def join_form() -> Joined | None:
    """The page title, then the room joined, or the form to join one (None until joined)."""
    st.title(TITLE)
    store = room_store()
    joined: Joined | None = st.session_state.get(keys.JOINED)
    forget = st.session_state.pop(keys.FORGET, False)
    kept = tab_memory(
        "room-student", key=keys.MEMORY, value=kept_value(joined) if joined else ("" if forget else None)
    )
    if joined is not None:
        return joined
    place = None if forget or not kept else parse_kept(kept)
    try:
        name = store.member(*place) if place is not None else None
    except StoreError as exc:  # (a reload while the store fails: the room is looked at again)
        unreachable(exc, place[0] if place else "")
        return None
    if place is not None and name is not None:  # a reload: the tab kept it
        st.session_state[keys.JOINED] = Joined(code=place[0], student=place[1], name=name)
        st.rerun()
    browser = browser_id(key=keys.BROWSER)  # (a second tab of this browser joins as the same student)
    given = normal_code(str(st.query_params.get("code", "")))
    if given and not st.session_state.get(keys.CODE):
        st.session_state[keys.CODE] = given
    with st.form("room_join"):
        st.text_input("Room code", key=keys.CODE, max_chars=12, placeholder="6 letters and digits")
        st.text_input(
            "Your name",
            key=keys.NAME,
            max_chars=MAX_NAME,
            placeholder="as your teacher will see it",
        )
        submitted = st.form_submit_button("Join the room", type="primary", width="stretch")
    if submitted:
        _join(browser or "")
        joined = st.session_state.get(keys.JOINED)
        if joined is not None:
            st.rerun()
    return None


def kept_value(joined: Joined) -> str:
    """What the tab keeps of the room joined: its code and the student's id.

    >>> kept_value(Joined(code="ABC234", student="x_-Y9", name="Ada"))
    'ABC234 x_-Y9'
    """
    return f"{joined.code} {joined.student}"


def parse_kept(kept: str) -> tuple[str, str] | None:
    """The code and the student's id the tab kept (None: not such a pair).

    >>> parse_kept("ABC234 x_-Y9"), parse_kept("ABC234"), parse_kept("a b c")
    (('ABC234', 'x_-Y9'), None, None)
    """
    parts = kept.split(" ")
    if len(parts) != 2 or not all(parts) or len(kept) > 100:
        return None
    return parts[0], parts[1]


def _join(browser: str) -> None:
    code = normal_code(str(st.session_state.get(keys.CODE, "")))
    if not code:
        st.error("Type the room code your teacher shows: 6 letters and digits.")
        return
    try:
        name = str(st.session_state.get(keys.NAME, ""))
        store = room_store()
        student = store.join(code, name, browser=browser, address=client_address())
        seated = store.member(code, student)  # (a second tab: the name this browser joined under)
    except (RoomError, ValueError) as exc:  # our own sentences, with a typed name in none of them
        if isinstance(exc, StoreError) and not exc.damaged:
            exc = RoomError(UNREACHABLE_JOIN)  # (a student's words)
        st.error(md_escape(exc))
        return
    st.session_state[keys.JOINED] = Joined(code=code, student=student, name=seated or clean_name(name))
    st.query_params["code"] = code
