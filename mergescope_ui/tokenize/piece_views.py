"""The Tokenize page's Details tab for WordPiece and Unigram tokenizers: one token, and how its word was cut
(the piece, what it covers here, Unigram's score, the text an unknown token swallowed; all escaped)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import streamlit as st

from bpe_core import SchemeTokenizer
from mergescope_ui.shared.html.schemes import lost_html
from mergescope_ui.shared.html.tables import TABLE_CSS, html_table
from mergescope_ui.shared.html.tokens import TOKEN_CSS

from . import keys
from .details import MAX_CHOICES
from .main_view import Shown, choose_token
from .piece_html import PIECE_CSS, marked, piece_facts, piece_span
from .results import Tokenized
from .schemes import hooks_of


def piece_details_tab(tok: SchemeTokenizer, shown: Shown) -> None:
    """The token clicked above (else the page's longest piece), and its details; a selectbox picks another
    (one choice per distinct piece, and one per unknown token: each stands for other text)."""
    hooks = hooks_of(tok)
    pieces = hooks.pieces
    if pieces is None:
        raise ValueError(f"{hooks.name} tokens are bytes, not pieces: show their details with details_tab")
    result, page = shown.result, shown.page
    cuts = result.cuts
    options: list[int] = []
    seen: set[int] = set()
    for pos in range(page.start, page.stop):
        c = cuts[pos]
        if c.unknown or c.id not in seen:
            seen.add(c.id)
            options.append(pos)
        if len(options) >= MAX_CHOICES:
            break
    if not options:
        st.info("No tokens to inspect.")
        return
    position = choose_token(
        shown,
        options,
        key=keys.PIECE_DETAIL,
        of_position=lambda p: p,
        longest=lambda p: (len(cuts[p].label), -p),
        position_of=lambda p: p if isinstance(p, int) else None,
        label=lambda p: f"{marked(cuts[p].label)}  · id {cuts[p].id} · at token {p + 1:,}",
    )
    c = cuts[position]
    detail = pieces.detail(tok, c)
    facts = piece_facts(detail, name=hooks.name, vocab_size=tok.vocab_size, pieces=pieces.ranked(tok))
    left, right = st.columns([1, 1.3], gap="large")
    with left:
        st.html(
            TOKEN_CSS
            + PIECE_CSS
            + TABLE_CSS
            + '<div class="ms-tokens" style="font-size:2.2em;border:none;max-height:none">'
            + piece_span(c, score=detail.score, special=detail.special)
            + "</div>"
            + f'<div class="ms-facts">{html_table(facts)}</div>'
        )
    with right:
        if detail.unknown:
            st.markdown("**Lost here**")
            st.caption(
                "The unknown token keeps nothing of the text it stands for: decoding gives the unknown "
                "token back, not this."
            )
            st.html(
                PIECE_CSS + '<div class="ms-piece-lost">' + lost_html(c.text, [(0, len(c.text))]) + "</div>"
            )
        else:
            st.markdown(f"**How {hooks.name} cut this word**")
            st.caption(pieces.how_cut)
            starts_word = partial(pieces.starts_word, tok)
            st.html(
                TOKEN_CSS + PIECE_CSS + _word_html(result, position, starts_word, scores=pieces.scores(tok))
            )


def _word_html(
    result: Tokenized,
    position: int,
    starts_word: Callable[[str], bool],
    *,
    scores: Sequence[float] | None = None,
) -> str:
    """The pieces of the word around ``position`` (up to the next that ``starts_word``), the picked one
    outlined."""
    cuts = result.cuts
    lo = position
    while lo > 0 and not starts_word(cuts[lo].label) and not cuts[lo].unknown:
        lo -= 1
    hi = position + 1
    while hi < len(cuts) and not starts_word(cuts[hi].label) and not cuts[hi].unknown and hi - lo < 60:
        hi += 1
    spans = []
    for p in range(lo, hi):
        c = cuts[p]
        span = piece_span(c, score=None if scores is None or c.unknown else scores[c.id])
        if p == position:
            span = span.replace('class="ms-t', 'class="ms-t ms-new', 1)
        spans.append(span)
    total = ""
    if scores is not None:
        score = sum(scores[cuts[p].id] for p in range(lo, hi) if not cuts[p].unknown)
        total = f"<p>Score of these pieces: {score:.4g}</p>"
    return '<div class="ms-tokens" style="max-height:none">' + "".join(spans) + "</div>" + total
