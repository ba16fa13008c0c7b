"""The session's what-if: which branch is shown, how it starts and ends, and how the link carries it.

The branch lives in ``session_state`` (:data:`.keys.BRANCH`) with the real run it branched from (a new
real run drops it); ``?whatif=`` carries it in the link, read back once a session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from bpe_core.pretokenizer import excerpt
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .branch import WhatIf, start_branch


@dataclass(eq=False, slots=True)
class ActiveBranch:
    """The session's what-if: the change, the real run it branched from, and the branch's own run."""

    what_if: WhatIf
    parent: TrainingRun
    run: TrainingRun


def active_branch(run: TrainingRun, moved: Callable[[], None]) -> ActiveBranch | None:
    """The session's branch of ``run`` (read from the link once per session); None without one."""
    if not st.session_state.get(keys.URL_SEEDED):
        st.session_state[keys.URL_SEEDED] = True
        value = st.query_params.get(keys.URL_PARAM)
        if value:
            try:
                before = run.position
                begin(run, WhatIf.from_param(value), moved)
                if run.position != before:  # what was drawn above this section shows the old step
                    st.rerun()
            except ValueError as exc:
                drop()
                st.warning(
                    f"The link asks for the what-if {md_escape(excerpt(value))}, which this run cannot make: "
                    f"{md_escape(exc)}. Showing the real history."
                )
    active: ActiveBranch | None = st.session_state.get(keys.BRANCH)
    if active is not None and active.parent is not run:
        drop()
        st.info("The what-if was dropped: training restarted, so it no longer branches from this run.")
        return None
    message = st.session_state.pop(keys.MESSAGE, None)
    if message:
        st.error(message)
    return active


def begin(run: TrainingRun, what: WhatIf, moved: Callable[[], None]) -> None:
    """Start the branch (ValueError: why not), remember it, put it in the link, show its step."""
    branch = start_branch(run, what)
    st.session_state[keys.BRANCH] = ActiveBranch(what_if=what, parent=run, run=branch)
    st.query_params[keys.URL_PARAM] = what.to_param()
    st.session_state.pop(keys.SUMMARIES, None)
    if run.position < what.step:
        run.jump(what.step)
        moved()


def drop() -> None:
    st.session_state.pop(keys.BRANCH, None)
    st.session_state.pop(keys.SUMMARIES, None)
    if keys.URL_PARAM in st.query_params:
        del st.query_params[keys.URL_PARAM]


def on_start(what: WhatIf, moved: Callable[[], None]) -> None:
    run: TrainingRun | None = st.session_state.get(shared_keys.RUN)
    if run is None:
        return
    try:
        begin(run, what, moved)
        st.session_state[keys.SCROLL] = st.session_state.get(keys.SCROLL, 0) + 1  # bring it into view
    except ValueError as exc:
        st.session_state[keys.MESSAGE] = f"The what-if could not start: {md_escape(exc)}."
