"""Token details: bytes, readable form, id, the merge that made it, its genealogy; the Details tab that
shows them (:func:`details_tab`), and WordPiece's and Unigram's (:func:`piece_details_tab`: the piece,
what it covers here, Unigram's score, the text an unknown token swallowed).  The rest is pure.

The genealogy goes down (the tree of merges to single bytes) and up (later tokens built from this
one); every token is a :func:`~mergescope_ui.shared.html.tokens.token_span` (escaped).

>>> from bpe_core import train
>>> tok = train("low low low lower lowest", vocab_size=260, pattern="gpt2")
>>> leaves(genealogy(tok, tok.id_of(b" low")))
[b' ', b'l', b'o', b'w']
>>> d = token_detail(tok, tok.id_of(b"ow"))
>>> d.step, d.readable, [tok.vocab[i] for i in d.children], d.descendants
(1, 'ow', [b'low'], 3)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import SchemeTokenizer, Tokenizer
from bpe_core.byte_level import readable as screen_label
from mergescope_ui.shared.html.schemes import lost_html
from mergescope_ui.shared.html.tables import TABLE_CSS, html_table
from mergescope_ui.shared.html.tokens import TOKEN_CSS, token_span

from . import keys
from .assets import style
from .main_view import Shown, choose_token, picked_position
from .piece_html import PIECE_CSS, marked, piece_facts, piece_span
from .resolve import Picked
from .results import Tokenized
from .schemes import hooks_of

MAX_LISTED = 40
FULL_TREE_BYTES = 12  # a tree this small is shown whole (at most 23 entries)
OPEN_LEVELS = 3  # a bigger one opens its top levels; deeper merges fold under a click


@dataclass(frozen=True, slots=True)
class Genealogy:
    """A token and the two tokens merged to make it (None for a byte or a special token)."""

    id: int
    token: bytes
    step: int | None
    parts: tuple[Genealogy, Genealogy] | None = None


@dataclass(frozen=True, slots=True)
class TokenDetail:
    """Everything the details panel shows about one token."""

    id: int
    token: bytes
    readable: str
    hex: str
    step: int | None  # 1-based merge step that created it; None for bytes and special tokens
    special: bool
    count: int | None  # the pair's count when it was merged, if the trainer recorded it
    children: tuple[int, ...]  # ids made by merges that use this token directly
    descendants: int  # all later tokens built from it (children, their children, ...)


def genealogy(tok: Tokenizer, token_id: int) -> Genealogy:
    """The tree of merges under ``token_id`` (depth at most the token's length in bytes)."""
    step = tok.merge_step_of(token_id)
    if step is None:
        return Genealogy(token_id, tok.vocab[token_id], None)
    a, b = tok.merges[step - 1]
    return Genealogy(token_id, tok.vocab[token_id], step, (genealogy(tok, a), genealogy(tok, b)))


def leaves(node: Genealogy) -> list[bytes]:
    """The bytes at the bottom of ``node``'s tree, left to right."""
    if node.parts is None:
        return [node.token]
    return leaves(node.parts[0]) + leaves(node.parts[1])


def children_map(tok: Tokenizer) -> dict[int, list[int]]:
    """id -> ids of the tokens whose merge uses it (in merge order, each once)."""
    out: dict[int, list[int]] = {}
    for (a, b), made in zip(tok.merges, tok.merge_ids):
        for part in (a, b) if a != b else (a,):
            out.setdefault(part, []).append(made)
    return out


def descendant_count(children: Mapping[int, Sequence[int]], token_id: int) -> int:
    """How many tokens are built, directly or not, from ``token_id``."""
    seen: set[int] = set()
    stack = list(children.get(token_id, ()))
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            stack.extend(children.get(i, ()))
    return len(seen)


def token_detail(tok: Tokenizer, token_id: int, *, counts: Sequence[int] | None = None) -> TokenDetail:
    """Details of ``token_id``; ``counts[k]`` is the pair count at merge ``k + 1``, when known."""
    if token_id not in tok.vocab:
        raise ValueError(f"token id {token_id} is not in this tokenizer's vocab (size {tok.vocab_size})")
    token = tok.vocab[token_id]
    step = tok.merge_step_of(token_id)
    kids = children_map(tok)
    count = counts[step - 1] if step is not None and counts is not None and step <= len(counts) else None
    special = token_id in set(tok.special_tokens.values())
    return TokenDetail(
        id=token_id,
        token=token,
        readable=token.decode("utf-8") if special else screen_label(token),
        hex=token.hex(" ").upper(),
        step=step,
        special=special,
        count=count,
        children=tuple(kids.get(token_id, ())),
        descendants=descendant_count(kids, token_id),
    )


DETAIL_CSS = style("details.css")


def _span(token_id: int, token: bytes) -> str:
    return f'<span class="ms-tokens">{token_span(token_id, token)}</span>'


def genealogy_html(node: Genealogy, *, css: bool = True, open_levels: int = OPEN_LEVELS) -> str:
    """The tree as nested lists: each token with "merge k" and its two parts below it; in a token of
    more than :data:`FULL_TREE_BYTES` bytes each merge below ``open_levels`` folds in a ``<details>``.

    >>> from bpe_core import train
    >>> tok = train("abcdefghijklmn " * 9, vocab_size=275, pattern="none")
    >>> tree = genealogy(tok, tok.encode("abcdefghijklmn ")[0])
    >>> page = genealogy_html(tree, css=False, open_levels=1)
    >>> page.count('ms-step">byte'), "<details" in page, "<details" in genealogy_html(genealogy(tok, 97))
    (15, True, False)
    """
    fold = len(node.token) > FULL_TREE_BYTES

    def walk(n: Genealogy, depth: int) -> str:
        head = f'{_span(n.id, n.token)}<span class="ms-step">{f"merge {n.step}" if n.step else "byte"}</span>'
        if not n.parts:
            return f"<li>{head}</li>"
        inner = f"<ul>{walk(n.parts[0], depth + 1)}{walk(n.parts[1], depth + 1)}</ul>"
        if fold and depth >= open_levels:
            return f'<li><details class="ms-fold"><summary>{head}</summary>{inner}</details></li>'
        return f"<li>{head}{inner}</li>"

    return (TOKEN_CSS + DETAIL_CSS if css else "") + f'<div class="ms-tree"><ul>{walk(node, 0)}</ul></div>'


def later_tokens_html(tok: Tokenizer, ids: Sequence[int], *, limit: int = MAX_LISTED) -> str:
    """The tokens in ``ids`` (the first ``limit``) as spans on one line, with a count of the rest."""
    spans = "".join(token_span(i, tok.vocab[i]) for i in ids[:limit])
    more = f'<span class="ms-more"> … and {len(ids) - limit:,} more</span>' if len(ids) > limit else ""
    if not ids:
        spans = '<span class="ms-empty">none: no later merge uses this token</span>'
    return f'<div class="ms-tokens ms-later" style="max-height:none">{spans}{more}</div>'


def first_positions(ids: Sequence[int], *, start: int = 0) -> dict[int, int]:
    """Each distinct id -> its first position in ``ids`` (offset by ``start``), in order of appearance.

    >>> first_positions([5, 7, 5, 9], start=10)
    {5: 10, 7: 11, 9: 13}
    """
    out: dict[int, int] = {}
    for pos, i in enumerate(ids, start=start):
        out.setdefault(i, pos)
    return out


def describe(detail: TokenDetail) -> str:
    """One escaped HTML line summarizing ``detail`` (for a caption)."""
    made = (
        "a special token"
        if detail.special
        else (f"made by merge {detail.step}" if detail.step else "a single byte (in every byte-level vocab)")
    )
    times = "" if detail.count is None else f"{detail.count:,} time{'' if detail.count == 1 else 's'}"
    count = f" · the pair occurred {times} then" if times else ""
    return html.escape(f"id {detail.id} · {len(detail.token)} bytes · {made}{count}", quote=True)


def facts_table(detail: TokenDetail) -> pd.DataFrame:
    """The facts of ``detail`` as (field, value) strings (an HTML table's: its cells wrap).

    >>> from bpe_core import train
    >>> tok = train("low low low lower lowest", vocab_size=260, pattern="gpt2")
    >>> facts = facts_table(token_detail(tok, tok.id_of(b"ow"))).set_index("field")["value"]
    >>> facts["bytes (hex)"], facts["merge step"], facts["later tokens built on it"]
    ('6F 77', '1', '3')
    """
    rows = {
        "id": str(detail.id),
        "readable": detail.readable,
        "bytes (hex)": detail.hex,
        "length": f"{len(detail.token)} bytes",
        "merge step": "—" if detail.step is None else str(detail.step),
        "pair count then": "—" if detail.count is None else f"{detail.count:,}",
        "later tokens built on it": f"{detail.descendants:,}",
    }
    return pd.DataFrame({"field": list(rows), "value": list(rows.values())})


MAX_CHOICES = 3000  # the Details tab's selectbox offers this many tokens at most


def _token_card(css: str, top: str, facts: pd.DataFrame) -> DeltaGenerator:
    """The token (``top``) and its facts in the left column (``css``: the token's styles); the right one."""
    left, right = st.columns([1, 1.3], gap="large")
    left.html(f'{TOKEN_CSS}{css}{TABLE_CSS}{top}<div class="ms-facts">{html_table(facts)}</div>')
    return right


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
    big = f'<div class="ms-tokens ms-big">{token_span(detail.id, detail.token, special=detail.special)}</div>'
    about = f'<p style="font-size:1.1em">{describe(detail)}</p>'
    with _token_card(DETAIL_CSS, big + about, facts_table(detail)):
        st.markdown("**Genealogy: how it was built, down to bytes**")
        if len(detail.token) > FULL_TREE_BYTES:
            st.caption(f"The first {OPEN_LEVELS} levels are open; click ▸ on a merge to open its parts.")
        st.html(genealogy_html(genealogy(tok, token_id)))
        st.markdown(f"**Later tokens made directly from it** ({len(detail.children):,})")
        st.html(TOKEN_CSS + DETAIL_CSS + later_tokens_html(tok, list(detail.children)))


def _label(token: bytes, special: bool) -> str:
    return token.decode("utf-8", "replace") if special else screen_label(token)


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
    span = piece_span(c, score=detail.score, special=detail.special)
    big = f'<div class="ms-tokens" style="font-size:2.2em;border:none;max-height:none">{span}</div>'
    with _token_card(PIECE_CSS, big, facts):
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
