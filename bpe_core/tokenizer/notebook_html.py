"""What a notebook shows of the engine's records: static HTML with inline styles, every string escaped.

Jupyter, VS Code and GitHub's notebook viewer call an object's ``_repr_html_`` and show what it returns
without extensions (nor scripts, nor ``<style>`` blocks: inline styles only).  The engine's records use
these functions: a text's tokens (``tokenizer.token_spans(text)``, a :class:`~.bpe.TokenSpans`), one
merge (:class:`~bpe_core.training.records.MergeStep`) and a run's merges so far
(:class:`~bpe_core.training.trainer.Trainer`).  No UI here: the app draws its own (``mergescope_ui``).

>>> html = tokens_html([(258, b"lo"), (32, b" "), (999, b"<img src=x>")])
>>> html.count('<span title="id'), "&lt;img␣src=x&gt;" in html, "<img" in html, "␣" in html
(3, True, False, True)
"""

from __future__ import annotations

import html
from collections.abc import Iterable

VISIBLE = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍"}
"""White space as a notebook shows it inside a token (a space would vanish, a newline break the row)."""
MAX_TOKENS = 2_000
"""Tokens drawn at most (a notebook cell of a whole book would freeze the viewer); the rest are counted."""
BOX = "font-family:ui-monospace,monospace;line-height:2;"
TOKEN = "display:inline-block;margin:0 1px;padding:0 .15em;border-radius:.25em;color:#111;white-space:pre;"


def label(token: bytes) -> str:
    """A token as text: UTF-8 (a byte that is not a whole character as ``\\xNN``), white space visible.

    >>> label(b"a b\\n"), label(b"\\xe4\\xbd")
    ('a␣b↵', '\\\\xe4\\\\xbd')
    """
    text = token.decode("utf-8", errors="backslashreplace")
    return "".join(VISIBLE.get(c, c) for c in text)


def fill(token_id: int) -> str:
    """A light background for a token id (the same id, the same colour; neighbours differ)."""
    return f"hsl({token_id * 47 % 360},70%,85%)"


def token_html(token_id: int, token: bytes) -> str:
    """One token as an inline box: its label, its id and bytes in the tooltip."""
    title = f"id {token_id} · {len(token)} byte{'' if len(token) == 1 else 's'}: {token.hex(' ').upper()}"
    style = f"{TOKEN}background:{fill(token_id)};"
    return (
        f'<span title="{html.escape(title, quote=True)}" style="{style}">{html.escape(label(token))}</span>'
    )


def tokens_html(tokens: Iterable[tuple[int, bytes]]) -> str:
    """A text's tokens (id, bytes) in a row of boxes, at most :data:`MAX_TOKENS` of them."""
    parts, count = [], 0
    for token_id, token in tokens:
        count += 1
        if count <= MAX_TOKENS:
            parts.append(token_html(token_id, token))
    more = f' <i style="color:#666">… {count - MAX_TOKENS:,} more tokens</i>' if count > MAX_TOKENS else ""
    return f'<div style="{BOX}"><b>{count:,} tokens</b> ' + "".join(parts) + more + "</div>"


def merge_html(
    *,
    index: int,
    left: tuple[int, bytes],
    right: tuple[int, bytes],
    new_id: int,
    count: int,
    replaced: int,
    tokens_before: int,
    tokens_after: int,
) -> str:
    """One merge as a card: the pair, the new token, its counts.

    >>> card = merge_html(index=1, left=(108, b"l"), right=(111, b"o"), new_id=256, count=5, replaced=5,
    ...     tokens_before=20, tokens_after=15)
    >>> "Merge 1" in card, "5 counted · 5 replaced · tokens 20 → 15" in card
    (True, True)
    """
    pair = f"{token_html(*left)} + {token_html(*right)} → {token_html(new_id, left[1] + right[1])}"
    figures = f"{count:,} counted · {replaced:,} replaced · tokens {tokens_before:,} → {tokens_after:,}"
    return (
        '<div style="border:2px solid #c2410c;border-radius:.5em;padding:.4em .7em;display:inline-block;">'
        f'<b style="color:#b5400c">Merge {index:,}</b> <span style="{BOX}">{pair}</span>'
        f"<br>new token id <b>{new_id}</b> · {figures}</div>"
    )


MAX_MERGES = 200
"""Merges a table shows at most: the latest ones, the others counted."""


def merges_html(
    merges: Iterable[tuple[int, tuple[int, bytes], tuple[int, bytes], int]], *, note: str = ""
) -> str:
    """Merges (index, left, right, new id) as a table, the latest :data:`MAX_MERGES` of them, then ``note``
    (plain text: why training stopped).

    >>> table = merges_html([(1, (108, b"l"), (111, b"o"), 256)], note="<done>")
    >>> table.count("<tr>"), "&lt;done&gt;" in table
    (2, True)
    """
    rows = list(merges)
    shown = rows[-MAX_MERGES:]
    body = "".join(
        f'<tr><td style="text-align:right">{index:,}</td><td style="{BOX}">{token_html(*left)} + '
        f'{token_html(*right)}</td><td style="{BOX}">{token_html(new_id, left[1] + right[1])}</td></tr>'
        for index, left, right, new_id in shown
    )
    said = [f"the latest {len(shown):,} of {len(rows):,} merges"] if len(shown) < len(rows) else []
    said += [note] if note else []
    caption = f"<caption>{html.escape('; '.join(said))}</caption>" if said else ""
    head = "<tr><th>merge</th><th>pair</th><th>new token</th></tr>"
    return f"<table>{caption}<thead>{head}</thead><tbody>{body}</tbody></table>"
