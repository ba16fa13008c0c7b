"""The Token details tab: one token's bytes, the merge that made it, its genealogy and later tokens."""

from __future__ import annotations

import streamlit as st

from bpe_core import Tokenizer
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
from .main_view import PickedToken, Shown, picked_position
from .resolve import Picked

MAX_DETAIL_CHOICES = 3000


def details_tab(picked: Picked, shown: Shown) -> None:
    """The token clicked above (else the page's longest) and its story; a selectbox picks another."""
    result, page = shown.result, shown.page
    tok = picked.tokenizer.as_bpe() if picked.tokenizer is not None else None
    if tok is None:
        st.info("The character baseline has no merges: each token is one character of its corpus.")
        return
    firsts = first_positions(result.ids[page.start : page.stop], start=page.start)
    options = list(firsts)[:MAX_DETAIL_CHOICES]
    if not options:
        st.info("No tokens to inspect.")
        return
    clicked = picked_position(shown)
    mark: PickedToken | None = st.session_state.get(keys.PICKED)
    if clicked is not None and mark is not None and (mark.fresh or st.session_state.get(keys.DETAIL) is None):
        mark.fresh = False
        token = result.ids[clicked]
        if token not in options:
            options.append(token)
        st.session_state[keys.DETAIL] = token
    if st.session_state.get(keys.DETAIL) not in options:
        longest = max(options, key=lambda i: (len(result.vocab[i]), -firsts[i]))
        st.session_state[keys.DETAIL] = longest
    where = {**firsts, **({result.ids[clicked]: clicked} if clicked is not None else {})}
    token_id = st.selectbox(
        "Token (click one in the text above, or pick it here)",
        options,
        key=keys.DETAIL,
        on_change=_follow_choice,
        args=(shown, where),
        format_func=lambda i: (
            f"{tok.vocab[i].decode('utf-8', 'replace') if i in result.special_ids else _label(tok, i)}"
            f"  · id {i} · at token {where.get(i, 0) + 1:,}"
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


def _follow_choice(shown: Shown, where: dict[int, int]) -> None:
    """The selectbox picked a token: outline it in the text (its first place on this page)."""
    token_id = st.session_state.get(keys.DETAIL)
    if token_id in where:
        st.session_state[keys.PICKED] = PickedToken(shown.signature, where[token_id], fresh=False)


def _label(tok: Tokenizer, token_id: int) -> str:
    return screen_label(tok.vocab[token_id])
