"""No branch yet: what could change at the merge shown (an expander, built only while open)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from mergescope_ui.shared.html.blocks import caption_html
from mergescope_ui.shared.training_run import TrainingRun

from .. import keys as page_keys
from . import keys
from .branch import KIND_LABELS, KINDS, WhatIf, choices, pair_label
from .session import on_start


def entry(run: TrainingRun, moved: Callable[[], None]) -> None:
    """The expander that offers the three changes at the merge shown (merge 1 at step 0)."""
    k = max(run.position, 1)
    if not run.position and st.session_state.get(page_keys.QUIZ):
        return  # at step 0 the choices would give away the merge the class is about to guess
    step = run.records[k - 1] if run.position else run.peek()
    if step is None:
        return
    box = st.expander(
        f"🔀 What if? Change merge {k} and let training run on from there",
        key=keys.ENTRY,
        on_change="rerun",
    )
    if not box.open:
        return
    offered = choices(step)
    with box:
        kind = st.radio(
            f"What if, at merge {k}, …",
            [kind for kind in KINDS if kind in offered],
            format_func=KIND_LABELS.__getitem__,
            key=keys.KIND,
            horizontal=True,
        )
        if "tie" not in offered:
            st.caption(f"Merge {k} had no tie: one pair had the highest count, so there is no tie to break.")
        rows = {row.pair: row for row in step.top_pairs}
        if kind == "block":
            pair = step.pair
            st.html(
                caption_html(
                    f"{pair_label(step.left, step.right)} (ids {pair[0]}, {pair[1]}) will never be merged "
                    f"from merge {k} on; training picks the next best pair instead."
                )
            )
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
