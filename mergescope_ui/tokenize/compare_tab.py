"""The Compare tab: two to four tokenizers on the same text, as a table, a bar chart and spans (the
tokenizer in use and a baseline until the list is edited)."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape

from . import keys
from .main_view import spans_html
from .resolve import Picked, corpus_titles, local_tokenizers, resolve, tokenized, training_run
from .results import Tokenized, compare_table, page_of, text_counts, what_is_lost
from .screen import presenting
from .share import MAX_COMPARE
from .specs import (
    BytesSpec,
    CharSpec,
    QuickSpec,
    SessionSpec,
    TextCharsSpec,
    TokenizerSpec,
    UploadSpec,
    parse,
)
from .tokenizer_picker import DEFAULT_VOCAB, default_corpus

COMPARE_SPAN_TOKENS = 600
_NARROW = ("vocab size", "tokens", "unknown tokens", "round trip")
_NARROW_PX = 72
BAR_STEP, BAR_STEP_LARGE = 34, 52  # pixels per tokenizer in the bar chart


def default_compare(current: TokenizerSpec) -> list[str]:
    """The tokenizer in use and one baseline that always works: raw bytes (where BPE starts from), or,
    when raw bytes is the one in use, the characters of the text itself.

    >>> default_compare(parse("tiktoken:o200k_base"))
    ['tiktoken:o200k_base', 'bytes:gpt2']
    >>> default_compare(parse("bytes:none"))
    ['bytes:none', 'textchars']
    """
    other: TokenizerSpec = TextCharsSpec() if isinstance(current, BytesSpec) else BytesSpec()
    return [current.key(), other.key()]


def _edited() -> None:
    st.session_state[keys.COMPARE_EDITED] = True


def compare_tab(text: str, picked: Picked) -> None:
    """The tokenizers to compare: the one in use and a baseline, until the list is edited."""
    current = picked.spec
    titles = corpus_titles()
    if not st.session_state.get(keys.COMPARE_EDITED):
        st.session_state[keys.COMPARE] = default_compare(current)
    options = list(dict.fromkeys([*_compare_options(current, titles), *st.session_state[keys.COMPARE]]))
    labels = {k: _label(k, titles) for k in options}
    picked_keys = st.multiselect(
        f"Tokenizers to compare (2 to {MAX_COMPARE})",
        options,
        key=keys.COMPARE,
        max_selections=MAX_COMPARE,
        format_func=labels.__getitem__,
        on_change=_edited,
        persist_state="session",
        help="Every tokenizer used on this page in this session is offered, and those on this machine.",
    )
    if len(picked_keys) < 2:
        st.info("Pick at least two tokenizers to compare.")
        return
    rows: list[Tokenized] = []
    for key in picked_keys:
        p = picked if key == current.key() else resolve(parse(key), text=text)
        r = tokenized(p, text)
        if r is None:
            r = Tokenized(p.label, (), {}, text_counts(text, None), 0, error=p.error or "not available")
        rows.append(r)
    table = compare_table(rows)
    pieces = any(r.pieces for r in rows)
    # With WordPiece or Unigram the table has two more columns; the characters and bytes (the same on
    # every row: the counts above) make room for them, so every column stays in sight on a projector.
    st.dataframe(
        table.drop(columns=["characters", "bytes"]) if pieces else table,
        hide_index=True,
        width="stretch",
        column_config=_columns(pieces=pieces),
    )
    for r in rows:
        if lost := what_is_lost(r):
            st.caption(f"{md_escape(r.label)}: {md_escape(lost)} (see Decoded back under its tokens).")
    chart_data = table.dropna(subset=["tokens"])[["tokenizer", "tokens"]]
    if not chart_data.empty:
        st.altair_chart(compare_chart(chart_data, large=presenting()), width="stretch")
    cols = st.columns(2)
    for n, r in enumerate(rows):
        with cols[n % 2]:
            st.markdown(f"**{md_escape(r.label)}**")
            if r.error:
                st.error(md_escape(r.error))
            else:
                st.html(spans_html(r, page_of(len(r.ids), page=1), max_tokens=COMPARE_SPAN_TOKENS))


def _columns(*, pieces: bool) -> dict[str, Any]:
    """The table's column settings; with WordPiece or Unigram, widths that keep it within 800 px."""
    width = _NARROW_PX if pieces else None
    ratios = {
        c: st.column_config.NumberColumn(width=width, format="%.2f") for c in ("bytes/token", "chars/token")
    }
    if not pieces:
        return ratios
    numbers = {c: st.column_config.Column(width=_NARROW_PX) for c in _NARROW}
    wide = {c: st.column_config.Column(width=px) for c, px in (("tokenizer", 170), ("note", 200))}
    return numbers | ratios | wide


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
    # A band per tokenizer of a fixed step: Streamlit ignores a fixed height on a discrete axis and
    # squeezes the bars to a few pixels (their labels overlap in presenter mode).
    return (bars + text).properties(height=alt.Step(BAR_STEP_LARGE if large else BAR_STEP))


def _label(key: str, titles: dict[str, str]) -> str:
    spec = parse(key)
    if isinstance(spec, UploadSpec):
        loaded = st.session_state.get(keys.UPLOADS, {}).get(spec.digest)
        return f"uploaded {', '.join(loaded.names)}" if loaded is not None else "uploaded files"
    return spec.label(titles=titles)


def _compare_options(current: TokenizerSpec, titles: dict[str, str]) -> list[str]:
    """The one in use, every one used this session, those on this machine and the uploads, then
    quick-trained sizes, the baselines and the other built-in texts."""
    opts: list[str] = [current.key(), *st.session_state.get(keys.USED, [])]
    if training_run() is not None:
        opts.append(SessionSpec().key())
    opts.extend(f.key for f in local_tokenizers().found)
    opts.extend(UploadSpec(digest=d).key() for d in st.session_state.get(keys.UPLOADS, {}))
    vocab = current.vocab_size if isinstance(current, QuickSpec) else DEFAULT_VOCAB
    pattern = current.pattern if isinstance(current, (QuickSpec, BytesSpec)) else "gpt2"
    corpus = current.corpus if isinstance(current, (QuickSpec, CharSpec)) else ""
    focus = corpus if corpus in titles else default_corpus(titles)
    for size in sorted({300, vocab, 1000, 2000}):
        opts.append(QuickSpec(corpus=focus, vocab_size=size, pattern=pattern).key())
    opts.append(BytesSpec(pattern="gpt2").key())
    opts.append(TextCharsSpec().key())
    for corpus in titles:
        opts.append(QuickSpec(corpus=corpus, vocab_size=vocab, pattern=pattern).key())
    opts.extend(CharSpec(corpus=c).key() for c in titles)
    return list(dict.fromkeys(opts))
