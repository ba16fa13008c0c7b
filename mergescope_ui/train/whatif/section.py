"""The "What if?" section: change one choice at the merge shown, then watch both histories side by side.

It is drawn inside the Train page's step fragment, after the step itself, so
it follows the page's stepper: at every step the what-if is pulled to the same
merge as the real history.  With no branch it is an expander (built only
while open) offering the three changes of :func:`.branch.choices`; with a
branch it shows, side by side, the same text under each history, the merges
of each from the branch point (where they agree and where they part), and the
figures that compare them now and, once both are trained to the end, at the
end.  ``?whatif=step.kind.left-right`` carries the branch in the link; "Back
to the real history" drops it in one click.

Every token goes through ``html.escape`` (the token HTML helpers) and every
string from the text or the URL through ``md_escape`` before a Markdown call.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.blocks import caption_html, heading_html
from mergescope_ui.shared.cache import corpus_index, corpus_text
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html_tables import html_table
from mergescope_ui.shared.safe_text import md_escape
from mergescope_ui.shared.token_html import token_span
from mergescope_ui.shared.training_run import TrainingRun

from ..tables import pair_label
from . import keys
from .branch import KIND_LABELS, KINDS, WhatIf, choices, start_branch
from .compare import Summary, merge_rows, sequences_html, step_summary, summary, summary_table

WINDOW_CHARS = 300  # characters of the text shown under each history
RECENT = 8  # merges shown since the branch point (the latest)
SHOWN_ONLY = 30  # tokens shown of those only one side has
HELDOUT_PREFERRED = ("lighthouse_story", "mixed_scripts", "machine_learning_zh")  # the first not trained on

WHATIF_CSS = """
<style>
.ms-whatif-bar{border:2px solid #1971c2;border-radius:.8rem;padding:.5rem 1rem;
  background:rgba(25,113,194,.06);}
.ms-whatif-bar b{color:#1864ab;}
.ms-whatif .ms-tokens{max-height:var(--ms-whatif-height,9.5rem);
  font-size:min(var(--ms-token-size,1.05rem),1.3rem);}
.ms-whatif .ms-h3{font-size:1.25rem;padding:.5rem 0 .4rem 0;}
.ms-whatif table.ms-table{font-size:.92rem;}
.ms-whatif table.ms-table :is(td,th){white-space:normal;padding:.2rem .4rem;}
table.ms-table tr.ms-same td{background:#ebfbee;}
table.ms-table tr.ms-part td{background:#fff4e6;font-weight:700;}
.ms-only .ms-tokens{max-height:6rem;}
/* token spans inside a line of text (the merge-order lesson) */
.ms-tokens.ms-inline{border:none;font-family:inherit;max-height:none;padding:.2rem 0;margin-bottom:.5rem;}
</style>
"""


@dataclass(eq=False, slots=True)
class ActiveBranch:
    """The session's what-if: the change, the real run it branched from, and the branch's own run."""

    what_if: WhatIf
    parent: TrainingRun
    run: TrainingRun


def what_if(run: TrainingRun, *, moved: Callable[[], None] = lambda: None) -> bool:
    """The section for ``run``; True when it shows a branch (the page may then leave out what
    concerns the real history alone).  ``moved`` is called when it moves the real run's position
    itself (to show a branch where it parts)."""
    active = _active(run, moved)
    try:
        if active is None:
            _entry(run, moved)
        else:
            _comparison(run, active)
    except ValueError as exc:
        st.error(f"The what-if stopped with an error: {md_escape(exc)}.")
    return active is not None


# ----- which branch, if any -------------------------------------------------------------------


def _active(run: TrainingRun, moved: Callable[[], None]) -> ActiveBranch | None:
    """The session's branch of ``run`` (read from the link once per session); None without one."""
    if not st.session_state.get(keys.URL_SEEDED):
        st.session_state[keys.URL_SEEDED] = True
        value = st.query_params.get(keys.URL_PARAM)
        if value:
            try:
                what = WhatIf.from_param(value)
                before = run.position
                _begin(run, what, moved)
                if run.position != before:  # what was drawn above this section shows the old step
                    st.rerun()
            except ValueError as exc:
                _drop()
                st.warning(
                    f"The link asks for the what-if {md_escape(value)}, which this run cannot make: "
                    f"{md_escape(exc)}. Showing the real history."
                )
    active: ActiveBranch | None = st.session_state.get(keys.BRANCH)
    if active is not None and active.parent is not run:
        _drop()
        st.info("The what-if was dropped: training restarted, so it no longer branches from this run.")
        return None
    message = st.session_state.pop(keys.MESSAGE, None)
    if message:
        st.error(message)
    return active


def _begin(run: TrainingRun, what: WhatIf, moved: Callable[[], None]) -> None:
    """Start the branch (ValueError: why not), remember it, put it in the link, show its step."""
    branch = start_branch(run, what)
    st.session_state[keys.BRANCH] = ActiveBranch(what_if=what, parent=run, run=branch)
    st.query_params[keys.URL_PARAM] = what.to_param()
    st.session_state.pop(keys.SUMMARIES, None)
    if run.position < what.step:
        run.jump(what.step)
        moved()


def _drop() -> None:
    st.session_state.pop(keys.BRANCH, None)
    st.session_state.pop(keys.SUMMARIES, None)
    if keys.URL_PARAM in st.query_params:
        del st.query_params[keys.URL_PARAM]


def _on_start(what: WhatIf, moved: Callable[[], None]) -> None:
    run: TrainingRun | None = st.session_state.get(shared_keys.RUN)
    if run is None:
        return
    try:
        _begin(run, what, moved)
    except ValueError as exc:
        st.session_state[keys.MESSAGE] = f"The what-if could not start: {md_escape(exc)}."


# ----- no branch: what could change here -----------------------------------------------------


def _entry(run: TrainingRun, moved: Callable[[], None]) -> None:
    """The expander that offers the three changes at the merge shown (merge 1 at step 0)."""
    k = max(run.position, 1)
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
            on_click=_on_start,
            args=(WhatIf(k, kind, pair), moved),
        )


# ----- a branch: both histories side by side ---------------------------------------------------


def _comparison(run: TrainingRun, active: ActiveBranch) -> None:
    branch, what = active.run, active.what_if
    position = run.position
    _follow(branch, position)
    shown = min(position, branch.pulled)
    real_step = run.records[what.step - 1]
    shared = (
        f"Merges 1 to {what.step - 1:,} are the same in both." if what.step > 1 else "No merge is shared."
    )
    row = st.container(horizontal=True, vertical_alignment="center", gap="medium", wrap=False)
    row.button("⟲ Back to the real history", key=keys.BACK_TO_REAL, on_click=_drop, width="content")
    row.html(
        f'<div class="ms-whatif-bar"><b>🔀 What if</b> {html.escape(what.describe(real_step), quote=True)}. '
        f"{shared}</div>"
    )

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
            f"The text after merge {position:,}: {pair.differing:,} places cut differently, outlined{start}."
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
    st.html(caption_html(note))

    merges_col, figures_col = st.columns(2, gap="large")
    if position >= what.step:
        start = max(what.step, position - RECENT + 1)
        rows, classes = merge_rows(run.records, branch.records, start=start, end=position)
        merges_col.html(
            '<div class="ms-whatif">'
            + heading_html(f"Merges from merge {what.step:,}")
            + html_table(rows, row_classes=classes, wrap=True)
            + caption_html(
                f"Merges {start:,} to {position:,} (the latest {RECENT} at most): = the same token, "
                "≠ they part; ⇄ k: the other side makes this token too, at merge k."
            )
            + "</div>"
        )
    _figures(run, active, figures_col)


def _follow(branch: TrainingRun, position: int) -> None:
    """Pull the branch to ``position`` (with a progress bar when that is far)."""
    need = position - branch.pulled
    if need <= 50:
        branch.jump(position)
        return
    bar = st.progress(0.0, text=f"Training the what-if up to merge {position:,}…")
    branch.jump(position, progress=lambda done, total: bar.progress(min(1.0, done / max(total, 1))))
    bar.empty()


def _figures(run: TrainingRun, active: ActiveBranch, column) -> None:
    """Vocabulary overlap, tokens only one side has, compression on the training text: now (from the
    step records, at every step) and, once both are trained to the end, at the end with a held-out text."""
    branch = active.run
    if st.session_state.pop(keys.TO_END_PENDING, False):
        _train_to_end(run, branch)
    box = column.container()  # the table first, the held-out choice and the button under it
    heldout_id = _heldout_choice(run, column)
    now = step_summary(
        run.records[: run.position],
        branch.records[: min(run.position, branch.pulled)],
        corpus_bytes=run.trainer.corpus_bytes,
        initial_tokens=run.trainer.initial_tokens,
    )
    end = _end_summary(run, branch, heldout_id) if run.finished and branch.finished else None
    latest = end or now
    when = "now and at the end" if end else f"after merge {run.position:,}"
    box.html(
        '<div class="ms-whatif">'
        + heading_html(f"Vocabularies and compression, {when}")
        + html_table(summary_table(now, end), wrap=True)
        + caption_html(
            f"{'At the end' if end else 'Now'}: {latest.vocab.shared:,} merged tokens in both "
            f"({latest.vocab.overlap:.0%} overlap); the tokens only one side has are below. "
            "Bytes per token: higher is better compression."
        )
        + "</div>"
    )
    if end is None:
        column.button(
            "⏭ Train both to the end",
            key=keys.TO_END,
            on_click=lambda: st.session_state.update({keys.TO_END_PENDING: True}),
            help="Trains the rest of both histories (the step shown stays), then compares their final "
            "vocabularies and their compression of the training and the held-out text.",
        )
    _only_one_side(run, branch, latest)


def _end_summary(real: TrainingRun, branch: TrainingRun, heldout_id: str | None) -> Summary:
    """Both finished tokenizers compared on the held-out text too (kept: it encodes it twice)."""
    cache: dict = st.session_state.setdefault(keys.SUMMARIES, {})
    key = (id(branch), heldout_id)
    if key not in cache:
        heldout = {"held-out": corpus_text(heldout_id)} if heldout_id else {}
        training = step_summary(
            real.records, branch.records, corpus_bytes=real.trainer.corpus_bytes, initial_tokens=0
        ).compression["training"]
        with st.spinner("Encoding the held-out text with both tokenizers…"):
            result = summary(real.trainer.tokenizer(), branch.trainer.tokenizer(), heldout, training=training)
        cache.clear()
        cache[key] = result
    return cache[key]


def _heldout_choice(run: TrainingRun, column) -> str | None:
    """The built-in text held out (not the one trained on), chosen in a selectbox."""
    trained_on = run.identity.text_digest
    ids = [c.id for c in corpus_index() if digest(corpus_text(c.id)) != trained_on]
    if not ids:
        return None
    titles = {c.id: c.title for c in corpus_index()}
    return column.selectbox(
        "Held-out text (not trained on)",
        ids,
        index=ids.index(next((i for i in HELDOUT_PREFERRED if i in ids), ids[0])),
        format_func=titles.__getitem__,
        key=keys.HELDOUT,
    )


def _train_to_end(real: TrainingRun, branch: TrainingRun) -> None:
    """Pull every merge left of both histories (the step shown stays), with a progress bar."""
    total = max(real.identity.settings.max_merges, 1)
    for run, name in ((real, "real history"), (branch, "what-if")):
        bar = st.progress(0.0, text=f"Training the {name} to the end…")
        while run.pull():
            if run.pulled % 25 == 0:
                bar.progress(min(1.0, run.pulled / total), text=f"Training the {name}… merge {run.pulled:,}")
        bar.empty()


def _only_one_side(real: TrainingRun, branch: TrainingRun, latest: Summary) -> None:
    """The tokens only one side has, as token spans under each history."""
    vocab = latest.vocab
    left, right = st.columns(2, gap="large")
    for column, tokens, run, name in (
        (left, vocab.only_left, real, "only the real history has"),
        (right, vocab.only_right, branch, "only the what-if has"),
    ):
        made = {s.token: s.new_id for s in run.records}
        spans = "".join(token_span(made[t], t) for t in tokens[:SHOWN_ONLY])
        more = f" (the first {SHOWN_ONLY} shown)" if len(tokens) > SHOWN_ONLY else ""
        column.html(
            '<div class="ms-only">'
            + caption_html(f"{len(tokens):,} tokens {name}{more}")
            + f'<div class="ms-tokens">{spans or "—"}</div></div>'
        )
