"""The teacher's side of a live room (issue 26): open it, show how to join, ask, reveal, end.

A page that steps through a lesson calls :func:`host_room` at each run of the part that reruns at
each step, with a function that makes the :class:`~.model.Moment` it shows.  Until the teacher opens
a room it draws one button; then it publishes the moment at every run and draws the room: its code
and join link large, a QR code, Ask / Ask what-if / Reveal / End room, and the answers as they arrive
(a part that reruns alone every second while a question is open).  The host key stays in this session
and this tab (:mod:`..tab_memory`), so a reload finds the room again and no link carries it.
"""

from __future__ import annotations

import functools
import html
import io
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeAlias

import pandas as pd
import segno
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ..html.csv_cells import csv_bytes
from ..html.safe_text import md_escape
from ..html.styles import style
from ..tab_memory import tab_memory
from . import room_store
from .client import SESSION, client_address, session_id
from .model import (
    IDLE_SECONDS,
    Moment,
    Pager,
    Question,
    RoomError,
    RoomState,
    RoomStore,
    StoreError,
    Summary,
    name_html,
)

HOST = "_room_host"  # plain: the host key of the room this session drives
ENDED = "_room_ended"  # plain: the Summary of the room this session ended last
FORGET = "_room_forget"  # plain: the tab should forget the host key (the room was ended here)
NOTE = "_room_note"  # plain: a sentence for the teacher after a button (an error a button met)
MEMORY = "room_tab_memory"  # the tab memory component (the host key across reloads)
JOIN_PAGE = "room"  # the students' page, beside the teacher's
MAX_LISTED = 40  # names listed under the room (the rest counted)
ANSWERS_EVERY = 1.0  # seconds between two looks at the answers while a question is open
PRESENT_EVERY = 2.0  # seconds between two words that the teacher's page is there (model.AWAY_AFTER: gone)
ROOM_CSS = style(Path(__file__).with_name("assets") / "room.css")


def join_url(code: str, *, here: str) -> str:
    """The link students open: the students' page beside ``here`` (this page's URL), with the code.

    >>> join_url("ABC234", here="http://10.0.0.5:8501/train")
    'http://10.0.0.5:8501/room?code=ABC234'
    >>> join_url("ABC234", here="https://school.example/mergescope/train")
    'https://school.example/mergescope/room?code=ABC234'
    """
    return urllib.parse.urljoin(here or "/", JOIN_PAGE) + "?code=" + urllib.parse.quote(code)


@functools.lru_cache(maxsize=16)
def qr_png(url: str) -> bytes:
    """A QR code of ``url`` as PNG bytes (dark on white, a quiet zone of 4), made once per link.

    >>> qr_png("http://localhost:8501/room?code=ABC234")[:4] == b"\\x89PNG"
    True
    """
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="png", scale=8, border=4)
    return out.getvalue()


def summary_table(summary: Summary) -> pd.DataFrame:
    """The summary's questions as a table (the CSV is this table)."""
    columns = [
        "question",
        "asked",
        "merge",
        "blocked",
        "answer",
        "answered",
        "right",
        "tied",
        "wrong",
        "share right",
    ]
    return pd.DataFrame(summary.rows(), columns=columns)


# The step shown -> the what-if question about the next merge (None: none can be made there).
WhatIfMaker: TypeAlias = Callable[[int], Question | None]


def hosting() -> bool:
    """Whether this session holds a room (the page then reports each step to it at once)."""
    return st.session_state.get(HOST) is not None


def lesson_link(url: str) -> str:
    """``url`` without presenter mode: the link a room gives its students, who replay the lesson on a phone.

    >>> lesson_link("http://h/train?corpus=a&presenter=true&step=4")
    'http://h/train?corpus=a&step=4'
    """
    parts = urllib.parse.urlsplit(url)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "presenter"]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def host_room(
    moment: Callable[[], Moment],
    *,
    what_if: WhatIfMaker | None = None,
    pager: Pager | None = None,
    quiz: bool = True,
    ask: str = "which pair merges next?",
) -> None:
    """The room of this session: a button to open one, or the open room (``moment`` is published).

    ``what_if`` makes the what-if question at the step shown (None: none); ``pager`` the pages of places
    students ask for (None: the first ones); ``quiz``: the page asks questions at all (an encode trace:
    no Ask, no Reveal); ``ask``: the question the Ask button poses, in a few words.  A store that fails
    is one line above the lesson (:class:`~.model.StoreError`): the room is tried again at the next run,
    or, its record lost, let go so a new one can be opened."""
    try:
        _host_room(moment, what_if=what_if, pager=pager, quiz=quiz, ask=ask)
    except StoreError as exc:
        if exc.damaged:  # the tab forgets the key of a room that cannot be read; this page may open another
            st.session_state.pop(HOST, None)
            st.session_state.pop(SESSION, None)
            st.session_state[FORGET] = True
        st.warning(md_escape(exc), icon="📡")
        if exc.damaged:
            _closed_room(quiz=quiz)


def _host_room(
    moment: Callable[[], Moment],
    *,
    what_if: WhatIfMaker | None,
    pager: Pager | None,
    quiz: bool,
    ask: str,
) -> None:
    store = room_store()
    host: str | None = st.session_state.get(HOST)
    code = store.hosted(host) if host else None
    gone = host is not None and code is None  # it ended or expired while this page was away
    if gone:
        st.session_state.pop(HOST, None)
        host = None
    forget = gone or st.session_state.pop(FORGET, False)
    kept = tab_memory("room-host", key=MEMORY, value=host or ("" if forget else None))
    if host is None and not forget and kept and (code := store.hosted(kept)):  # a reload: the tab kept it
        host = st.session_state[HOST] = kept
    note = st.session_state.pop(NOTE, "")
    if note:
        st.warning(md_escape(note))
    if gone:
        st.info(
            f"Your live room has ended: idle for {IDLE_SECONDS // 60} minutes, nobody joined it in its first "
            f"{store.limits.empty_seconds / 60:g} minutes, or ended elsewhere. Open a new one when needed."
        )
    if host is None or code is None:
        _closed_room(quiz=quiz)
        return
    try:
        store.publish(host, moment(), pager=pager)
    except StoreError:
        raise  # (said by host_room)
    except RoomError as exc:
        st.warning(md_escape(exc))
        return
    state = store.state(code)
    if state is not None:
        _open_room(host, state, what_if, quiz=quiz, ask=ask)


def _closed_room(*, quiz: bool) -> None:
    """No room open: the summary of the one just ended (with its CSV), and the button to open one."""
    summary: Summary | None = st.session_state.get(ENDED)
    if summary is not None:
        with st.container(border=True, key="room_summary"):
            st.subheader(f"Room {md_escape(summary.code)}: summary")
            asked = len(summary.questions)
            st.markdown(
                f"**{len(summary.steps):,}** steps shown · **{asked:,}** question{'s' * (asked != 1)} asked "
                f"· **{summary.students:,}** student{'s' * (summary.students != 1)} joined"
            )
            table = summary_table(summary)
            if asked:
                st.dataframe(table, hide_index=True)
            st.download_button(
                "⬇ Summary as CSV",
                csv_bytes(table),
                file_name=f"mergescope_room_{summary.code}.csv",
                mime="text/csv",
                key="room_csv",
                on_click="ignore",
            )
    st.button(
        "📡 Open a live room",
        key="room_open",
        on_click=_open,
        help="Students join on their phones with a code and follow your steps live"
        + ("; you can ask them which pair merges next and see their answers arrive." if quiz else "."),
    )


def _open() -> None:
    try:
        _, host = room_store().open(session=session_id(), address=client_address())
    except RoomError as exc:
        st.session_state[NOTE] = str(exc)
        return
    st.session_state[HOST] = host
    st.session_state.pop(ENDED, None)


def _act(action: Callable[[str], object]) -> None:
    """Run a teacher's button on the room (what it could not do is said above the room)."""
    host = st.session_state.get(HOST)
    if not host:
        return
    try:
        result = action(host)
    except RoomError as exc:
        st.session_state[NOTE] = str(exc)
        return
    if isinstance(result, Summary):
        st.session_state[ENDED] = result
        st.session_state[FORGET] = True  # the tab forgets the key
        st.session_state.pop(HOST, None)


def _ask_what_if(store: RoomStore[Any], what_if: WhatIfMaker, position: int) -> Callable[[str], object]:
    """The what-if button's action: make the question at the step the room shows, then pose it."""

    def ask(host: str) -> int:
        try:
            question = what_if(position)
        except ValueError as exc:  # the engine could not branch there: its sentence
            raise RoomError(f"The what-if could not be made here: {exc}.") from exc
        if question is None:
            raise RoomError("With that pair blocked no pair could merge instead: step on, or ask the quiz.")
        return store.ask(host, question)

    return ask


def _open_room(host: str, state: RoomState, what_if: WhatIfMaker | None, *, quiz: bool, ask: str) -> None:
    """The open room: how to join (large), the buttons, and the answers."""
    store = room_store()
    url = join_url(state.code, here=st.context.url or "")
    with st.container(border=True, key="room_box"):
        st.html(ROOM_CSS)
        words, picture = st.columns([3, 1], vertical_alignment="center")
        with words:
            st.html(
                '<div class="ms-room"><span>📡 Live room</span>'
                f'<span class="ms-room-code" aria-label="Room code">{html.escape(state.code)}</span>'
                f'<span class="ms-room-link">Join at <b>{html.escape(url)}</b></span></div>'
            )
            asking: DeltaGenerator | None = None
            block: DeltaGenerator | None = None
            reveal: DeltaGenerator | None = None
            if not quiz:
                _, end = st.columns([3, 1])
            elif what_if is None:
                asking, reveal, end = st.columns(3)
            else:  # two rows: the questions (long labels, whole on a projector), then Reveal and End
                asking, block = st.columns(2)
                reveal, end = st.columns(2)
            asked = state.asked
            open_question = asked is not None and not asked.revealed
            busy = open_question or state.finished
            if asking is not None:
                _button(asking, f"❓ Ask: {ask}", "room_ask", store.ask, disabled=busy)
            if block is not None and what_if is not None:
                _button(
                    block,
                    "🚫 Ask the what-if: block that pair, which merges?",
                    "room_ask_what_if",
                    _ask_what_if(store, what_if, state.position),
                    disabled=busy,
                    help="Block the pair the next merge makes: which pair would merge instead? The students "
                    "answer from the pair table; the reveal explains it (ties too).",
                )
            if reveal is not None:
                _button(reveal, "💡 Reveal", "room_reveal", store.reveal, disabled=not open_question)
            _button(end, "⏹ End room", "room_end", store.close)
        with picture:
            st.image(qr_png(url), width=200, caption="Scan to join")
        st.fragment(_answers, run_every=ANSWERS_EVERY if open_question else None)(state.code)
        st.fragment(_present, run_every=PRESENT_EVERY)(host)


def _present(host: str) -> None:
    """Tell the room this page is there (a browser that closed stops saying it: the students read that the
    teacher left).  A room that ended meanwhile: the page redraws to say so."""
    try:
        room_store().present(host)
    except StoreError:
        return  # (the page's next run says it)
    except RoomError:
        st.rerun(scope="app")


def _button(
    place: DeltaGenerator, label: str, key: str, action: Callable[[str], object], **options: Any
) -> None:
    """A teacher's button as wide as its column: ``action`` runs on the room (:func:`_act`)."""
    place.button(label, key=key, on_click=_act, args=(action,), width="stretch", **options)


def _answers(code: str) -> None:
    """Who joined, and the answers to the question asked last (a bar per pair, the share right)."""
    try:
        state = room_store().state(code)
        names = room_store().names(code) if state is not None else ()
    except StoreError as exc:
        st.caption(md_escape(exc))
        return
    if state is None:
        return
    shown = ", ".join(name_html(n) for n in names[:MAX_LISTED]) + (" …" if len(names) > MAX_LISTED else "")
    line = f"👥 {state.students:,} student{'s' * (state.students != 1)} joined" + (
        f' <span class="ms-room-names">({shown})</span>' if names else ""
    )
    asked, tally = state.asked, state.tally
    if asked is None or tally is None:
        st.html(f'<div class="ms-room-count">{line}. Step through the lesson: they follow.</div>')
        return
    share = f"{tally.right / tally.answered:.0%}" if tally.answered else "–"
    status = "revealed" if asked.revealed else "open"
    st.html(
        f'<div class="ms-room-count">{line} · question {asked.number} ({status}): '
        f"{html.escape(asked.question.prompt)} <b>{tally.answered:,}</b> answered · "
        f"<b>{share}</b> right</div>"
    )
    top = max(tally.counts.values(), default=0) or 1
    rows = []
    for choice, shown in zip(asked.question.choices, asked.question.shown, strict=True):
        n = tally.counts.get(choice, 0)
        right = asked.revealed and choice == asked.question.answer
        rows.append(
            f'<span class="ms-a-label{" ms-a-right" if right else ""}">{html.escape(shown)}'
            f"{' ✔' if right else ''}</span>"
            f'<span class="{"ms-a-right" if right else ""}"><span class="ms-a-bar" '
            f'style="width:{100 * n / top:.0f}%"></span></span><span>{n:,}</span>'
        )
    st.html(f'<div class="ms-answers" role="list" aria-label="Answers per pair">{"".join(rows)}</div>')
