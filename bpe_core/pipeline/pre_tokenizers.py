"""Pre-tokenizers, the second stage: the normalized text cut into words the model cuts further.

Each is a small frozen record with ``pre_tokenize(list[Aligned]) -> list[Aligned]``: every word so far is
cut again (HF's ``PreTokenizedString.split``), and some stages also rewrite the text (``Metaspace``'s
``▁``, ``ByteLevel``'s byte characters).  How a cut keeps the matched part is its ``behavior``
(:data:`~.aligned.BEHAVIORS`).

- :class:`BertPreTokenizer`: white space dropped, each punctuation character a word (BERT);
- :class:`Whitespace` (``\\w+|[^\\w\\s]+``) and :class:`WhitespaceSplit` (at white space only);
- :class:`Metaspace`: spaces become ``▁``, one put in front (``prepend_scheme``: ``always``, ``first``:
  only at the text's start, ``never``), then a cut before each ``▁`` (``split``);
- :class:`ByteLevel`: GPT-2's (a space in front with ``add_prefix_space``; cut by GPT-2's regex with
  ``use_regex``; every byte written as one printable character);
- :class:`Split` (a string or regex, ``behavior``, ``invert``), :class:`Punctuation`, :class:`Digits`;
  :class:`Sequence`, several in turn.

>>> words = Metaspace().pre_tokenize([Aligned.of("Hey friend!")])
>>> [w.text for w in words], words[1].span(0, len(words[1]))
(['▁Hey', '▁friend!'], (3, 11))
>>> [w.text for w in BertPreTokenizer().pre_tokenize([Aligned.of("Hello, world!")])]
['Hello', ',', 'world', '!']
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence as Seq
from dataclasses import dataclass, field
from typing import ClassVar, Literal, Protocol

import regex

from ..byte_level import BYTE_TO_UNICODE
from ..pretokenizer import resolve_pattern
from ..tokenizer.wordpiece_words import PUNCTUATION_PATTERN, WORD_PATTERN
from .aligned import Aligned, Behavior
from .normalizers import WHITE_SPACE, hf_regex

PrependScheme = Literal["always", "first", "never"]
_WORD = r"[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]"  # Rust's Unicode \w
_WHITESPACE_WORDS = regex.compile(rf"(?V1){_WORD}+|[^\s{_WORD[1:-1]}]+")
_NUMERIC = regex.compile(r"[\p{Nd}\p{Nl}\p{No}]")
_GPT2 = regex.compile(resolve_pattern("gpt2") or "")


class PreTokenizer(Protocol):
    """What every pre-tokenizer offers."""

    kind: ClassVar[str]

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]: ...


def _spans(pattern: regex.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text) if m.start() != m.end()]


def _invert(spans: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """The parts of ``0..n`` between ``spans``."""
    out, pos = [], 0
    for a, b in spans:
        if pos < a:
            out.append((pos, a))
        pos = b
    if pos < n:
        out.append((pos, n))
    return out


def _each(words: list[Aligned], cut: Callable[[Aligned], list[Aligned]]) -> list[Aligned]:
    return [piece for w in words for piece in cut(w)]


@dataclass(frozen=True, slots=True)
class BertPreTokenizer:
    """BERT's cut: white space dropped, every punctuation character (HF's table) a word of its own."""

    kind: ClassVar[str] = "BertPreTokenizer"

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]:
        return _each(words, lambda w: [w.slice(a, b) for a, b in _spans(WORD_PATTERN, w.text)])


@dataclass(frozen=True, slots=True)
class Whitespace:
    """Words of word characters, or of other characters that are not white space (``\\w+|[^\\w\\s]+``).

    >>> [w.text for w in Whitespace().pre_tokenize([Aligned.of("it's 3.5!")])]
    ['it', "'", 's', '3', '.', '5', '!']
    """

    kind: ClassVar[str] = "Whitespace"

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]:
        return _each(words, lambda w: [w.slice(a, b) for a, b in _spans(_WHITESPACE_WORDS, w.text)])


@dataclass(frozen=True, slots=True)
class WhitespaceSplit:
    """Cut at white space, which is dropped.

    >>> [w.text for w in WhitespaceSplit().pre_tokenize([Aligned.of(" a\\tb,c ")])]
    ['a', 'b,c']
    """

    kind: ClassVar[str] = "WhitespaceSplit"

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]:
        return _each(words, lambda w: w.split(_spans(WHITE_SPACE, w.text), "removed"))


@dataclass(frozen=True, slots=True)
class Metaspace:
    """SentencePiece's spaces: each `` `` becomes ``replacement`` (``▁``); one is put in front of a word that
    does not start with it (``prepend_scheme``: ``always``; ``first``: only the word at the text's start;
    ``never``); with ``split``, a cut before each ``▁``."""

    replacement: str = "▁"
    prepend_scheme: PrependScheme = "always"
    split: bool = True
    kind: ClassVar[str] = "Metaspace"

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]:
        return _each(words, self._one)

    def _one(self, w: Aligned) -> list[Aligned]:
        r = self.replacement
        w = w.map_chars(lambda c: r if c == " " else c)
        starts_text = bool(w.starts) and w.starts[0] == 0
        if not w.text.startswith(r) and (
            self.prepend_scheme == "always" or (self.prepend_scheme == "first" and starts_text)
        ):
            w = w.prepend(r)
        if not self.split:
            return [w] if w.text else []
        at = [(i, i + 1) for i, c in enumerate(w.text) if c == r]
        return w.split(at, "merged_with_next")


@dataclass(frozen=True, slots=True)
class ByteLevel:
    """GPT-2's pre-tokenizer: a space in front (``add_prefix_space``, when there is none), the cut by GPT-2's
    regex (``use_regex``), then every UTF-8 byte written as one printable character (``Ġ`` for a space).

    >>> [w.text for w in ByteLevel().pre_tokenize([Aligned.of("Hi é")])]
    ['ĠHi', 'ĠÃ©']
    """

    add_prefix_space: bool = True
    use_regex: bool = True
    kind: ClassVar[str] = "ByteLevel"

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]:
        return _each(words, self._one)

    def _one(self, w: Aligned) -> list[Aligned]:
        if self.add_prefix_space and not w.text.startswith(" "):
            w = w.prepend(" ")
        parts = w.split(_spans(_GPT2, w.text), "isolated") if self.use_regex else ([w] if w.text else [])
        return [p.map_chars(_byte_chars) for p in parts]


def _byte_chars(c: str) -> str:
    return "".join(BYTE_TO_UNICODE[b] for b in c.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class Split:
    """A cut at each match of ``pattern`` (a string, or a regex when ``is_regex``), the match kept as
    ``behavior`` says; with ``invert`` the matches are the words and what lies between them is cut.

    >>> [w.text for w in Split("-", "merged_with_previous").pre_tokenize([Aligned.of("a-b-c")])]
    ['a-', 'b-', 'c']
    """

    pattern: str
    behavior: Behavior
    invert: bool = False
    is_regex: bool = False
    kind: ClassVar[str] = "Split"
    _compiled: regex.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        compiled = hf_regex(self.pattern) if self.is_regex else regex.compile(regex.escape(self.pattern))
        object.__setattr__(self, "_compiled", compiled)

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]:
        def cut(w: Aligned) -> list[Aligned]:
            spans = _spans(self._compiled, w.text)
            return w.split(_invert(spans, len(w.text)) if self.invert else spans, self.behavior)

        return _each(words, cut)


def _char_spans(text: str, test: regex.Pattern[str]) -> list[tuple[int, int]]:
    return [(i, i + 1) for i, c in enumerate(text) if test.match(c)]


@dataclass(frozen=True, slots=True)
class Punctuation:
    """A cut at each punctuation character (HF's table), kept as ``behavior`` says (``isolated``).

    >>> [w.text for w in Punctuation().pre_tokenize([Aligned.of("Hey!!you")])]
    ['Hey', '!', '!', 'you']
    """

    behavior: Behavior = "isolated"
    kind: ClassVar[str] = "Punctuation"

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]:
        return _each(words, lambda w: w.split(_char_spans(w.text, PUNCTUATION_PATTERN), self.behavior))


@dataclass(frozen=True, slots=True)
class Digits:
    """A cut around numbers: each digit a word (``individual_digits``), or each run of digits.

    >>> [w.text for w in Digits(individual_digits=True).pre_tokenize([Aligned.of("a123")])]
    ['a', '1', '2', '3']
    """

    individual_digits: bool = False
    kind: ClassVar[str] = "Digits"

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]:
        behavior: Behavior = "isolated" if self.individual_digits else "contiguous"
        return _each(words, lambda w: w.split(_char_spans(w.text, _NUMERIC), behavior))


@dataclass(frozen=True, slots=True)
class Sequence:
    """Several pre-tokenizers, each cutting the words the one before made."""

    pre_tokenizers: Seq[PreTokenizer]
    kind: ClassVar[str] = "Sequence"

    def pre_tokenize(self, words: list[Aligned]) -> list[Aligned]:
        for p in self.pre_tokenizers:
            words = p.pre_tokenize(words)
        return words
