"""The figures that answer "8K or 32K?": compression, OOV rate and round-trip rate, per script.

- **Compression**: UTF-8 bytes per token, characters per token, tokens per
  word (words are whitespace-separated runs, so a text without spaces, such
  as Chinese, counts as few long "words": compare it by characters instead).
- **OOV rate**: the share of characters a tokenizer cannot represent.  A
  byte-level BPE tokenizer holds all 256 bytes, so its rate is zero (it is
  still computed: a vocab missing a byte would show it); the character
  baseline (:class:`bpe_core.CharTokenizer`) misses every character its
  training text never had.
- **Round-trip rate**: ``samples`` characters drawn at random (with
  replacement, ``random.Random(seed)``) from a text; each is encoded on its
  own and decoded back; the rate is the share that came back unchanged
  (an encoding error counts as a failure).  It must be 100% for byte-level BPE.
- **Per script**: from a curve computed ``by_script`` (see
  :mod:`bpe_core.analysis.scripts`): each token counts for the category of its first
  character, weak characters (spaces, punctuation) join the script next to them.

>>> from bpe_core import CharTokenizer, train
>>> tok = train("the cat sat on the mat", vocab_size=270)
>>> oov_rate(tok, "日本"), oov_rate(CharTokenizer("the cat"), "the dog")
(0.0, 0.42857142857142855)
>>> round_trip(tok, "naïve 日本 😀", samples=1000).rate
1.0
>>> round_trip(CharTokenizer("abc"), "abcd", samples=1000, seed=0).rate < 1
True
>>> c = Compression(tokens=4, bytes=12, chars=10, words=2)
>>> c.bytes_per_token, c.chars_per_token, c.tokens_per_word
(3.0, 2.5, 2.0)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..tokenizer import CharTokenizer, Tokenizer
from .curves import CompressionCurve, TextCurve

DEFAULT_SAMPLES = 100_000
LESSON_SIZES: tuple[int, ...] = (512, 4096, 32768)


class _PerToken:
    """``bytes_per_token`` and ``chars_per_token`` for a record with ``bytes``, ``chars`` and ``tokens``."""

    __slots__ = ()
    bytes: int
    chars: int
    tokens: int

    @property
    def bytes_per_token(self) -> float:
        return self.bytes / self.tokens if self.tokens else 0.0

    @property
    def chars_per_token(self) -> float:
        return self.chars / self.tokens if self.tokens else 0.0


@dataclass(frozen=True, slots=True)
class Compression(_PerToken):
    """Token, byte, character and word counts of one text under one tokenizer."""

    tokens: int
    bytes: int
    chars: int
    words: int

    @property
    def tokens_per_word(self) -> float:
        return self.tokens / self.words if self.words else 0.0


def compression_at(curve: TextCurve, k: int) -> Compression:
    """The compression of ``curve``'s text after ``k`` merges (``k`` past the end: the final count).

    >>> from bpe_core.analysis.curves import text_curve
    >>> from bpe_core import train
    >>> c = compression_at(text_curve(train("aa aa", vocab_size=258), "aa aa"), 2)
    >>> c.tokens, c.bytes_per_token
    (2, 2.5)
    """
    return Compression(tokens=curve.at(k), bytes=curve.bytes, chars=curve.chars, words=curve.words)


def oov_rate(tokenizer: Tokenizer | CharTokenizer, text: str) -> float:
    """The share of ``text``'s characters the tokenizer cannot represent (0.0 for an empty text)."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, not {type(text).__name__}")
    if not text:
        return 0.0
    if isinstance(tokenizer, CharTokenizer):
        return len(tokenizer.unknown(text)) / len(text)
    if isinstance(tokenizer, Tokenizer):
        missing = {b for b in range(256) if tokenizer.id_of(bytes([b])) is None}
        if not missing:
            return 0.0
        bad = sum(1 for c in text if any(b in missing for b in c.encode("utf-8", errors="surrogatepass")))
        return bad / len(text)
    raise ValueError(f"expected a bpe_core.Tokenizer or CharTokenizer, not {type(tokenizer).__name__}")


@dataclass(frozen=True, slots=True)
class RoundTrip:
    """How many of ``samples`` drawn characters decoded back to themselves; a few that did not."""

    samples: int
    ok: int
    failures: tuple[str, ...]  # up to 10 distinct characters that did not come back

    @property
    def rate(self) -> float:
        return self.ok / self.samples if self.samples else 1.0


def sample_chars(text: str, *, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> Counter[str]:
    """``samples`` characters of ``text`` drawn with ``random.Random(seed)``, as counts per character.

    >>> sample_chars("ab", samples=10, seed=3) == sample_chars("ab", samples=10, seed=3)
    True
    """
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a whole number >= 1 (e.g. 100000), not {samples!r}")
    if not isinstance(text, str) or not text:
        raise ValueError("round trips need a non-empty text to draw characters from")
    return Counter(random.Random(seed).choices(text, k=samples))


def round_trip(
    tokenizer: Tokenizer | CharTokenizer,
    text: str,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    drawn: Mapping[str, int] | None = None,
) -> RoundTrip:
    """Encode and decode each of ``samples`` random characters of ``text`` (see the module doc).

    ``drawn`` may pass :func:`sample_chars`'s result to reuse one sample for
    several tokenizers (``text``, ``samples`` and ``seed`` are then ignored).
    """
    if drawn is None:
        drawn = sample_chars(text, samples=samples, seed=seed)
    ok = 0
    failures: list[str] = []
    for char, n in drawn.items():
        try:
            back = tokenizer.decode(tokenizer.encode(char))
        except ValueError:
            back = None
        if back == char:
            ok += n
        elif len(failures) < 10:
            failures.append(char)
    return RoundTrip(samples=sum(drawn.values()), ok=ok, failures=tuple(failures))


@dataclass(frozen=True, slots=True)
class SizeRow:
    """One line of the lessons' table: a tokenizer at one vocab size, measured on one text."""

    tokenizer: str  # "byte-level BPE" or "character baseline"
    requested_vocab: int
    vocab_size: int  # what it actually has (training may stop early)
    merges: int
    text: str
    compression: Compression
    oov_rate: float
    round_trip_rate: float


def size_table(
    run: CompressionCurve,
    sizes: Sequence[int],
    texts: Mapping[str, str],
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    char_baseline: bool = True,
) -> list[SizeRow]:
    """The table of sizes: for each vocab size (sorted, duplicates dropped) and each text, BPE's figures;
    then the character baseline (trained on ``texts``' training text) on each text.

    ``texts`` maps each curve's name (``run.train.name`` and the held-out
    names) to its text, for the OOV and round-trip rates; curves without a
    text are skipped.  A size below ``run.base_vocab`` is a ValueError.

    >>> from bpe_core import TrainOptions
    >>> from bpe_core.analysis import compression_curve
    >>> run = compression_curve("abab cdcd", TrainOptions(vocab_size=300), heldout={"test": "abcd xy"})
    >>> rows = size_table(run, [258, 4096], {"train": "abab cdcd", "test": "abcd xy"}, samples=200)
    >>> [(r.tokenizer[:4], r.requested_vocab, r.vocab_size, r.text, r.oov_rate, r.round_trip_rate)
    ...  for r in rows]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('byte', 258, 258, 'train', 0.0, 1.0), ('byte', 258, 258, 'test', 0.0, 1.0),
     ('byte', 4096, 261, 'train', 0.0, 1.0), ('byte', 4096, 261, 'test', 0.0, 1.0),
     ('char', 5, 5, 'train', 0.0, 1.0), ('char', 5, 5, 'test', 0.2857142857142857, 0.71)]
    """
    curves = [c for c in (run.train, *run.heldout) if c.name in texts]
    drawn = {c.name: sample_chars(texts[c.name], samples=samples, seed=seed) for c in curves if texts[c.name]}
    rows: list[SizeRow] = []
    for size in sorted(set(sizes)):
        k = run.merges_for(size)
        tok = run.tokenizer.with_merges(k)
        for curve in curves:
            text = texts[curve.name]
            trip = round_trip(tok, text, drawn=drawn[curve.name]).rate if text else 1.0
            rows.append(
                SizeRow(
                    tokenizer="byte-level BPE",
                    requested_vocab=size,
                    vocab_size=run.vocab_size(k),
                    merges=k,
                    text=curve.name,
                    compression=compression_at(curve, k),
                    oov_rate=oov_rate(tok, text),
                    round_trip_rate=trip,
                )
            )
    train_text = texts.get(run.train.name, "")
    if char_baseline and train_text:
        chars = CharTokenizer(train_text)
        for curve in curves:
            text = texts[curve.name]
            trip = round_trip(chars, text, drawn=drawn[curve.name]).rate if text else 1.0
            rows.append(
                SizeRow(
                    tokenizer="character baseline",
                    requested_vocab=chars.vocab_size,
                    vocab_size=chars.vocab_size,
                    merges=0,
                    text=curve.name,
                    compression=Compression(
                        tokens=curve.chars, bytes=curve.bytes, chars=curve.chars, words=curve.words
                    ),
                    oov_rate=oov_rate(chars, text),
                    round_trip_rate=trip,
                )
            )
    return rows
