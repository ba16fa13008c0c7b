"""The Tokenize page's records: one tokenization of one text, its counts and paging (pure).

Works for both ``bpe_core.Tokenizer`` and the character baseline
``bpe_core.CharTokenizer``; the baseline's unknown-character error becomes a
result with ``error`` set, so a page shows it like any other outcome.

>>> from bpe_core import CharTokenizer, train
>>> r = tokenize(CharTokenizer("hello"), "hole", label="chars")
>>> r.ids, r.counts.tokens, r.counts.chars_per_token
((1, 3, 2, 0), 4, 1.0)
>>> bad = tokenize(CharTokenizer("hello"), "héllo", label="chars")
>>> bad.ok, bad.counts.tokens, bad.error.startswith("character 'é'")
(False, None, True)
>>> page_of(12_345, page=3, size=5000)
Page(number=3, pages=3, start=10000, stop=12345, total=12345)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from bpe_core import CharTokenizer, Tokenizer

PAGE_SIZE = 5000

AnyTokenizer = Tokenizer | CharTokenizer


@dataclass(frozen=True, slots=True)
class Counts:
    """What the counts row shows; ``tokens`` is None when the text could not be tokenized."""

    characters: int
    bytes: int
    tokens: int | None

    @property
    def bytes_per_token(self) -> float | None:
        return self.bytes / self.tokens if self.tokens else None

    @property
    def chars_per_token(self) -> float | None:
        return self.characters / self.tokens if self.tokens else None


@dataclass(frozen=True, slots=True)
class Tokenized:
    """One tokenizer's ids for one text (or the reason there are none).

    ``vocab`` maps every id that can appear to its bytes (the character
    baseline's ids map to the character's UTF-8), so views can show any
    tokenizer the same way.
    """

    label: str
    ids: tuple[int, ...]
    vocab: Mapping[int, bytes] = field(repr=False)
    counts: Counts
    vocab_size: int
    special_ids: frozenset[int] = frozenset()
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def text_counts(text: str, ids: Sequence[int] | None) -> Counts:
    """Characters and UTF-8 bytes of ``text``, and the number of ``ids`` (None: not tokenized).

    >>> c = text_counts("héllo 👋", [1, 2, 3])
    >>> c.characters, c.bytes, c.tokens, round(c.bytes_per_token, 3)
    (7, 11, 3, 3.667)
    """
    return Counts(
        characters=len(text),
        bytes=len(text.encode("utf-8", errors="surrogatepass")),
        tokens=None if ids is None else len(ids),
    )


def char_vocab(tok: CharTokenizer) -> dict[int, bytes]:
    """The baseline's id -> bytes (each character's UTF-8)."""
    return {i: c.encode("utf-8", errors="surrogatepass") for i, c in enumerate(tok.chars)}


def tokenize(tok: AnyTokenizer, text: str, *, label: str, specials: bool = True) -> Tokenized:
    """Encode ``text``; a ValueError from the tokenizer becomes ``error`` (no ids).

    ``specials=False`` encodes special-token strings as plain text.

    >>> from bpe_core import Tokenizer
    >>> tok = Tokenizer({i: bytes([i]) for i in range(256)}, [], special_tokens={"<|x|>": 256})
    >>> tokenize(tok, "<|x|>", label="t").ids, len(tokenize(tok, "<|x|>", label="t", specials=False).ids)
    ((256,), 5)
    """
    if isinstance(tok, CharTokenizer):
        vocab: Mapping[int, bytes] = char_vocab(tok)
        special: frozenset[int] = frozenset()
    else:
        vocab = tok.vocab
        special = frozenset(tok.special_tokens.values())
    try:
        ids = tuple(
            tok.encode(text) if specials or isinstance(tok, CharTokenizer) else tok.encode_ordinary(text)
        )
    except ValueError as exc:
        return Tokenized(label, (), vocab, text_counts(text, None), tok.vocab_size, special, error=str(exc))
    return Tokenized(label, ids, vocab, text_counts(text, ids), tok.vocab_size, special)


@dataclass(frozen=True, slots=True)
class Page:
    """Token positions ``start``..``stop`` (exclusive) shown on page ``number`` of ``pages``."""

    number: int
    pages: int
    start: int
    stop: int
    total: int


def page_of(total: int, *, page: int, size: int = PAGE_SIZE) -> Page:
    """Page ``page`` (1-based, clamped into range) of ``total`` tokens, ``size`` a page."""
    if size < 1:
        raise ValueError(f"page size must be at least 1, not {size}")
    pages = max(1, -(-total // size))
    number = min(max(1, page), pages)
    start = (number - 1) * size
    return Page(number=number, pages=pages, start=start, stop=min(total, start + size), total=total)


def byte_start_of(result: Tokenized, position: int) -> int:
    """UTF-8 byte offset in the text where token ``position`` starts."""
    vocab = result.vocab
    return sum(len(vocab[i]) for i in result.ids[:position])


COMPARE_COLUMNS = [
    "tokenizer",
    "vocab size",
    "tokens",
    "characters",
    "bytes",
    "bytes/token",
    "chars/token",
    "note",
]


def compare_table(results: Sequence[Tokenized]) -> pd.DataFrame:
    """One row per tokenizer, in the order given (failed ones keep their row, with the error as note).

    >>> from bpe_core import CharTokenizer
    >>> t = compare_table(
    ...     [tokenize(CharTokenizer("ab"), "abba", label="ab"), tokenize(CharTokenizer("a"), "ab", label="a")]
    ... )
    >>> for row in t[["tokenizer", "tokens", "chars/token"]].to_dict("records"):
    ...     print(row)
    {'tokenizer': 'ab', 'tokens': 4, 'chars/token': 1.0}
    {'tokenizer': 'a', 'tokens': None, 'chars/token': nan}
    """
    rows = []
    for r in results:
        c = r.counts
        rows.append(
            {
                "tokenizer": r.label,
                "vocab size": r.vocab_size,
                "tokens": c.tokens,
                "characters": c.characters,
                "bytes": c.bytes,
                "bytes/token": c.bytes_per_token,
                "chars/token": c.chars_per_token,
                "note": r.error or "",
            }
        )
    table = pd.DataFrame(rows, columns=COMPARE_COLUMNS)
    table["tokens"] = table["tokens"].astype("Int64")
    for col in ("bytes/token", "chars/token"):
        table[col] = table[col].astype(float)
    return table
