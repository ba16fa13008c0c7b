"""The Compare tab: two to four tokenizers on the same text, as a table, a bar chart and spans."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from mergescope_ui.shared import keys as shared_keys

from . import keys
from .main_view import spans_html
from .resolve import Picked, corpus_titles, resolve, tokenized, training_run
from .results import Counts, Tokenized, compare_table, page_of, text_counts
from .share import MAX_COMPARE
from .specs import BYTES, CHAR, QUICK, SESSION, UPLOAD, TokenizerSpec
from .tokenizer_picker import DEFAULT_VOCAB, default_corpus

COMPARE_SPAN_TOKENS = 600


def compare_tab(text: str, picked: Picked) -> None:
    """The tokenizers to compare (this one, a raw-bytes and a character baseline to start with)."""
    current = picked.spec
    titles = corpus_titles()
    options = _compare_options(current, titles)
    chosen = st.session_state.get(keys.COMPARE)
    if chosen is None:
        chosen = [current.key(), TokenizerSpec(kind=BYTES, pattern="gpt2").key()]
        corpus = current.corpus if current.corpus in titles else default_corpus(titles)
        chosen.append(TokenizerSpec(kind=CHAR, corpus=corpus).key())
        st.session_state[keys.COMPARE] = chosen
    for key in st.session_state[keys.COMPARE]:
        if key not in options:
            options.append(key)
    labels = {k: TokenizerSpec.parse(k).label(titles=titles) for k in options}
    picked_keys = st.multiselect(
        f"Tokenizers to compare (2 to {MAX_COMPARE})",
        options,
        key=keys.COMPARE,
        max_selections=MAX_COMPARE,
        format_func=labels.__getitem__,
        persist_state="session",
    )
    if len(picked_keys) < 2:
        st.info("Pick at least two tokenizers to compare.")
        return
    rows: list[Tokenized] = []
    for key in picked_keys:
        p = picked if key == current.key() else resolve(TokenizerSpec.parse(key))
        r = tokenized(p, text)
        if r is None:
            r = Tokenized(p.label, (), {}, _no_counts(text), 0, error=p.error or "not available")
        rows.append(r)
    table = compare_table(rows)
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        column_config={
            "bytes/token": st.column_config.NumberColumn(format="%.2f"),
            "chars/token": st.column_config.NumberColumn(format="%.2f"),
        },
    )
    chart_data = table.dropna(subset=["tokens"])[["tokenizer", "tokens"]]
    if not chart_data.empty:
        large = bool(st.session_state.get(shared_keys.PRESENTER, False))
        st.altair_chart(compare_chart(chart_data, large=large), width="stretch")
    cols = st.columns(2)
    for n, r in enumerate(rows):
        with cols[n % 2]:
            st.markdown(f"**{r.label}**")
            if r.error:
                st.error(r.error)
            else:
                st.html(spans_html(r, page_of(len(r.ids), page=1), max_tokens=COMPARE_SPAN_TOKENS))


def compare_chart(data: pd.DataFrame, *, large: bool = False) -> alt.LayerChart:
    """Horizontal bars: tokens per tokenizer, fewest on top, the count printed at each bar's end."""
    size = 20 if large else 13
    base = alt.Chart(data).encode(
        y=alt.Y("tokenizer:N", sort="x", title=None, axis=alt.Axis(labelLimit=420, labelFontSize=size)),
        x=alt.X(
            "tokens:Q",
            title="tokens for this text (fewer = better compression)",
            axis=alt.Axis(labelFontSize=size, titleFontSize=size),
        ),
        tooltip=["tokenizer", "tokens"],
    )
    bars = base.mark_bar(color="#e8590c")
    text = base.mark_text(align="left", dx=4, fontSize=size).encode(text="tokens:Q")
    return (bars + text).properties(height=max(120, 48 * len(data)))


def _no_counts(text: str) -> Counts:
    return text_counts(text, None)


def _compare_options(current: TokenizerSpec, titles: dict[str, str]) -> list[str]:
    opts: list[str] = [current.key()]
    if training_run() is not None:
        opts.append(TokenizerSpec(kind=SESSION).key())
    if st.session_state.get(keys.UPLOADED) is not None:
        opts.append(TokenizerSpec(kind=UPLOAD).key())
    vocab = current.vocab_size if current.kind == QUICK else DEFAULT_VOCAB
    pattern = current.pattern if current.kind in (QUICK, BYTES) else "gpt2"
    focus = current.corpus if current.corpus in titles else default_corpus(titles)
    for size in sorted({300, vocab, 1000, 2000}):
        opts.append(TokenizerSpec(kind=QUICK, corpus=focus, vocab_size=size, pattern=pattern).key())
    for corpus in titles:
        opts.append(TokenizerSpec(kind=QUICK, corpus=corpus, vocab_size=vocab, pattern=pattern).key())
    opts.append(TokenizerSpec(kind=BYTES, pattern="gpt2").key())
    opts.extend(TokenizerSpec(kind=CHAR, corpus=c).key() for c in titles)
    return list(dict.fromkeys(opts))
