"""A branch beside the real history at its step: the same text under each, the merges since the branch
point, and the figures (:mod:`.figures`), on one screen as the stage (presenter mode at 1280x720 too)."""

from __future__ import annotations

import html

import streamlit as st

from mergescope_ui.shared.html.blocks import caption_html
from mergescope_ui.shared.html.tables import html_table
from mergescope_ui.shared.scroll_to import scroll_to
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .compare import SequencePair, labelled, merge_rows, sequences_html
from .figures import controls, figures_html, only_html, summaries, train_to_end_if_asked
from .session import ActiveBranch, drop

WINDOW_CHARS = 300  # characters of the text shown under each history
RECENT = 5  # merges shown since the branch point (the latest)
MERGE_CLIP = 18  # columns of a token in the merges table: two columns of them fit a presenter screen


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

    train_to_end_if_asked(run, branch, bar)  # its progress where the sentence goes
    texts = st.columns(2, gap="large")
    merges_col, figures_col = st.columns([5, 6], gap="large")  # the figures' five columns at the end
    heldout_id = controls(run, branch, figures_col)  # the table under them
    now, end = summaries(run, branch, heldout_id)

    trainer = run.trainer
    special_ids = frozenset(trainer.special_tokens.values())
    window = len(trainer.preview_text[:WINDOW_CHARS].encode("utf-8"))
    real_side = run.sequence(position), trainer.vocab
    alt_side = branch.sequence(shown), branch.trainer.vocab
    pair = sequences_html(
        *real_side, *alt_side, window_bytes=window, special_ids=special_ids, from_difference=1
    )
    note = _note(run, branch, pair, what.step)
    bar.html(
        f'<div class="ms-whatif-bar"><b>🔀 What if</b> {html.escape(what.describe(real_step), quote=True)}. '
        f'{shared}<div class="ms-note">{html.escape(note, quote=True)}</div></div>'
    )
    vocab = (end or now).vocab
    for column, name, seq, tokens, side, owner in (
        (texts[0], "Real history", pair.real_html, pair.real_tokens, vocab.only_left, run),
        (texts[1], "What if", pair.alt_html, pair.alt_tokens, vocab.only_right, branch),
    ):
        box = labelled(seq, f"{name} · {tokens:,} tokens") + only_html(side, owner)
        column.html(f'<div class="ms-whatif">{box}</div>')
    if position >= what.step:
        start = max(what.step, position - RECENT + 1)
        rows, classes = merge_rows(run.records, branch.records, start=start, end=position, clip=MERGE_CLIP)
        key = caption_html(
            f"The merges since merge {what.step:,}: = both histories made the same token, ≠ they made "
            "different ones; “⇄ 7” after a token: the other history made it too, at its merge 7."
        )
        merges_col.html(
            f'<div class="ms-whatif">{html_table(rows, row_classes=classes, wrap=True)}{key}</div>'
        )
    figures_col.html(figures_html(position, now, end))
    serial = st.session_state.get(keys.SCROLL, 0)
    if serial != st.session_state.get(keys.SCROLLED, 0):  # the run after "Run the what-if": bring it in view
        st.session_state[keys.SCROLLED] = serial
        scroll_to(".st-key-whatif_back, .ms-whatif-bar", key=keys.SCROLLER, serial=serial)


def _note(run: TrainingRun, branch: TrainingRun, pair: SequencePair, step: int) -> str:
    """The line under what changed (at merge ``step``): where the two histories are at the step shown."""
    position = run.position
    if position < step:
        return f"At step {position:,} the two histories are still one: they part at merge {step:,}."
    if branch.finished and branch.pulled < position:
        return f"The what-if stopped after {branch.pulled:,} merges: {branch.stop_reason}."
    if not pair.differing:
        chars = len(run.trainer.preview_text)
        return f"After merge {position:,} both cut the start of the text ({chars:,} characters) the same way."
    start = f", from byte {pair.skipped_bytes:,} (a little before the first)" if pair.skipped_bytes else ""
    places = "place" if pair.differing == 1 else "places"
    return f"The text after merge {position:,}: {pair.differing:,} {places} cut differently, outlined{start}."


def _follow(branch: TrainingRun, position: int) -> None:
    """Pull the branch to ``position`` (with a progress bar when that is far)."""
    need = position - branch.pulled
    if need <= 50:
        branch.jump(position)
        return
    bar = st.progress(0.0, text=f"Training the what-if up to merge {position:,}…")
    branch.jump(position, progress=lambda done, total: bar.progress(min(1.0, done / max(total, 1))))
    bar.empty()
