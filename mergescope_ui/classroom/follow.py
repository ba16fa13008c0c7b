"""Following a room: the teacher's step on the stage, the question, the reveal, the end.

A fragment that draws nothing (:func:`_poll`) runs every :data:`POLL_EVERY` seconds and waits up to
:data:`WAIT` seconds for the room's version to change (the room wakes it the moment the teacher acts),
then reruns the page.  The stage's window is made once per room, version and step for every student
(:func:`student_stage`): after a step the whole class redraws at once, and one build serves it.  A
student may step the stage back; it then stays there while the teacher moves on, until "Back to live"
or a step past the teacher's.  Pages of a step's places come from the room
(:meth:`.rooms.MemoryRooms.window`), made once for the whole room.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.html.styles import style
from mergescope_ui.shared.rooms import BLOCK, IDLE_SECONDS, RoomState, StoreError, room_store
from mergescope_ui.shared.stage.component import mount_stage
from mergescope_ui.shared.stage.contract import Window, read_shown
from mergescope_ui.shared.workers.progress_cache import ProgressCache

from . import keys
from .join import Joined
from .reach import leave, unreachable

# Seconds between two looks at the room, and how long a look waits for a change.  A run of the page that
# lasts half a second shows Streamlit's running man and Stop at the top of the phone (measured in
# chromium: a 0.9 s wait showed them half the time, 0.45 s never), so a look waits less than that.  A tap on
# the page waits for the look in progress to end: answering or looking back, the wait is shorter still.
POLL_EVERY, WAIT = 0.5, 0.35
POLL_EVERY_TAPPING, WAIT_TAPPING = 0.5, 0.2
ICONS = {"right": "🎉", "tied": "⚖️", "wrong": "🤔"}
FOLLOW_CSS = style(Path(__file__).with_name("assets") / "follow.css")  # read once


def follow(joined: Joined) -> None:
    """The room as this student sees it now (or the word that it ended, or that it cannot be reached)."""
    try:
        _follow(joined)
    except StoreError as exc:
        unreachable(exc, joined.code)


def _follow(joined: Joined) -> None:
    store = room_store()
    state = store.state(joined.code, student=joined.student)
    if state is None or state.closed:
        _ended(state)
        return
    ss = st.session_state
    ss.setdefault(keys.SERIAL, 1)
    ss.setdefault(keys.FOLLOWING, True)
    if ss[keys.FOLLOWING] and ss.get(keys.LIVE_SENT) != state.position:
        _new_serial()  # the stage moves to the teacher's new step
        ss[keys.LIVE_SENT] = state.position
    ss[keys.SEEN] = state.version
    st.html(FOLLOW_CSS)
    st.html(
        f'<div class="ms-room-line"><span>Room <b>{html.escape(state.code)}</b></span>'
        f"<span>You: {html.escape(joined.name)}</span>"
        f"<span>Teacher at step {state.position:,}</span></div>"
    )
    if state.away:
        st.warning(
            "Your teacher has left the room: their page closed, lost its connection, or has been in the "
            "background a while. You can look back through the steps; the room goes on when they are back.",
            icon="👋",
        )
    with st.container(key="room_question"):
        _question(state, joined)
    with st.container(key="room_live"):
        if ss[keys.FOLLOWING]:
            st.html('<div class="ms-room-live" role="status">● Live: you see your teacher\'s step</div>')
        else:
            st.button(
                f"⏩ Back to live (step {state.position:,})",
                key="room_to_live",
                on_click=_to_live,
                type="primary",
                width="stretch",
            )
    at = state.position if ss[keys.FOLLOWING] else int(ss.get(keys.LOOKING_AT, state.position))
    drawn = student_stage(
        joined.code, state.version, at=at, serial=ss[keys.SERIAL], starts=ss.get(keys.STARTS)
    )
    if drawn is not None:
        drawn = hide_counts(drawn, state)
    if drawn is None:
        st.info("Waiting for your teacher's first step…")
    else:
        with st.container(key="room_stage_box"):  # (follow.css: no Play on a student's stage)
            mount_stage(drawn, key=keys.STAGE, on_shown=functools.partial(_on_shown, joined.code))
    asked = state.asked
    tapping = not ss[keys.FOLLOWING] or (asked is not None and not asked.revealed and state.mine is None)
    every, wait = (POLL_EVERY_TAPPING, WAIT_TAPPING) if tapping else (POLL_EVERY, WAIT)
    ss[keys.INLINE] = True  # the poll's next call is part of this page run: it must not hold it up
    st.fragment(_poll, run_every=every)(joined.code, wait)


def _poll(code: str, wait: float) -> None:
    """Rerun the page when the room changed since it was drawn: wait for a change (the room wakes every
    waiting student the moment the teacher acts), at most ``wait`` seconds."""
    seen = st.session_state.get(keys.SEEN)
    inline = st.session_state.pop(keys.INLINE, False)  # (the page's run, not the poll's own: no wait)
    try:
        now = room_store().wait(code, seen, timeout=0.0 if inline else wait)
    except StoreError:
        now = None  # the page says it cannot reach the room, and looks again
    if now != seen:
        st.rerun(scope="app")


MAX_WINDOWS = 256  # stage windows kept, for every student of every room of this server
_WINDOWS: ProgressCache[Window] = ProgressCache(entries=MAX_WINDOWS)


def student_stage(
    code: str, version: int, *, at: int, serial: int, starts: Mapping[int, int] | None
) -> Window | None:
    """The stage's window at step ``at`` of room ``code`` (as of ``version``) with this student's
    ``serial``, made once for every student who shows the same step of the same room (a class redraws
    at once after a step: one build, forty serials)."""
    key = (code, version, at, tuple(sorted((starts or {}).items())))
    window = _WINDOWS.get(key)
    if window is None:
        window = room_store().window(code, position=at, serial=serial, starts=starts)
        if window is None:
            return None
        _WINDOWS.put(key, window)
    return replace(window, serial=serial)


def hide_counts(window: Window, state: RoomState) -> Window:
    """The stage's ``window``, its ranked counts at the step the room's question is about hidden while
    the question is open (the second bar is often the answer); they come with the reveal."""
    asked = state.asked
    if asked is None or asked.revealed:
        return window
    return replace(window, hidden_counts=asked.question.step - 1)


def _new_serial() -> None:
    """The server moves the stage: it shows the step it is sent, from the first place."""
    st.session_state[keys.SERIAL] = st.session_state.get(keys.SERIAL, 1) + 1
    st.session_state[keys.STARTS] = {}


def _to_live() -> None:
    st.session_state[keys.FOLLOWING] = True
    _new_serial()


def _on_shown(code: str) -> None:
    """The student stepped the stage: looking back, at the teacher's step (live), or past it (to live)."""
    ss = st.session_state
    report = read_shown((ss.get(keys.STAGE) or {}).get("shown"))
    try:
        state = room_store().state(code)
    except StoreError:
        return  # (the page's run says so)
    if report is None or report.serial != ss.get(keys.SERIAL) or state is None:
        return  # not a report, or one about a window already replaced
    position = report.position
    if position <= state.position:  # the places it pages through (made once for the room)
        ss.setdefault(keys.STARTS, {})[position] = report.start
    if position >= state.position:
        ss[keys.FOLLOWING] = True
        if position > state.position:  # Next at the teacher's step: no step past it to see
            _to_live()
    else:
        ss[keys.FOLLOWING] = False
        ss[keys.LOOKING_AT] = position


def _answer(code: str, student: str, number: int, choice: str) -> None:
    try:
        taken = room_store().answer(code, student, number, choice)
    except StoreError:
        st.session_state[keys.NOTE] = "Your answer was not sent: the room is unreachable just now; try again."
        return
    if not taken:
        st.session_state[keys.NOTE] = "Your answer was not taken: the question has closed."


def _question(state: RoomState, joined: Joined) -> None:
    """The open question with a button per pair, the answer sent, or the reveal and the verdict."""
    asked = state.asked
    note = st.session_state.pop(keys.NOTE, "")
    if note:
        st.warning(md_escape(note))
    if asked is None:
        if state.askable:
            st.caption(
                "When your teacher asks which pair merges next (or would, with a pair blocked), answer here."
            )
        return
    q = asked.question
    shown = dict(zip(q.choices, q.shown, strict=True))
    if not asked.revealed:
        if state.mine is None:
            # 🚫: the teacher's what-if (a pair blocked)
            st.markdown(
                f"**{'🚫' if q.kind == BLOCK else '❓'} Question {asked.number}: {md_escape(q.prompt)}**"
            )
            for n, (choice, label) in enumerate(shown.items()):
                st.button(
                    md_escape(label),
                    key=f"room_answer_{asked.number}_{n}",
                    on_click=_answer,
                    args=(joined.code, joined.student, asked.number, choice),
                    width="stretch",
                )
        else:
            st.info(f"Your answer: {md_escape(shown.get(state.mine, state.mine))}. Wait for the reveal.")
        return
    verdict = q.verdicts.get(state.mine) if state.mine else None
    if verdict is None:
        st.info(f"Question {asked.number}: the answer was {md_escape(shown.get(q.answer, q.answer))}.")
        return
    st.html(
        f'<div class="ms-room-verdict ms-{html.escape(verdict.outcome)}" role="status">'
        f"{ICONS.get(verdict.outcome, '')} Question {asked.number}: {html.escape(verdict.message)}.</div>"
    )


def _ended(state: RoomState | None) -> None:
    """The room ended (or is gone): say so, and offer the lesson to replay and another room."""
    if state is None:
        st.warning("This room has closed: your teacher ended it, or it is over. Ask for the new code.")
    elif state.reason == "expired":
        st.warning(f"This room has closed: it was idle for {IDLE_SECONDS // 60} minutes.")
    elif state.reason == "empty":
        st.warning("This room has closed: nobody joined it in time. Ask your teacher for the new code.")
    else:
        st.warning("This room has closed: your teacher ended the lesson.")
    lesson = state.lesson if state is not None else ""
    if lesson.startswith(("http://", "https://", "/")):
        st.link_button("🔁 Replay the lesson at your own pace", lesson, width="stretch")
    st.button("Join another room", key="room_leave", on_click=leave)
