"""The figures that compare the two histories: vocabulary overlap, the tokens only one side has, and
compression, at every step and, once both are trained to the end, with a held-out text too."""

from __future__ import annotations

import html

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html.blocks import caption_html
from mergescope_ui.shared.html.tables import html_table
from mergescope_ui.shared.html.tokens import token_span
from mergescope_ui.shared.training_run import TrainingRun
from mergescope_ui.shared.workers.cache import corpus_index, corpus_text

from . import keys
from .compare import Summary, step_summary, summary, summary_table

KEY = "A text: tokens · bytes per token (more: better)"
SHOWN_ONLY = 30  # tokens shown of those only one side has
ONLY_CLIP = 12  # columns of each of them: several fit the one line shown
KEY_WIDTH = 330  # pixels of the key beside the held-out choice: two lines of it, also at 1920x1080
HELDOUT_PREFERRED = ("lighthouse_story", "mixed_scripts", "machine_learning_zh")  # the first not trained on


def summaries(
    real: TrainingRun, branch: TrainingRun, heldout_id: str | None
) -> tuple[Summary, Summary | None]:
    """Both histories compared now (from the step records, at every step) and, once both are trained to
    the end, at the end (with the held-out text)."""
    now = step_summary(
        real.records[: real.position],
        branch.records[: min(real.position, branch.pulled)],
        corpus_bytes=real.trainer.corpus_bytes,
        initial_tokens=real.trainer.initial_tokens,
    )
    end = _end_summary(real, branch, heldout_id) if real.finished and branch.finished else None
    return now, end


def figures_html(position: int, now: Summary, end: Summary | None) -> str:
    """The table of figures after merge ``position`` and (when known) at the end; the key to its text
    cells under it until the end, when :func:`controls` puts it on the line above (one screen).

    >>> from bpe_core import train
    >>> a = train("low lower", vocab_size=258, pattern="none", tie_break="lowest-id")
    >>> s = summary(a, a, {})
    >>> html = figures_html(2, s, s)
    >>> "<th>at merge 2</th>" in html, "<th>what if, at end</th>" in html, KEY in html
    (True, True, False)
    >>> KEY in figures_html(2, s, None)
    True
    """
    key = caption_html(KEY) if end is None else ""
    table = html_table(summary_table(position, now, end), wrap=True)
    return f'<div class="ms-whatif ms-figures-box">{table}{key}</div>'


def controls(real: TrainingRun, branch: TrainingRun, column: DeltaGenerator) -> str | None:
    """The held-out text and, until both are trained to the end, the button that trains them (then the
    key to the table's cells), on one line of ``column``; returns the held-out text's id (None when
    every built-in text was trained on)."""
    row = column.container(horizontal=True, vertical_alignment="center", gap="small", wrap=False)
    heldout_id = _heldout_choice(real, row)
    if real.finished and branch.finished:
        row.html(f'<div class="ms-whatif-key">{caption_html(KEY)}</div>', width=KEY_WIDTH)
    else:
        row.button(
            "⏭ Train both to the end",
            key=keys.TO_END,
            on_click=lambda: st.session_state.update({keys.TO_END_PENDING: True}),
            help="Trains the rest of both histories (the step shown stays), then compares their final "
            "vocabularies and their compression of the training and the held-out text.",
            width="content",
        )
    return heldout_id


def train_to_end_if_asked(real: TrainingRun, branch: TrainingRun, slot: DeltaGenerator) -> None:
    """When "Train both to the end" was pressed: pull every merge left of both histories (the step shown
    stays), with a progress bar in ``slot``."""
    if not st.session_state.pop(keys.TO_END_PENDING, False):
        return
    total = max(real.identity.settings.max_merges, 1)
    for run, name in ((real, "real history"), (branch, "what-if")):
        bar = slot.progress(0.0, text=f"Training the {name} to the end…")
        while run.pull():
            if run.pulled % 25 == 0:
                bar.progress(min(1.0, run.pulled / total), text=f"Training the {name}… merge {run.pulled:,}")
    slot.empty()


def only_html(tokens: tuple[bytes, ...], run: TrainingRun) -> str:
    """The tokens only ``run``'s side has, as token spans after their count (on a line under that
    side's text, so "here" is that side).

    >>> from bpe_core import TrainOptions, Trainer
    >>> from mergescope_ui.shared.training_run import RunIdentity
    >>> options = TrainOptions(vocab_size=258, pattern="none")
    >>> run = TrainingRun(Trainer("abab", options), identity=RunIdentity.of("abab", options))
    >>> _ = run.jump(1)
    >>> html = only_html((b"ab",), run)
    >>> "1 token only here:" in html, html.count('class="ms-t ')
    (True, 1)
    """
    made = {s.token: s.new_id for s in run.records}
    spans = "".join(token_span(made[t], t, clip=ONLY_CLIP, breaks=False) for t in tokens[:SHOWN_ONLY])
    more = f" (the first {SHOWN_ONLY})" if len(tokens) > SHOWN_ONLY else ""
    label = f"{len(tokens):,} token{'' if len(tokens) == 1 else 's'} only here{more}:"
    return (
        f'<div class="ms-only"><div class="ms-tokens"><span class="ms-only-label">'
        f"{html.escape(label, quote=True)}</span>{spans or '—'}</div></div>"
    )


def _end_summary(real: TrainingRun, branch: TrainingRun, heldout_id: str | None) -> Summary:
    """Both finished tokenizers compared on the held-out text too (kept: it encodes it twice)."""
    cache: dict[tuple[int, str | None], Summary] = st.session_state.setdefault(keys.SUMMARIES, {})
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


def _heldout_choice(run: TrainingRun, row: DeltaGenerator) -> str | None:
    """The built-in text held out (not the one trained on), chosen in a selectbox whose options say
    "held out: <title>" (so it needs no label above it)."""
    trained_on = run.identity.text_digest
    ids = [c.id for c in corpus_index() if digest(corpus_text(c.id)) != trained_on]
    if not ids:
        return None
    titles = {c.id: c.title for c in corpus_index()}
    return row.selectbox(
        "Held-out text (not trained on)",
        ids,
        index=ids.index(next((i for i in HELDOUT_PREFERRED if i in ids), ids[0])),
        format_func=lambda i: f"Held out: {titles[i]}",
        key=keys.HELDOUT,
        label_visibility="collapsed",
        width="stretch",
    )
