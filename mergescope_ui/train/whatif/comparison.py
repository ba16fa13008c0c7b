"""A branch shown beside the real history: the same text under each, the merges of each from the
branch point, and the figures (:mod:`.figures`), all at the real history's step."""

from __future__ import annotations

import html

import streamlit as st

from mergescope_ui.shared.blocks import caption_html, heading_html
from mergescope_ui.shared.html_tables import html_table
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .compare import merge_rows, sequences_html
from .figures import figures
from .session import ActiveBranch, drop

WINDOW_CHARS = 300  # characters of the text shown under each history
RECENT = 8  # merges shown since the branch point (the latest)


def comparison(run: TrainingRun, active: ActiveBranch) -> None:
    branch, what = active.run, active.what_if
    position = run.position
    _follow(branch, position)
    shown = min(position, branch.pulled)
    real_step = run.records[what.step - 1]
    shared = (
        f"Merges 1 to {what.step - 1:,} are the same in both." if what.step > 1 else "No merge is shared."
    )
    row = st.container(horizontal=True, vertical_alignment="center", gap="medium", wrap=False)
    row.button("⟲ Back to the real history", key=keys.BACK_TO_REAL, on_click=drop, width="content")
    bar = row.empty()  # the sentence, and under it the note on the step shown (known below)

    trainer = run.trainer
    special_ids = frozenset(trainer.special_tokens.values())
    window_bytes = len(trainer.preview_text[:WINDOW_CHARS].encode("utf-8"))
    pair = sequences_html(
        run.sequence(position),
        trainer.vocab,
        branch.sequence(shown),
        branch.trainer.vocab,
        window_bytes=window_bytes,
        special_ids=special_ids,
        from_first_difference=True,
    )
    if position < what.step:
        note = f"At step {position:,} the two histories are still one: they part at merge {what.step:,}."
    elif branch.finished and branch.pulled < position:
        note = f"The what-if stopped after {branch.pulled:,} merges: {branch.stop_reason}."
    elif not pair.differing:
        note = f"After merge {position:,} both cut the start of the text ({len(trainer.preview_text):,} "
        note += "characters) the same way."
    else:
        start = (
            f", from byte {pair.skipped_bytes:,} (a little before the first)" if pair.skipped_bytes else ""
        )
        note = (
            f"The text after merge {position:,}: {pair.differing:,} "
            f"{'place' if pair.differing == 1 else 'places'} cut differently, outlined{start}."
        )
    left, right = st.columns(2, gap="large")
    left.html(
        '<div class="ms-whatif">'
        + heading_html(f"Real history · {pair.real_tokens:,} tokens")
        + pair.real_html
        + "</div>"
    )
    right.html(
        '<div class="ms-whatif">'
        + heading_html(f"What if · {pair.alt_tokens:,} tokens")
        + pair.alt_html
        + "</div>"
    )
    bar.html(
        f'<div class="ms-whatif-bar"><b>🔀 What if</b> {html.escape(what.describe(real_step), quote=True)}. '
        f'{shared}<div class="ms-note">{html.escape(note, quote=True)}</div></div>'
    )

    merges_col, figures_col = st.columns(2, gap="large")
    if position >= what.step:
        start = max(what.step, position - RECENT + 1)
        rows, classes = merge_rows(run.records, branch.records, start=start, end=position)
        merges_col.html(
            '<div class="ms-whatif">'
            + heading_html(f"Merges from merge {what.step:,}")
            + html_table(rows, row_classes=classes, wrap=True)
            + caption_html(
                f"Merges {start:,} to {position:,} (the latest {RECENT} at most). = same token · ≠ they part "
                "· ⇄ k: the other side makes it at merge k."
            )
            + "</div>"
        )
    figures(run, active, figures_col)


def _follow(branch: TrainingRun, position: int) -> None:
    """Pull the branch to ``position`` (with a progress bar when that is far)."""
    need = position - branch.pulled
    if need <= 50:
        branch.jump(position)
        return
    bar = st.progress(0.0, text=f"Training the what-if up to merge {position:,}…")
    branch.jump(position, progress=lambda done, total: bar.progress(min(1.0, done / max(total, 1))))
    bar.empty()
