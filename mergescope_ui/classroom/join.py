"""Joining a room: the code (the join link fills it in) and a display name."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from mergescope_ui.shared.rooms import MAX_NAME, RoomError, clean_name, normal_code, room_store
from mergescope_ui.shared.safe_text import md_escape

from . import keys

TITLE = "🎓 Live room"


@dataclass(frozen=True, slots=True)
class Joined:
    """The room this session joined: its code, the student's id there, and the name they chose."""

    code: str
    student: str
    name: str


def join_form() -> Joined | None:
    """The page title, then the room joined, or the form to join one (None until joined)."""
    st.title(TITLE)
    joined: Joined | None = st.session_state.get(keys.JOINED)
    if joined is not None:
        return joined
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
        _join()
        joined = st.session_state.get(keys.JOINED)
        if joined is not None:
            st.rerun()
    return None


def _join() -> None:
    code = normal_code(str(st.session_state.get(keys.CODE, "")))
    if not code:
        st.error("Type the room code your teacher shows: 6 letters and digits.")
        return
    try:
        name = str(st.session_state.get(keys.NAME, ""))
        student = room_store().join(code, name)
    except (RoomError, ValueError) as exc:  # our own sentences, with a typed name in none of them
        st.error(md_escape(exc))
        return
    st.session_state[keys.JOINED] = Joined(code=code, student=student, name=clean_name(name))
    st.query_params["code"] = code
