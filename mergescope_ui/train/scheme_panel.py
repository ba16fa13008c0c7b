"""The Train page's hooks for WordPiece and Unigram (:data:`SCHEME_PAGE`): the run (a driver in
:data:`.keys.SCHEME_RUN`, here for a small text, in a session worker for a large one), then below the
stage the link, the live room, and for Unigram the Viterbi lattice of a word the user clicks.  A worker
refused (the server's cap) or stopped (a time or memory limit) is a message, with a button to start
again.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.stage.producer import StageSettings

from . import keys
from .inputs import Inputs
from .lattice_view import lattice_html
from .lesson_file_view import lesson_download
from .link import link_box, write_link
from .live import scheme_room
from .panel import Page, begin, delayed_bar, pasted, share_bar
from .scheme_driver import IN_PROCESS_CHARS, Driver, open_driver
from .scheme_form import FORMS
from .scheme_run import SchemeIdentity
from .share import LinkState


def scheme_training(inputs: Inputs, messages: DeltaGenerator) -> Driver | None:
    """The session's run for this text and these settings (a new one on a change, and the page says so)."""
    text, settings = inputs.source.text, inputs.settings
    identity = SchemeIdentity(text_digest=digest(text), settings=settings)
    old: Driver | None = st.session_state.get(keys.SCHEME_RUN)
    if old is not None and old.identity == identity:
        return old
    name = FORMS[settings.scheme].label
    if st.session_state.get(keys.SCHEME_CANCELLED) == identity:
        messages.info(f"Training {md_escape(name)} was cancelled.", icon="⏹️")
        messages.button(
            "Train again",
            key=keys.SCHEME_RESTART,
            on_click=lambda: st.session_state.pop(keys.SCHEME_CANCELLED, None),
        )
        return None
    if old is not None:  # the old run's worker goes at once, before a new one counts against the cap
        st.session_state.pop(keys.SCHEME_RUN, None)
        old.stop()
        del old
        restarted = True
    else:
        restarted = False
    slot = messages.empty()
    label = f"Counting the words and starting {name}…"

    def cancel() -> None:
        st.session_state[keys.SCHEME_CANCELLED] = identity

    try:
        with st.spinner(md_escape(label)):
            progress = delayed_bar(slot, label, cancel=keys.SCHEME_CANCEL, on_cancel=cancel)
            driver = open_driver(text, settings, progress=progress)
    except ValueError as exc:
        slot.empty()
        messages.error(f"Cannot train {md_escape(name)}: {md_escape(exc)}.")
        return None
    slot.empty()
    if restarted:
        messages.info(f"Training restarted: {md_escape(name)} on this text, from step 0.", icon="🔄")
    return begin(keys.SCHEME_RUN, driver)


def forget_run() -> None:
    st.session_state.pop(keys.SCHEME_RUN, None)
    st.session_state.pop(keys.SCHEME_CANCELLED, None)


def scheme_below(driver: Driver, inputs: Inputs, options: StageSettings) -> None:
    """The link, the lesson file, the live room (or why there is none), and the lattice where the scheme
    has one."""
    moment = LinkState(step=driver.state.position, text=pasted(inputs), regex=None, specials=None)
    write_link(moment)
    link_box(moment)
    state = driver.state
    lesson_download(inputs, position=state.position, max_steps=state.max_steps, options=options)  # (#44)
    here = driver.here()
    if here is not None:  # a live room: students follow this step on their phones (#26)
        scheme_room(*here, options)
    else:
        st.caption(
            "A live room is for texts trained here, up to "
            f"{IN_PROCESS_CHARS:,} characters: this one trains in a worker process of its own."
        )
    if driver.has_lattice:
        lattice_section(driver)


def lattice_section(driver: Driver) -> None:
    """The Viterbi lattice of a word the user clicks (or types), under the pieces of the round shown."""
    k = driver.state.position
    st.subheader("Every way to cut a word: the Viterbi lattice")
    offered = driver.lattice_words()
    picked: Any = st.pills(
        f"Click a word (pieces after round {k})" if k else "Click a word (the seed's pieces)",
        offered,
        key=keys.LATTICE_WORD,
        format_func=md_escape,
    )
    typed = st.text_input(
        "…or type one",
        key=keys.LATTICE_TYPED,
        max_chars=64,
        placeholder="hugs",
        help="A ▁ is put in front (a word of the text starts with the space before it) unless you type one.",
    )
    word = typed.strip() if typed and typed.strip() else picked
    if not word:
        st.caption("Pick a word to see every segmentation, its score, and the one Viterbi chooses.")
        return
    if typed and typed.strip() and not word.startswith("▁"):
        word = "▁" + word
    try:
        lat = driver.lattice(word)
    except ValueError as exc:
        st.warning(f"No lattice for this word: {md_escape(exc)}.")
        return
    st.html(lattice_html(lat))


SCHEME_PAGE = Page(
    start=scheme_training,
    bar=share_bar,
    below=scheme_below,
    stopped="Training stopped",
    restart=forget_run,
)
"""WordPiece's and Unigram's page: what differs between them is their driver's."""
