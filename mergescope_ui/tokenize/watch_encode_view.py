"""The Watch it encode tab: the text encoding step by step on the stage the Train page uses.

:mod:`.watch_encode` builds the records; the stage reports the step it shows and :func:`_on_shown`
follows it.  A teacher may open a room from it (issue 26): students see it up to the step the
teacher shows, with no question (the rule picks the lowest rank, known in advance).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

import streamlit as st

from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.rooms import Moment
from mergescope_ui.shared.rooms.host import host_room, lesson_link
from mergescope_ui.shared.stage.component import mount_stage
from mergescope_ui.shared.stage.contract import read_shown
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.workers.cache import remember

from . import keys
from .resolve import Picked
from .screen import presenting
from .watch_encode import ENCODE_CSS, EncodeViews, trace_encode


@dataclass(slots=True)
class EncodeStage:
    """Where the stage is for one (tokenizer, text, special-token switch): the step shown and the serial
    of the window last sent (bumped when the server moves the stage itself: a new text or tokenizer)."""

    signature: str
    views: EncodeViews
    position: int = 0
    serial: int = 0


def encode_tab(text: str, picked: Picked, *, specials: bool) -> None:
    """The trace of ``text`` with ``picked``'s tokenizer on the stage (or why there is none)."""
    tok = picked.tokenizer.as_bpe() if picked.tokenizer is not None else None
    st.caption(
        "Watch the tokenizer encode your text: step 0 cuts it into chunks with the split pattern "
        "(each named by the part of the pattern that cut it); each step then applies the lowest-ranked "
        "merge whose pair stands anywhere in the text, at every place. The last step's tokens are the "
        "tokenizer's own."
    )
    if tok is None:
        st.info(
            f"{md_escape(picked.label)} is not a byte-level BPE tokenizer: there are no merges to watch. "
            "Pick a BPE tokenizer (GPT-2, cl100k, o200k, one trained here or uploaded)."
        )
        return
    if not text:
        st.info("Type a text above to watch it encode.")
        return
    signature = f"{picked.identity}|{digest(text)}|{'special' if specials else 'plain'}"
    state: EncodeStage | None = st.session_state.get(keys.ENCODE_STAGE_STATE)
    if state is None or state.signature != signature:
        memo = st.session_state.setdefault(keys.ENCODE_MEMO, {})
        try:
            views = remember(
                memo, signature, lambda: EncodeViews(trace_encode(tok, text, specials=specials), tok), size=2
            )
        except ValueError as exc:
            st.error(f"This text cannot be traced: {md_escape(exc)}")
            return
        serial = state.serial + 1 if state is not None else 0
        state = EncodeStage(signature, views, serial=serial)
        st.session_state[keys.ENCODE_STAGE_STATE] = state
    trace = state.views.trace
    if not trace.chunks:
        st.warning(md_escape(trace.note))
        return
    if trace.note:
        st.info(md_escape(trace.note))
    st.html(ENCODE_CSS)
    settings = StageSettings(large=presenting())
    window = state.views.window(position=state.position, serial=state.serial, settings=settings)
    mount_stage(window, key=keys.ENCODE_STAGE, on_shown=_on_shown)
    moment = partial(
        encode_moment, state.views, position=state.position, signature=signature, settings=settings
    )
    host_room(moment, pager=state.views, quiz=False)


def encode_moment(views: EncodeViews, *, position: int, signature: str, settings: StageSettings) -> Moment:
    """The encode stage at ``position`` as the room passes it on (phone sizes, the run named by the
    tokenizer, the text and the special-token switch)."""
    window = views.window(position=position, serial=0, settings=replace(settings, large=False))
    return Moment(window=window, question=None, lesson=lesson_link(st.context.url or ""), run=signature)


def _on_shown() -> None:
    """The stage shows another step (or needs other places of it): follow it."""
    state: EncodeStage | None = st.session_state.get(keys.ENCODE_STAGE_STATE)
    report = read_shown((st.session_state.get(keys.ENCODE_STAGE) or {}).get("shown"))
    if state is None or report is None or report.serial != state.serial:
        return  # no trace, not a report, or one about a window the server has moved on from
    k = min(report.position, state.views.last)
    if k > 0:
        state.views.place_start[k] = report.start
    state.position = k
