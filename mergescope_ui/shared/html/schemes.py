"""Any scheme's tokens over a text as coloured spans, for ``st.html`` (pure; no Streamlit).

:func:`cut` turns what a :class:`~bpe_core.tokenizer.scheme.SchemeTokenizer` does to a text into
:class:`Cut` records (plain values: they cross a process boundary); :func:`cuts_html` draws them.
Each label is the token as its scheme writes it, so WordPiece's ``##`` and Unigram's ``▁`` show;
byte-level BPE's tokens show their bytes (``␣`` for a space, ``<E2>`` for part of a character), as
everywhere else in the app; an unknown token (``[UNK]``, ``<unk>``) is dark red, dashed, and its
tooltip says which text it swallowed.  Every label and tooltip is ``html.escape``-d.

>>> from bpe_core import train_scheme
>>> tok = train_scheme("hug hugs pug " * 5, model="wordpiece", vocab_size=14)
>>> [(c.label, c.unknown) for c in cut(tok, "hugs <b>")]
[('hug', False), ('##s', False), ('[UNK]', True), ('[UNK]', True), ('[UNK]', True)]
>>> page = cuts_html(cut(tok, "hugs <b>"))
>>> "<b>" in page, "stands for “&lt;”" in page
(False, True)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from bpe_core import SchemeTokenizer
from bpe_core.byte_level import readable

from .styles import style
from .tokens import PALETTE_SIZE, TOKEN_CSS

SCHEME_CSS = style("schemes.css")


@dataclass(frozen=True, slots=True)
class Cut:
    """One token over a text: its ``id``, its ``label`` (the token as its scheme writes it, or BPE's
    bytes made readable), the characters ``start:end`` it covers and their ``text``, and whether it is
    the unknown token."""

    id: int
    label: str
    start: int
    end: int
    text: str
    unknown: bool


def cut(tok: SchemeTokenizer, text: str) -> list[Cut]:
    """The tokens of ``text`` (see the module docstring)."""
    unk = getattr(tok, "unk_id", None)  # WordPiece, Unigram and characters have one; BPE none
    out = []
    for s in tok.token_spans(text):
        unknown = unk is not None and s.id == unk
        label = readable(s.token) if tok.scheme == "bpe" else tok.piece(s.id)
        out.append(Cut(s.id, label, s.start, s.end, text[s.start : s.end], unknown))
    return out


def _span(c: Cut) -> str:
    if c.unknown:
        classes = "ms-t ms-unk"
        title = f"id {c.id} · unknown token · stands for “{c.text}”, which is lost"
    else:
        classes = f"ms-t ms-c{c.id % PALETTE_SIZE}"
        title = f"id {c.id} · “{c.label}” · covers characters {c.start}–{c.end}: “{c.text}”"
    label = "".join(_named(ch) for ch in c.label.replace(" ", "␣").replace("\n", "↵").replace("\t", "⇥"))
    return (
        f'<span class="{classes}" title="{html.escape("".join(map(_named, title)), quote=True)}">'
        f"{html.escape(label, quote=True)}</span>"
    )


def cuts_html(cuts: Sequence[Cut], *, css: bool = True, max_tokens: int = 2000) -> str:
    """A ``<div class="ms-tokens">`` with a span per token (the first ``max_tokens``).

    >>> cuts_html([Cut(5, "▁the", 0, 3, "the", False)], css=False)
    '<div class="ms-tokens"><span class="ms-t ms-c5" title="id 5 · “▁the” · covers characters 0–3: \
“the”">▁the</span></div>'
    """
    parts = [TOKEN_CSS + SCHEME_CSS if css else "", '<div class="ms-tokens">']
    parts += [_span(c) for c in cuts[:max_tokens]]
    if not cuts:
        parts.append('<span class="ms-empty">(no tokens)</span>')
    if len(cuts) > max_tokens:
        parts.append(f'<span class="ms-more"> … {len(cuts) - max_tokens:,} more tokens not shown</span>')
    parts.append("</div>")
    return "".join(parts)


def lost_html(text: str, unknown: Sequence[tuple[int, int]]) -> str:
    """``text`` with the spans that became unknown tokens marked (white space shown as ␣ ↵ ⇥).

    >>> lost_html("a <b> c", [(2, 5)])
    '<div class="ms-lost">a<span class="ms-ws">␣</span><span class="ms-gone" \
title="lost: became the unknown token">&lt;b&gt;</span><span class="ms-ws">␣</span>c</div>'
    """
    out, at = [], 0
    for start, end in sorted(unknown):
        out.append(_visible(text[at:start]))
        title = "lost: became the unknown token"
        out.append(f'<span class="ms-gone" title="{title}">{_visible(text[start:end])}</span>')
        at = end
    out.append(_visible(text[at:]))
    return '<div class="ms-lost">' + "".join(out) + "</div>"


def _named(ch: str) -> str:
    """``ch``, or its code point when it is invisible (an RTL override would turn the text around it).

    >>> _named("a"), _named("\\u202e")
    ('a', '⟨U+202E⟩')
    """
    return ch if ch.isprintable() else f"⟨U+{ord(ch):04X}⟩"


def _visible(s: str) -> str:
    """``s`` escaped, with its white space marked and its invisible characters named.

    >>> _visible("a\\u202e<")
    'a<span class="ms-ws">⟨U+202E⟩</span>&lt;'
    """
    out = []
    for ch in s:
        mark = {" ": "␣", "\n": "↵", "\t": "⇥"}.get(ch)
        if mark is None and not ch.isprintable():
            mark = _named(ch)
        out.append(f'<span class="ms-ws">{mark}</span>' if mark else html.escape(ch, quote=True))
    return "".join(out)
