"""Watch it encode, live (issue 26): a teacher opens a room from the encode stage, students follow it.

The room itself (open, join, end) is :mod:`mergescope_ui.shared.rooms.host`; this module gives it
the encode trace's side: the stage's window up to the step the teacher shows (never past it), no
question (an encode trace has no next merge to guess: the rule picks the lowest rank, known in
advance), the link that replays the trace, and the trace's views as the pager of places.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from mergescope_ui.shared.rooms import Moment
from mergescope_ui.shared.rooms.host import host_room, lesson_link
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
