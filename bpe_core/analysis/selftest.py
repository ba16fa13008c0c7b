"""A tokenizer's self-test: hostile and edge-case texts, each encoded and decoded, pass or fail.

:func:`self_test` runs every :func:`cases` text through ``decode(encode(text))`` and returns a
:class:`SelfTest`, one :class:`CaseResult` a case: its characters, tokens, whether the text came
back exactly, and, when not, what was lost and why (:func:`~bpe_core.tokenizer.scheme.lost`:
WordPiece's ``[UNK]`` and white space, Unigram's normalization, ...). Byte-level BPE must pass every
case (:attr:`SelfTest.failed` is then a bug); WordPiece and Unigram lose text by design, and the
table says what.

The cases: seed 001's list (:data:`SEED_001`), then lone surrogates (replaced by U+FFFD first, as a
text file read with ``errors="replace"`` has them), CRLF line ends, ZWJ emoji, combining marks,
:data:`RANDOM_CHARS` random characters in one piece (seeded: the same text every time), and every
special token of the tokenizer, alone and between words.

>>> from bpe_core import train
>>> tok = train("hello world hello", vocab_size=260, special_tokens=["<|endoftext|>"])
>>> report = self_test(tok, random_chars=1000)
>>> report.failed, len(report.results)
((), 15)
>>> print(report.results[3].name, report.results[3].passed, report.results[3].tokens)
'自然语言处理' True 18
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ..tokenizer import SchemeTokenizer, UnigramTokenizer, lost

SEED_001 = ("", " ", "。", "自然语言处理", "hello world hello", "a" * 1000, "霰龘", "<|endoftext|>")
"""Seed 001's hostile inputs."""
RANDOM_CHARS = 100_000
"""How many random characters the one-piece case has."""
RANDOM_SEED = 43
"""The seed of the random characters (the same text every run)."""
COLUMNS = ("case", "characters", "tokens", "result", "what is lost and why")
"""The table's columns (:meth:`SelfTest.rows`, the CLI's table, the page's CSV)."""
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """One text to round-trip: its ``name`` and the ``text``."""

    name: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CaseResult:
    """One case's result: ``passed`` when ``decode(encode(text)) == text``; ``lost`` says otherwise
    what was lost and why (empty when it passed)."""

    name: str
    chars: int
    tokens: int
    passed: bool
    lost: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SelfTest:
    """Every case's result for one tokenizer; ``byte_level``: a byte-level BPE, which must pass all."""

    scheme: str
    byte_level: bool
    results: tuple[CaseResult, ...]

    @property
    def failed(self) -> tuple[CaseResult, ...]:
        """The cases that did not come back exactly."""
        return tuple(r for r in self.results if not r.passed)

    def rows(self) -> list[tuple[str, int, int, str, str]]:
        """The table, one row a case, in the order of :data:`COLUMNS`."""
        return [(r.name, r.chars, r.tokens, "pass" if r.passed else "fail", r.lost) for r in self.results]


def replace_surrogates(text: str) -> str:
    """``text`` with each lone surrogate (not valid Unicode, no UTF-8) replaced by U+FFFD.

    >>> replace_surrogates("a\\ud800b")
    'a�b'
    """
    return _SURROGATE.sub("\ufffd", text)


def random_text(chars: int, *, seed: int = RANDOM_SEED) -> str:
    """``chars`` characters drawn evenly from all of Unicode but the surrogates (mostly unassigned
    code points, four bytes each: the hardest text for a byte-level tokenizer), the same for a seed.

    >>> len(random_text(50)), random_text(5) == random_text(5), random_text(5) == random_text(5, seed=1)
    (50, True, False)
    """
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < chars:
        c = rng.randrange(1, 0x110000)
        if not 0xD800 <= c < 0xE000:
            out.append(chr(c))
    return "".join(out)


def cases(tok: SchemeTokenizer, *, random_chars: int = RANDOM_CHARS) -> list[Case]:
    """The texts :func:`self_test` round-trips (see the module docstring)."""
    out = [Case(name=repr(t) if len(t) <= 20 else f"'{t[:3]}' × {len(t):,}", text=t) for t in SEED_001]
    out += [
        Case(name="lone surrogates, replaced by U+FFFD", text=replace_surrogates("a\ud800b \udfffc\ud83d")),
        Case(name="CRLF line ends", text="line one\r\nline two\r\n\r\n  indented\r\n"),
        Case(name="ZWJ emoji", text="👩‍👩‍👧 🤷🏽‍♀️ 🏳️‍🌈 family👨‍👩‍👧‍👦"),
        Case(
            name="combining marks",
            text="e\u0301te\u0301 man\u0303ana Z\u0351\u0352\u0353\u0354 x\u0308\u0301",
        ),
        Case(name=f"{random_chars:,} random characters in one piece", text=random_text(random_chars)),
    ]
    for s in _specials(tok):
        out.append(Case(name=f"special token {s!r}", text=s))
        out.append(Case(name=f"special token {s!r} between words", text=f"before{s}after {s} end"))
    return out


def _specials(tok: SchemeTokenizer) -> list[str]:
    """The strings of the tokenizer's special tokens (Unigram: its user-defined pieces)."""
    if isinstance(tok, UnigramTokenizer):
        return [p for p, k in zip(tok.pieces, tok.kinds) if k == "user_defined"]
    return sorted({tok.piece(i) for i in tok.special_ids})


def self_test(tok: SchemeTokenizer, *, random_chars: int = RANDOM_CHARS) -> SelfTest:
    """Every case of :func:`cases` round-tripped through ``tok`` (see the module docstring)."""
    if isinstance(random_chars, bool) or not isinstance(random_chars, int) or random_chars < 0:
        raise ValueError(f"random_chars must be a whole number of at least 0, not {random_chars!r}")
    return SelfTest(
        scheme=tok.scheme,
        byte_level=tok.as_bpe() is not None,
        results=tuple(_run(tok, case) for case in cases(tok, random_chars=random_chars)),
    )


def _run(tok: SchemeTokenizer, case: Case) -> CaseResult:
    text = case.text
    try:
        ids = tok.encode(text)
        decoded = tok.decode(ids)
    except ValueError as exc:
        return CaseResult(name=case.name, chars=len(text), tokens=0, passed=False, lost=f"error: {exc}")
    if decoded == text:
        return CaseResult(name=case.name, chars=len(text), tokens=len(ids), passed=True, lost="")
    return CaseResult(
        name=case.name, chars=len(text), tokens=len(ids), passed=False, lost=_why(tok, text, decoded)
    )


def _why(tok: SchemeTokenizer, text: str, decoded: str) -> str:
    """What the round trip lost of ``text``, in words."""
    loss = lost(tok, text)
    parts = []
    if loss.unknown:
        unk = "[UNK]" if tok.scheme == "wordpiece" else "the unknown token"
        limit = getattr(tok, "max_word_chars", None)
        long = [(a, b) for a, b in loss.unknown if limit is not None and b - a > limit]
        if long:
            parts.append(f"{_count(len(long), 'word')} longer than max_word_chars ({limit}) became {unk}")
        if len(long) < len(loss.unknown):
            chars = sum(b - a for a, b in loss.unknown if (a, b) not in long)
            places = len(loss.unknown) - len(long)
            parts.append(
                f"{_count(chars, 'character')} in {_count(places, 'place')} became {unk} "
                "(no piece covers them)"
            )
    if loss.spacing:
        how = (
            "the pre-tokenizer drops white space and decoding puts one space between words"
            if tok.scheme == "wordpiece"
            else "normalization removes white space at the ends and squeezes runs"
        )
        parts.append(f"white space comes back otherwise at {_count(loss.spacing, 'place')} ({how})")
    if loss.changed:
        parts.append(f"{_count(loss.changed, 'character')} changed by normalization")
    if not parts:
        at = next((k for k, (a, b) in enumerate(zip(text, decoded)) if a != b), min(len(text), len(decoded)))
        parts.append(f"the decoded text differs from character {at:,} on")
    return "; ".join(parts)


def _count(n: int, word: str) -> str:
    """``n`` and ``word``, plural when ``n`` is not 1.

    >>> _count(1, "place"), _count(1200, "character")
    ('1 place', '1,200 characters')
    """
    return f"{n:,} {word}" + ("" if n == 1 else "s")
