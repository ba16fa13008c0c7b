"""Below the stage: what does not fit on one screen, redrawn when the stage reports a new step.

Each section builds its part first, then sends it in one burst (elements that trickle in while the
script works each set off a redraw of the page).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from bpe_core import MergeStep
from mergescope_ui.shared.chart_data import arrow_datasets
from mergescope_ui.shared.html.blocks import caption_html, heading_html
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.html.tables import html_table
from mergescope_ui.shared.training_run import TrainingRun
from mergescope_ui.shared.workers.bounded import SharedMemo

from . import keys
from .charts import tokens_line_spec
from .inputs import Inputs
from .tables import (
    crosses_word_boundary,
    longest_tokens,
    merges_csv,
    merges_table,
    pair_table,
    pairs_counted,
    tokens_by_step,
)

RECENT_MERGES = 12
TABLE_CLIP = 14  # columns a token may take in the tables before it is shortened (whole in its tooltip)
TOKEN_COLUMNS = {"pair": 2 * TABLE_CLIP, "left": TABLE_CLIP, "right": TABLE_CLIP, "token": TABLE_CLIP}
# Headers as words, so they can wrap in a narrow column (presenter mode) instead of pushing columns out.
HEADERS = {
    "left_id": "left id",
    "right_id": "right id",
    "tokens_after": "tokens after",
    "crosses_words": "🚩",
}


def text_line(inputs: Inputs, run: TrainingRun) -> None:
    """One caption about the text being trained on."""
    trainer = run.trainer
    st.caption(
        f"**{md_escape(inputs.source.name)}** · {trainer.corpus_bytes:,} bytes · "
        f"{trainer.initial_tokens:,} tokens before any merge · the stage above finds each new token "
        "anywhere in the text"
    )


def step_tables(run: TrainingRun, *, large: bool) -> None:
    """The step's whole pair table (beside the stage's top pairs) and the tokens-by-step chart."""
    step = run.current
    if step is None:
        return
    counted = pairs_counted(step)
    every = counted > len(step.top_pairs) and bool(st.session_state.get(keys.ALL_PAIRS))

    def chart() -> dict[str, Any]:  # its rows as Arrow once, not at every session's draw
        series = tokens_by_step(run.trainer.initial_tokens, run.records[: run.position])
        return arrow_datasets(tokens_line_spec(series, current_step=run.position, large=large))

    spec = SHARED.get(("chart", run.identity, run.position, large), chart)
    st.html('<hr class="ms-rule">')
    left, right = st.columns([1.4, 1], gap="large")
    if every:  # possibly thousands of rows: a scrolling table draws only those in view
        table = pair_table(step, run.trainer.pair_table(step.index))
        left.html(heading_html(f"All {counted:,} pairs counted before merge {step.index}"))
        shown = table[PAIR_SHOWN].rename(columns=HEADERS)
        left.dataframe(shown, hide_index=True, width="stretch", height=420)
    else:
        left.html(SHARED.get(("pairs", run.identity, step.index), lambda: _top_pairs_html(step, counted)))
    if counted > len(step.top_pairs):
        tip = "The engine keeps the top pairs of each step; this counts all of them for the step shown."
        left.toggle(f"Show all {counted:,} pairs", key=keys.ALL_PAIRS, help=tip)
    right.html(heading_html("Corpus tokens by step"))
    right.vega_lite_chart(spec, width="stretch")


PAIR_SHOWN = ["rank", "pair", "count", "status", "left_id", "right_id"]
# What every session on the same run and step draws alike, made once for all (a class on one lesson):
# a step's tables as HTML and its chart's spec, by the run's identity (text and settings: the engine
# is deterministic, so they fix every record) and step.  Each entry is a few kB, the spec up to a few
# hundred for a run of thousands of merges.
SHARED = SharedMemo(limit=256)


def _top_pairs_html(step: MergeStep, counted: int) -> str:
    """The heading and light table of ``step``'s top pairs."""
    table = pair_table(step)
    which = "All" if len(table) == counted else f"Top {len(table):,} of"
    return heading_html(f"{which} {counted:,} pairs counted before merge {step.index}") + html_table(
        table[PAIR_SHOWN].rename(columns=HEADERS),
        row_classes=[f"ms-{s}" for s in table["status"]],
        wrap=True,
        clip=TOKEN_COLUMNS,
        pairs={"pair"},  # cut on each side: the + always stays
        name=f"Pairs counted before merge {step.index}",
    )


def _longest_html(steps: Sequence[MergeStep]) -> str:
    """The longest tokens so far as a light table, and how many cross a word boundary."""
    longest = longest_tokens(steps, n=10).rename(columns=HEADERS)
    crossing = sum(crosses_word_boundary(s.token) for s in steps)
    note = "No token crosses a word boundary so far."
    if crossing:
        note = f"🚩 {crossing} token(s) cross a word boundary; try pre-tokenization GPT-2 to prevent them."
    table = html_table(longest, wrap=True, clip=TOKEN_COLUMNS)
    return heading_html("Longest tokens so far") + table + caption_html(note)


def _merges_html(steps: Sequence[MergeStep], longest_html: str) -> str:
    """The latest merges and ``longest_html`` side by side, as light tables."""
    recent = merges_table(steps[: -RECENT_MERGES - 1 : -1]).rename(columns=HEADERS)
    said = f"The latest {len(recent)} merges, newest first; the CSV below has all {len(steps):,}."
    table = html_table(recent, wrap=True, clip=TOKEN_COLUMNS, apart=("left", "right", "token"))
    recent_html = heading_html(f"Merges so far ({len(steps):,})") + caption_html(said) + table
    # Both tables side by side in one HTML block (a CSS grid, see shared.blocks.BLOCK_CSS).
    # Side by side on a wide screen, one above the other where the merges' ten columns need the room.
    split = f'<div class="ms-split ms-wide-split"><div>{recent_html}</div><div>{longest_html}</div></div>'
    return f'<hr class="ms-rule"><div class="ms-split-room">{split}</div>'


def merges_so_far(run: TrainingRun, *, large: bool) -> None:
    """The merges so far: the latest few and the longest tokens as light tables, or every merge."""
    steps = run.records[: run.position]
    if not steps:
        return
    show_all = bool(st.session_state.get(keys.ALL_MERGES))
    longest_html = SHARED.get(("longest", run.identity, run.position), lambda: _longest_html(steps))
    if show_all:
        st.html('<hr class="ms-rule">' + heading_html(f"Merges so far ({len(steps):,})"))
        row = 46 if large else 35
        table = merges_table(steps)
        tip = "The token runs past the end of a word (like 'e␣'): a word-splitting pre-tokenizer prevents it"
        config = {"crosses_words": st.column_config.CheckboxColumn("crosses words", help=tip)}
        height = min(row * (len(table) + 1) + 3, 9 * row)
        st.dataframe(
            table, hide_index=True, height=height, width="stretch", row_height=row, column_config=config
        )
    else:
        st.html(SHARED.get(("merges", run.identity, run.position), lambda: _merges_html(steps, longest_html)))
    tip = "Off: the latest merges as a light table, quicker to redraw at every step."
    st.toggle("Show every merge (sortable table)", key=keys.ALL_MERGES, help=tip)
    # A callable: the CSV is built when the button is clicked, not at every step.
    st.download_button(
        "⬇ Merges as CSV",
        lambda: merges_csv(steps),
        file_name=f"merges_{len(steps)}.csv",
        mime="text/csv",
        key=keys.DOWNLOAD_MERGES,
        on_click="ignore",
    )
    if show_all:
        st.html(longest_html)
