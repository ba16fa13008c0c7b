"""Ids back to text: a box in the Token ids tab, for ids copied from anywhere.

Bytes that make no whole character show as ``<E8><AF>``; unknown ids and words that are not ids are
named in one line each, and the known ids still decoded.

>>> parse_ids("[464, 1994,9358 x -3]")
([464, 1994, 9358], ['x', '-3'])
>>> vocab = {0: b"h", 1: "语".encode()[:2], 2: "语".encode()[2:]}
>>> decode_ids([0, 1], vocab), decode_ids([0, 1, 2, 7], vocab)
(Decoded(text='h<E8><AF>', unknown=(), partial=True), Decoded(text='h语', unknown=(7,), partial=False))
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import streamlit as st

from bpe_core import SchemeTokenizer
from bpe_core.byte_level import readable
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.html.tokens import is_whole_utf8

from . import keys
from .piece_html import decode_pieces
from .results import Tokenized
from .schemes import hooks_of

MAX_IDS = 100_000  # ids decoded at most (a longer list is cut, and the page says so)
MAX_INPUT_CHARS = 1_000_000
_WORDS = re.compile(r"[^\s,;\[\]()]+")


@dataclass(frozen=True, slots=True)
class Decoded:
    """The text of the known ids, the unknown ids, and whether bytes were shown as ``<XX>``."""

    text: str
    unknown: tuple[int, ...]
    partial: bool


def parse_ids(raw: str) -> tuple[list[int], list[str]]:
    """The whole numbers in ``raw`` (separated by commas, spaces or brackets), and the words that are not."""
    ids: list[int] = []
    bad: list[str] = []
    for word in _WORDS.findall(raw):
        if word.isdigit() and word.isascii():
            ids.append(int(word))
        else:
            bad.append(word)
    return ids, bad


def decode_ids(ids: Sequence[int], vocab: Mapping[int, bytes]) -> Decoded:
    """The text of ``ids`` (see :class:`Decoded`); an id not in ``vocab`` is left out and listed."""
    data = b"".join(vocab[i] for i in ids if i in vocab)
    unknown = tuple(dict.fromkeys(i for i in ids if i not in vocab))
    return Decoded(readable(data, mark_whitespace=False), unknown, partial=not is_whole_utf8(data))


def decode_box(result: Tokenized, *, tok: SchemeTokenizer | None = None) -> None:
    """The box and what it gives: the text (WordPiece's, Unigram's: by their decoder), or what is wrong."""
    raw = st.text_input(
        "Ids to text",
        key=keys.DECODE,
        placeholder="Paste token ids, e.g. 464, 1994, 9358",
        help="Whole numbers separated by commas or spaces; brackets are fine.",
    )
    if not raw.strip():
        return
    if len(raw) > MAX_INPUT_CHARS:
        st.warning(f"{len(raw):,} characters: only the first {MAX_INPUT_CHARS:,} are read.")
    ids, bad = parse_ids(raw[:MAX_INPUT_CHARS])
    if bad:
        shown = ", ".join(bad[:8]) + (" …" if len(bad) > 8 else "")
        st.error(f"Not token ids: {md_escape(shown)}. Type whole numbers separated by commas or spaces.")
    if len(ids) > MAX_IDS:
        st.warning(f"{len(ids):,} ids: only the first {MAX_IDS:,} are decoded.")
        ids = ids[:MAX_IDS]
    pieces = hooks_of(tok).pieces if tok is not None else None
    if tok is not None and pieces is not None:  # its decoder: ``##`` glued, ``▁`` a space
        text, unknown = decode_pieces(tok, ids)
        if unknown:
            _not_ids(unknown, f"{tok.vocab_size:,} tokens")
        if len(unknown) < len(set(ids)):
            st.code(text or "(empty)", language=None, wrap_lines=True)
            st.caption("As its decoder writes it: " + pieces.decoder)
        return
    decoded = decode_ids(ids, result.vocab)
    if decoded.unknown:
        sizes = f"{result.vocab_size:,} tokens, ids {min(result.vocab):,}–{max(result.vocab):,}"
        _not_ids(decoded.unknown, sizes)
    if any(i in result.vocab for i in ids):
        st.code(decoded.text or "(empty)", language=None, wrap_lines=True)
        if decoded.partial:
            st.caption(
                "`<XX>` marks a byte that is not a whole character: an id that holds part of one "
                "(its other bytes are in a neighbouring id)."
            )


def _not_ids(unknown: Sequence[int], sizes: str) -> None:
    """Name the ids the tokenizer does not know (``sizes``: its vocabulary, in words)."""
    listed = ", ".join(map(str, unknown[:8])) + (" …" if len(unknown) > 8 else "")
    n = len(unknown)
    st.error(
        f"{n:,} {'id is' if n == 1 else 'ids are'} not in this tokenizer ({sizes}): {listed}. "
        + ("It is" if n == 1 else "They are")
        + " left out below."
    )
