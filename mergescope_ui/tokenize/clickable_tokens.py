"""The text as coloured token spans you can click (a Streamlit components v2 element, no iframe).

The spans are :func:`~mergescope_ui.shared.html.tokens.token_span`'s, each with its position
(``data-i``).  A click, or Enter on a focused token, reports that position to Python; the browser
outlines it at once.  Tab reaches the tokens once, the arrow keys move between them.  For screen
readers the tokens are a list, each item named by its text, id and byte count (:func:`token_name`).

>>> html = clickable_spans_html([104, 60], {104: b"h", 60: b"<"}, start=10)
>>> html.count('data-i="'), 'data-i="11"' in html, "&lt;" in html, "<script" in html
(2, True, True, False)
>>> html.count('role="listitem"'), 'aria-label="&quot;&lt;&quot;, id 60, 1 byte"' in html
(2, True)
"""

from __future__ import annotations

import html as html_lib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace

import streamlit as st

from bpe_core.byte_level import readable as screen_label
from mergescope_ui.shared.html.tokens import token_span
from mergescope_ui.shared.stage.contract import wire

from .assets import asset
from .encoder_table import LIST_NAME, LiveView
from .results import COUNT_LABELS, Counts

# The encoder (a classic script that defines globalThis.msEncoder once), then the view (the module).
_JS = asset("encoder.js") + "\n" + asset("view.js")
_SPANS = st.components.v2.component(
    "mergescope_clickable_tokens", js=_JS, css=asset("view.css"), isolate_styles=False
)


def clickable_spans_html(
    ids: Sequence[int],
    vocab: Mapping[int, bytes],
    *,
    start: int = 0,
    special_ids: Collection[int] = (),
    max_tokens: int = 5000,
    marks: bool = True,
) -> str:
    """``<div class="ms-tokens">`` with one span per id, ``data-i`` = its position + ``start``."""
    special = set(special_ids)
    parts = [f'<div class="ms-tokens" role="list" aria-label="{LIST_NAME}">']
    for pos, token_id in enumerate(ids[:max_tokens], start=start):
        token, is_special = vocab[token_id], token_id in special
        span = token_span(token_id, token, special=is_special, marks=marks)
        name = html_lib.escape(token_name(token_id, token, special=is_special), quote=True)
        # span starts with "<span"
        parts.append(f'<span data-i="{pos}" role="listitem" aria-label="{name}"{span[5:]}')
    if not ids:
        parts.append('<span class="ms-empty" role="listitem">(empty text)</span>')
    if len(ids) > max_tokens:
        parts.append(
            f'<span class="ms-more" role="listitem"> … {len(ids) - max_tokens:,} more tokens not shown</span>'
        )
    parts.append("</div>")
    return "".join(parts)


def token_name(token_id: int, token: bytes, *, special: bool = False) -> str:
    """What a screen reader says for a token: its text (whitespace marked), id and byte count.

    The same words as ``look()`` in ``live_assets/encoder.js`` (the browser test compares them).

    >>> token_name(262, b" the"), token_name(60, b"<"), token_name(50256, b"<|endoftext|>", special=True)
    ('"␣the", id 262, 4 bytes', '"<", id 60, 1 byte', '"<|endoftext|>", id 50256, 13 bytes, special token')
    >>> token_name(300, b"\\xe6\\x9c")
    '"<E6><9C>", id 300, 2 bytes'
    """
    text = token.decode("utf-8") if special else screen_label(token)
    size = f"{len(token)} {'byte' if len(token) == 1 else 'bytes'}"
    return f'"{text}", id {token_id}, {size}' + (", special token" if special else "")


def clickable_tokens(
    html: str,
    *,
    key: str,
    signature: str,
    page: int,
    picked: int | None,
    on_pick: Callable[[int], None],
    counts: Counts,
    live: LiveView | None = None,
) -> None:
    """Draw ``html`` (:func:`clickable_spans_html`) under ``counts``; a click calls ``on_pick(position)``.

    The browser replaces the spans only when ``signature`` (tokenizer, text, page) changes; with
    ``live`` (how to follow the typing) it draws page 1 itself from the text as typed.
    """

    def clicked() -> None:
        value = (st.session_state.get(key) or {}).get("picked")
        if isinstance(value, int) and not isinstance(value, bool):
            on_pick(value)

    view = replace(
        live or LiveView(),
        html=html,
        sig=signature,
        page=page,
        picked=picked,
        characters=counts.characters,
        bytes=counts.bytes,
        tokens=counts.tokens or 0,
        count_labels=COUNT_LABELS,
    )
    _SPANS(key=key, data=wire(view), on_picked_change=clicked, on_missing_change=lambda: None)


def missing_table(key: str) -> str:
    """The table the browser said it lacks (its key), for the view drawn with ``key``; ``""``: none."""
    value = (st.session_state.get(key) or {}).get("missing")
    return value if isinstance(value, str) else ""
