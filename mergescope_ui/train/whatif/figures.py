"""The figures that compare the two histories: vocabulary overlap, the tokens only one side has, and
compression, at every step from the step records and, once both are trained to the end, on a held-out
text too."""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared.blocks import caption_html, heading_html
from mergescope_ui.shared.cache import corpus_index, corpus_text
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html_tables import html_table
from mergescope_ui.shared.token_html import token_span
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .compare import CLIP, Summary, step_summary, summary, summary_table
from .session import ActiveBranch

SHOWN_ONLY = 30  # tokens shown of those only one side has
HELDOUT_PREFERRED = ("lighthouse_story", "mixed_scripts", "machine_learning_zh")  # the first not trained on


def figures(run: TrainingRun, active: ActiveBranch, column) -> None:
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
            f"({latest.vocab.overlap:.0%} overlap). More bytes per token: better compression."
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
        spans = "".join(token_span(made[t], t, clip=CLIP) for t in tokens[:SHOWN_ONLY])
        more = f" (the first {SHOWN_ONLY} shown)" if len(tokens) > SHOWN_ONLY else ""
        column.html(
            '<div class="ms-only">'
            + caption_html(f"{len(tokens):,} tokens {name}{more}")
            + f'<div class="ms-tokens">{spans or "—"}</div></div>'
        )
