"""Watch it encode, live (issue 26): a teacher opens a room from the encode stage, students follow it.

The room itself (open, join, end) is :mod:`mergescope_ui.shared.rooms.host`; this module gives it
the encode trace's side: the stage's window up to the step the teacher shows (never past it), no
question (an encode trace has no next merge to guess: the rule picks the lowest rank, known in
advance), the link that replays the trace, and the trace's views as the pager of places.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import replace

import streamlit as st

from mergescope_ui.shared.rooms import Moment
from mergescope_ui.shared.rooms.host import host_room
from mergescope_ui.shared.stage.producer import StageSettings

from .watch_encode import EncodeViews


def encode_room(views: EncodeViews, *, position: int, signature: str, settings: StageSettings) -> None:
    """The room's button or the open room, fed with the encode stage at ``position``."""
    host_room(
        lambda: encode_moment(views, position=position, signature=signature, settings=settings),
        pager=views,
        quiz=False,
    )


def encode_moment(views: EncodeViews, *, position: int, signature: str, settings: StageSettings) -> Moment:
    """The encode stage at ``position`` as the room passes it on (phone sizes, the run named by the
    tokenizer, the text and the special-token switch)."""
    window = views.window(position=position, serial=0, settings=replace(settings, large=False))
    return Moment(window=window, question=None, lesson=lesson_link(st.context.url or ""), run=signature)


def lesson_link(url: str) -> str:
    """``url`` without presenter mode (a student replays it on a phone).

    >>> lesson_link("http://h/tokenize?tokenizer=gpt2&presenter=true")
    'http://h/tokenize?tokenizer=gpt2'
    """
    parts = urllib.parse.urlsplit(url)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "presenter"]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
