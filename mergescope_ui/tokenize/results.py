"""The Tokenize page's records: one tokenization of one text, its counts and paging (pure).

Any scheme's tokenizer; an error while encoding (the baseline's unknown character) becomes a result
with ``error`` set, shown like any other outcome.

>>> from bpe_core import CharTokenizer
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

from bpe_core import Loss, SchemeTokenizer, lost
from mergescope_ui.shared.html.schemes import Cut, cut

from .schemes import hooks_named, hooks_of

PAGE_SIZE = 5000


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


# The counts above the tokens, by name (Counts' fields and properties) and label, in order: the
# server's metrics (main_view.counts_row) and the browser's token view (live_assets/view.js) show these.
COUNT_LABELS: tuple[tuple[str, str], ...] = (
    ("characters", "Characters"),
    ("bytes", "Bytes (UTF-8)"),
    ("tokens", "Tokens"),
    ("bytes_per_token", "Bytes / token"),
    ("chars_per_token", "Chars / token"),
)


@dataclass(frozen=True, slots=True)
class Tokenized:
    """One tokenizer's ids for one text (or the reason there are none).

    ``vocab`` maps every id that can appear to its bytes (the baseline's: each character's UTF-8).
    For WordPiece and Unigram it is empty (their ids do not stand for fixed bytes); ``cuts`` holds each
    token over the text (one per id) and ``loss`` what ``decode(encode(text))`` loses.
    """

    label: str
    ids: tuple[int, ...]
    vocab: Mapping[int, bytes] = field(repr=False)
    counts: Counts
    vocab_size: int
    special_ids: frozenset[int] = frozenset()
    error: str | None = None
    scheme: str = "bpe"
    cuts: tuple[Cut, ...] = field(default=(), repr=False)
    loss: Loss | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def pieces(self) -> bool:
        """Its tokens are pieces of a vocabulary of strings (WordPiece, Unigram), shown from ``cuts``."""
        return hooks_named(self.scheme).pieces is not None

    @property
    def unknown(self) -> int | None:
        """How many tokens are the unknown token (``[UNK]``, ``<unk>``); None for byte-level schemes."""
        return sum(c.unknown for c in self.cuts) if self.pieces and self.ok else None


def text_counts(text: str, ids: Sequence[int] | None) -> Counts:
    """Characters and UTF-8 bytes of ``text``, and the number of ``ids`` (None: not tokenized)."""
    return Counts(
        characters=len(text),
        bytes=len(text.encode("utf-8", errors="surrogatepass")),
        tokens=None if ids is None else len(ids),
    )


def tokenize(tok: SchemeTokenizer, text: str, *, label: str, specials: bool = True) -> Tokenized:
    """Encode ``text`` (``specials=False``: special-token strings as plain text); a ValueError becomes
    ``error`` (no ids).

    >>> from bpe_core import Tokenizer
    >>> tok = Tokenizer({i: bytes([i]) for i in range(256)}, [], special_tokens={"<|x|>": 256})
    >>> tokenize(tok, "<|x|>", label="t").ids, len(tokenize(tok, "<|x|>", label="t", specials=False).ids)
    ((256,), 5)
    >>> from bpe_core.wordpiece import WordPieceTokenizer
    >>> wp = tokenize(WordPieceTokenizer(["[UNK]", "hug", "##s"]), "hugs <b>", label="w")
    >>> wp.ids, [c.label for c in wp.cuts], wp.unknown, wp.loss.decoded
    ((1, 2, 0, 0, 0), ['hug', '##s', '[UNK]', '[UNK]', '[UNK]'], 3, 'hugs [UNK] [UNK] [UNK]')
    """
    hooks = hooks_of(tok)
    vocab, bpe = hooks.byte_vocab(tok), tok.as_bpe()
    cuts: tuple[Cut, ...] = ()
    loss: Loss | None = None
    error: str | None = None
    try:
        if hooks.pieces is not None:  # WordPiece, Unigram: their cuts, and what the round trip loses
            cuts, loss = tuple(cut(tok, text)), lost(tok, text)
            ids = tuple(c.id for c in cuts)
        else:
            ids = tuple(tok.encode(text) if specials or bpe is None else bpe.encode_ordinary(text))
    except ValueError as exc:
        ids, cuts, loss, error = (), (), None, str(exc)
    counts = text_counts(text, ids if error is None else None)
    return Tokenized(
        label, ids, vocab, counts, tok.vocab_size, tok.special_ids, error, tok.scheme, cuts, loss
    )


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
    "unknown tokens",
    "round trip",
    "note",
]
PIECE_COLUMNS = ("unknown tokens", "round trip")  # shown when a WordPiece or Unigram result is compared


def compare_table(results: Sequence[Tokenized]) -> pd.DataFrame:
    """One row per tokenizer, in the order given (a failed one with the error as note); with a WordPiece
    or Unigram result among them, the :data:`PIECE_COLUMNS` too."""
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
                "unknown tokens": r.unknown,
                "round trip": round_trip(r),
                "note": r.error or what_is_lost(r),
            }
        )
    table = pd.DataFrame(rows, columns=COMPARE_COLUMNS)
    table["tokens"] = table["tokens"].astype("Int64")
    table["unknown tokens"] = table["unknown tokens"].astype("Int64")
    if not any(r.pieces for r in results):
        table = table.drop(columns=list(PIECE_COLUMNS))
    for col in ("bytes/token", "chars/token"):
        table[col] = table[col].astype(float)
    return table


def round_trip(result: Tokenized) -> str:
    """``exact`` when ``decode(encode(text))`` gives the text back, else ``lossy`` (``""``: not encoded)."""
    if not result.ok:
        return ""
    # byte-level BPE and the character baseline give every text they encode back
    return "exact" if result.loss is None or result.loss.round_trip else "lossy"


def what_is_lost(result: Tokenized) -> str:
    """What the round trip loses, in a few words (``""``: nothing).

    >>> from bpe_core.wordpiece import WordPieceTokenizer
    >>> what_is_lost(tokenize(WordPieceTokenizer(["[UNK]", "a", "b"]), "a  b c", label="w"))
    'lost: 1 char unknown, 1 spacing change'
    """
    loss = result.loss
    if loss is None or loss.round_trip or not result.ok:
        return ""
    counts = (
        (loss.unknown_chars, "char unknown", "chars unknown"),
        (loss.spacing, "spacing change", "spacing changes"),
        (loss.changed, "char normalized", "chars normalized"),
    )
    parts = [f"{n:,} {one if n == 1 else many}" for n, one, many in counts if n]
    return "lost: " + (", ".join(parts) or "the text comes back otherwise")
