"""The "What if?" section: change one choice at the merge shown, then watch both histories side by side.

Drawn in the Train page's step fragment, it follows the page's stepper: at every step the what-if is
pulled to the real history's merge.  With no branch yet it is an expander (built only while open) that
offers what could change.  Every token goes through ``html.escape`` and every string from the text or
the URL through ``md_escape`` before a Markdown call.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from mergescope_ui.shared.html.blocks import caption_html
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.training_run import TrainingRun

from .. import keys as page_keys
from . import keys
from .branch import KIND_LABELS, KINDS, WhatIf, choices, pair_label
from .compare_view import comparison
from .session import active_branch, on_start


def what_if(run: TrainingRun, *, moved: Callable[[], None] = lambda: None) -> bool:
    """The section for ``run``; True when it shows a branch (the page may then leave out what
    concerns the real history alone).  ``moved`` is called when it moves the real run's position
    itself (to show a branch where it parts)."""
    active = active_branch(run, moved)
    try:
        if active is None:
            entry(run, moved)
        else:
            comparison(run, active)
    except ValueError as exc:
        st.error(f"The what-if stopped with an error: {md_escape(exc)}.")
    return active is not None


def entry(run: TrainingRun, moved: Callable[[], None]) -> None:
    """The expander that offers the three changes at the merge shown (merge 1 at step 0)."""
    k = max(run.position, 1)
    if not run.position and st.session_state.get(page_keys.QUIZ):
        return  # at step 0 the choices would give away the merge the class is about to guess
    step = run.records[k - 1] if run.position else run.peek()
    if step is None:
        return
    title = f"🔀 What if? Change merge {k} and let training run on from there"
    box = st.expander(title, key=keys.ENTRY, on_change="rerun")
    if not box.open:
        return
    offered = choices(step)
    with box:
        asked, kinds = f"What if, at merge {k}, …", [kind for kind in KINDS if kind in offered]
        kind = st.radio(asked, kinds, format_func=KIND_LABELS.__getitem__, key=keys.KIND, horizontal=True)
        if "tie" not in offered:
            st.caption(f"Merge {k} had no tie: one pair had the highest count, so there is no tie to break.")
        rows = {row.pair: row for row in step.top_pairs}
        if kind == "block":
            pair = step.pair
            never = f"{pair_label(step.left, step.right)} (ids {pair[0]}, {pair[1]}) will never be merged"
            st.html(caption_html(f"{never} from merge {k} on; training picks the next best pair instead."))
        else:
            pair = st.selectbox(
                "Merge this pair instead",
                offered[kind],
                # A selectbox shows its options as plain text (checked in chromium: a Markdown link
                # stays literal, and md_escape's backslashes would show), so the labels go in as they are.
                format_func=lambda p: f"{pair_label(rows[p].left, rows[p].right)}  ({rows[p].count:,}×)",
                key=keys.TIE_PAIR if kind == "tie" else keys.PICK_PAIR,
            )
        st.button(
            f"🔀 Run the what-if from merge {k}",
            key=keys.START,
            type="primary",
            on_click=on_start,
            args=(WhatIf(k, kind, pair), moved),
        )
