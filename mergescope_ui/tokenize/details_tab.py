"""The Token details tab: one token's bytes, the merge that made it, its genealogy and later tokens."""

from __future__ import annotations

import streamlit as st

from bpe_core.byte_level import readable as screen_label
from mergescope_ui.shared.html.tables import TABLE_CSS, html_table
from mergescope_ui.shared.html.tokens import TOKEN_CSS, token_span

from . import keys
from .details import (
    DETAIL_CSS,
    FULL_TREE_BYTES,
    OPEN_LEVELS,
    describe,
    facts_table,
    first_positions,
    genealogy,
    genealogy_html,
    later_tokens_html,
    token_detail,
)
from .main_view import Shown, choose_token, picked_position
from .resolve import Picked

MAX_CHOICES = 3000  # the Details tab's selectbox offers this many tokens at most


def details_tab(picked: Picked, shown: Shown) -> None:
    """The token clicked above (else the page's longest) and its story; a selectbox picks another."""
    result, page = shown.result, shown.page
    tok = picked.tokenizer.as_bpe() if picked.tokenizer is not None else None
    if tok is None:
        st.info("The character baseline has no merges: each token is one character of its corpus.")
        return
    firsts = first_positions(result.ids[page.start : page.stop], start=page.start)
    options = list(firsts)[:MAX_CHOICES]
    if not options:
        st.info("No tokens to inspect.")
        return
    where = {**firsts, **({result.ids[c]: c} if (c := picked_position(shown)) is not None else {})}
    token_id = choose_token(
        shown,
        options,
        key=keys.DETAIL,
        of_position=lambda p: result.ids[p],
        longest=lambda i: (len(result.vocab[i]), -firsts[i]),
        position_of=where.get,
        label=lambda i: (
            f"{_label(tok.vocab[i], i in result.special_ids)}  · id {i} · at token {where.get(i, 0) + 1:,}"
        ),
    )
    detail = token_detail(tok, token_id, counts=picked.counts)
    left, right = st.columns([1, 1.3], gap="large")
    with left:
        st.html(
            TOKEN_CSS
            + DETAIL_CSS
            + TABLE_CSS
            + '<div class="ms-tokens ms-big">'
            + token_span(detail.id, detail.token, special=detail.special)
            + "</div>"
            + f'<p style="font-size:1.1em">{describe(detail)}</p>'
            + f'<div class="ms-facts">{html_table(facts_table(detail))}</div>'
        )
    with right:
        st.markdown("**Genealogy: how it was built, down to bytes**")
        if len(detail.token) > FULL_TREE_BYTES:
            st.caption(f"The first {OPEN_LEVELS} levels are open; click ▸ on a merge to open its parts.")
        st.html(genealogy_html(genealogy(tok, token_id)))
        st.markdown(f"**Later tokens made directly from it** ({len(detail.children):,})")
        st.html(TOKEN_CSS + DETAIL_CSS + later_tokens_html(tok, list(detail.children)))


def _label(token: bytes, special: bool) -> str:
    return token.decode("utf-8", "replace") if special else screen_label(token)
