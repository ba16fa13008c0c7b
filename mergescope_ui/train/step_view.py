"""The current step of the Train page, built first and sent in one burst.

The figures, the merge card, the pair-count chart and table, the sequence
before and after, the tokens-by-step chart and the merges so far.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from mergescope_ui.shared.blocks import Figure, caption_html, figures_html, heading_html
from mergescope_ui.shared.html_tables import html_table
from mergescope_ui.shared.token_html import merged_positions, token_spans_html, window_length
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .cards import merge_card_html
from .charts import pair_count_spec, tokens_line_spec
from .tables import (
    crosses_word_boundary,
    longest_tokens,
    merges_csv,
    merges_table,
    pair_table,
    tokens_by_step,
)


def step_view(run: TrainingRun, *, large: bool, window_bytes: int) -> Callable[[str], None]:
    """Build the step's HTML, tables and chart specs; return the function that puts them on the page.

    Building first and then sending every element back to back matters in the browser: elements
    that trickle in while the script still works each set off a redraw of the page (~10 ms each
    in a Chrome trace), where a burst is drawn in one go.
    """
    # Headings, captions and figures go out as HTML next to the content they introduce: every
    # separate element (a metric is three Markdown blocks) is more work for the browser at each step.
    trainer = run.trainer
    step = run.current
    settings = run.identity.settings
    special_ids = frozenset(trainer.special_tokens.values())
    tokens_now = step.tokens_after if step else trainer.initial_tokens
    figures = figures_html(
        [
            Figure("Vocab size", f"{256 + len(special_ids) + run.position:,}", delta="1" if step else None),
            Figure(
                "Corpus tokens", f"{tokens_now:,}", delta=f"{-step.replaced:,}" if step else None, good=True
            ),
            Figure("Bytes per token", f"{trainer.corpus_bytes / max(tokens_now, 1):.3f}"),
            Figure("Merges", f"{run.position:,} / {settings.max_merges:,}"),
        ]
    )
    left_parts: list[tuple[str, object]] = []  # ("html", markup) or ("chart", spec), in page order
    right_parts: list[tuple[str, object]] = []
    if step is None:
        left_parts.append(
            (
                "html",
                heading_html("No merge yet") + "<p>Every token is one byte. BPE counts "
                "adjacent pairs and merges the most frequent one.</p>",
            )
        )
        upcoming = run.peek()
        if upcoming is not None and not st.session_state.get(keys.QUIZ):
            left_parts.append(("html", heading_html("Pair counts now")))
            table = pair_table(upcoming).assign(status="other", chosen=False, tied=False)
            left_parts.append(("chart", pair_count_spec(table, large=large)))
    else:
        left_parts.append(
            (
                "html",
                merge_card_html(step, special_ids=special_ids, css=False)
                + heading_html(f"Pair counts before merge {step.index}"),
            )
        )
        table = pair_table(step)
        left_parts.append(("chart", pair_count_spec(table, large=large)))
        # Plain HTML, not st.dataframe: a small static table redraws far faster at every step.
        left_parts.append(
            (
                "html",
                html_table(
                    table[["rank", "pair", "count", "status", "left_id", "right_id"]],
                    row_classes=[f"ms-{s}" for s in table["status"]],
                    wrap=True,
                ),
            )
        )

    # Only the window's tokens go to the browser (their spans are most of its work at each step).
    vocab = trainer.vocab
    after = run.sequence()
    shown_after = max(1, window_length(after, vocab, window_bytes))
    if step is None:
        right_parts.append(
            (
                "html",
                heading_html("The sequence (raw bytes)")
                + token_spans_html(after, vocab, special_ids=special_ids, css=False, max_tokens=shown_after),
            )
        )
    else:
        before = run.sequence(run.position - 1)
        shown_before = max(1, window_length(before, vocab, window_bytes))
        try:
            old_pos, new_pos = merged_positions(before, after, pair=step.pair, new_id=step.new_id)
        except ValueError:
            old_pos, new_pos = [], [i for i, t in enumerate(after) if t == step.new_id]
        new_here = sum(p < shown_after for p in new_pos)
        right_parts.append(
            (
                "html",
                heading_html(f"After merge {step.index}")
                + caption_html(
                    f"{min(shown_after, len(after)):,} of {len(after):,} tokens in the "
                    f"preview; the {new_here:,} new tokens among them are outlined"
                )
                + token_spans_html(
                    after,
                    vocab,
                    emphasize=new_pos,
                    special_ids=special_ids,
                    css=False,
                    max_tokens=shown_after,
                ),
            )
        )
        right_parts.append(
            (
                "html",
                heading_html(f"Before merge {step.index}")
                + caption_html(
                    f"{min(shown_before, len(before)):,} of {len(before):,} tokens; "
                    "the pairs that merge are outlined"
                )
                + token_spans_html(
                    before,
                    vocab,
                    emphasize=old_pos,
                    special_ids=special_ids,
                    css=False,
                    max_tokens=shown_before,
                )
                + heading_html("Corpus tokens by step"),
            )
        )
        series = tokens_by_step(trainer.initial_tokens, run.records[: run.position])
        right_parts.append(("chart", tokens_line_spec(series, current_step=run.position, large=large)))
    merges = _merges_so_far(run, large=large) if step is not None else None

    def show(lead: str = "") -> None:
        st.html(lead + figures)
        left, right = st.columns([1.05, 1], gap="large")
        for column, parts in ((left, left_parts), (right, right_parts)):
            for kind, content in parts:
                if kind == "chart":
                    column.vega_lite_chart(content, width="stretch")
                else:
                    column.html(content)
        if merges is not None:
            merges()

    return show


RECENT_MERGES = 12


def _merges_so_far(run: TrainingRun, *, large: bool) -> Callable[[], None]:
    """Build the merges-so-far section; return the function that puts it on the page."""
    steps = run.records[: run.position]
    longest = longest_tokens(steps, n=10).rename(columns={"crosses_words": "🚩"})
    crossing = sum(crosses_word_boundary(s.token) for s in steps)
    note = (
        f"🚩 {crossing} token(s) cross a word boundary; try pre-tokenization GPT-2 to prevent them."
        if crossing
        else "No token crosses a word boundary so far."
    )
    longest_html = heading_html("Longest tokens so far") + html_table(longest, wrap=True) + caption_html(note)
    heading = heading_html(f"Merges so far ({len(steps):,})")
    show_all = bool(st.session_state.get(keys.ALL_MERGES))
    if show_all:
        table = merges_table(steps)
        both = ""
    else:
        recent = merges_table(steps[: -RECENT_MERGES - 1 : -1]).rename(columns={"crosses_words": "🚩"})
        recent_html = (
            heading
            + caption_html(
                f"The latest {len(recent)} merges, newest first; the CSV below has all {len(steps):,}."
            )
            + html_table(recent, wrap=True)
        )
        # Both tables side by side in one HTML block (a CSS grid, see shared.blocks.BLOCK_CSS): one element to
        # redraw at every Next where st.columns made five.
        both = (
            f'<hr class="ms-rule"><div class="ms-split"><div>{recent_html}</div>'
            f"<div>{longest_html}</div></div>"
        )

    def show() -> None:
        if show_all:
            st.html('<hr class="ms-rule">' + heading)
            row = 46 if large else 35
            st.dataframe(
                table,
                hide_index=True,
                height=min(row * (len(table) + 1) + 3, 9 * row),
                width="stretch",
                row_height=row,
                column_config={
                    "crosses_words": st.column_config.CheckboxColumn(
                        "crosses words",
                        help=(
                            "The token runs past the end of a word (like 'e␣'): a word-splitting "
                            "pre-tokenizer prevents it"
                        ),
                    )
                },
            )
        else:
            st.html(both)
        st.toggle(
            "Show every merge (sortable table)",
            key=keys.ALL_MERGES,
            help="Off: the latest merges as a light table, quicker to redraw at every step.",
        )
        # A callable: the CSV is built when the button is clicked, not at every step (a file sent with
        # each step also made the browser fetch its new URL to check it, at every Next).
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

    return show
