"""The parts of a split pattern, named: which alternative of the regex cut each chunk.

A split pattern is an alternation: GPT-2's reads ``'(?:[sdmt]|ll|ve|re)| ?\\p{L}++| ?\\p{N}++|...``,
one alternative for contractions, one for letters, one for numbers and so on.  The regex tries
them in order at each place, so each chunk was cut by one of them.  This module splits a
pattern into its top-level alternatives (:func:`alternatives`), names each from what it matches
(:func:`part_name`: contractions, letters, numbers, punctuation, newlines, spaces, non-spaces;
``part N`` when it cannot tell), and says which one matched a chunk (:class:`PatternParts`).

The names are derived from the pattern's own text, not from a table, so a pattern from a file
(Llama 3's, a ``tokenizer.json`` ``Split``) is named the same way.  For the three named patterns:

>>> [p.name for p in PatternParts("gpt2").parts]  # doctest: +NORMALIZE_WHITESPACE
['contractions', 'letters', 'numbers', 'punctuation', 'spaces', 'spaces', 'spaces']
>>> [p.name for p in PatternParts("gpt4").parts]  # doctest: +NORMALIZE_WHITESPACE
['contractions', 'letters', 'numbers', 'punctuation', 'spaces', 'newlines', 'spaces', 'spaces']
>>> [p.name for p in PatternParts("o200k").parts]  # doctest: +NORMALIZE_WHITESPACE
['letters', 'letters', 'numbers', 'punctuation', 'newlines', 'spaces', 'spaces']
>>> parts = PatternParts("gpt2")
>>> [parts.part_of("it's 42!", start).name for start in (0, 2, 4, 7)]
['letters', 'contractions', 'numbers', 'punctuation']
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from .patterns import pattern_name, resolve_pattern
from .safe_regex import current_limit

SPECIAL_PART = "special token"
WHOLE_PART = "whole text"  # pattern "none": each text between special tokens is one chunk
GAP_PART = "unmatched text"  # text a custom pattern did not match (kept as a chunk of its own)
MATCH_PART = "pattern match"  # a chunk the pattern cut whose alternative could not be told

# What an alternative matches, read from its text: the first rule that applies names it.
_CONTRACTION = regex.compile(r"^(?:\(\?[a-zA-Z]*:)*'")  # starts with an apostrophe ('s, (?i:'ll ...)
_NEGATED_CLASS = regex.compile(r"\[\^(?:\\.|\[:[a-z]+:\]|[^\]\\])+\]")  # [^\s\p{L}\p{N}]: what it is not
_LETTERS = regex.compile(r"\\p\{L|\\p\{Alpha|\\w|\[:alpha:\]|a-z|A-Z")
_NUMBERS = regex.compile(r"\\p\{N|\\d|0-9|\[:digit:\]")
_NEWLINES = regex.compile(r"\\r|\\n")
_SPACES = regex.compile(r"\\s|\\t| |\\p\{Z")
_NON_SPACES = regex.compile(r"\\S")


@dataclass(frozen=True, slots=True)
class PatternPart:
    """One top-level alternative of a split pattern: its place (0-based), its name, its regex text."""

    index: int
    name: str
    source: str


def alternatives(source: str) -> list[str]:
    """The top-level alternatives of a regex: split at each ``|`` outside groups, classes and escapes.

    >>> alternatives(r"'(?:s|t)| ?\\p{L}+|[|]|\\|")
    ["'(?:s|t)", ' ?\\\\p{L}+', '[|]', '\\\\|']
    >>> alternatives(r"[]|a]|b"), alternatives(r"[[:alpha:]|]+|c")
    (['[]|a]', 'b'], ['[[:alpha:]|]+', 'c'])
    """
    out: list[str] = []
    depth, start, i, n = 0, 0, 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":  # a class: a ] right after [ or [^ is a literal; [:name:] inside is one item
            i += 1
            if i < n and source[i] == "^":
                i += 1
            if i < n and source[i] == "]":
                i += 1
            while i < n and source[i] != "]":
                if source[i] == "\\":
                    i += 1
                elif source.startswith("[:", i):
                    close = source.find(":]", i + 2)
                    i = close + 1 if close >= 0 else i
                i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "|" and depth == 0:
            out.append(source[start:i])
            start = i + 1
        i += 1
    out.append(source[start:])
    return out


def part_name(alternative: str, index: int) -> str:
    """A name for what ``alternative`` matches (``part N``, 1-based, when its text does not say).

    >>> [part_name(a, i) for i, a in enumerate(alternatives(r"'s| ?\\p{L}+| ?\\d+| ?[^\\s\\w]+|\\s+|x"))]
    ['contractions', 'letters', 'numbers', 'punctuation', 'spaces', 'part 6']
    >>> part_name(r"\\S+", 0), part_name(r"\\s*[\\r\\n]+", 0)
    ('non-spaces', 'newlines')
    """
    if _CONTRACTION.search(alternative):
        return "contractions"
    positive = _NEGATED_CLASS.sub("", alternative)  # [^\s\p{L}\p{N}] matches none of those
    if _LETTERS.search(positive):
        return "letters"
    if _NUMBERS.search(positive):
        return "numbers"
    if positive != alternative:  # only what is neither letter, number nor space: punctuation
        return "punctuation"
    if _NEWLINES.search(alternative):
        return "newlines"
    if _SPACES.search(alternative):
        return "spaces"
    if _NON_SPACES.search(alternative):
        return "non-spaces"
    return f"part {index + 1}"


class PatternParts:
    """A split pattern's named alternatives, and which one cut a chunk (:meth:`part_of`).

    The pattern is compiled once more with each alternative in a named group of its own
    (``(?P<p0>...)|(?P<p1>...)``), which matches what the pattern matches.  A pattern whose
    alternatives cannot be grouped that way (back-references, flags in the middle) gets one
    part, :data:`MATCH_PART`.

    >>> PatternParts("none").parts, PatternParts(r"(a)\\1|b").parts[0].name
    ((), 'pattern match')
    """

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.name = pattern_name(pattern)
        source = resolve_pattern(pattern)
        self._grouped: regex.Pattern[str] | None = None
        if source is None:
            self.parts: tuple[PatternPart, ...] = ()
            return
        alts = alternatives(source)
        self.parts = tuple(PatternPart(i, part_name(a, i), a) for i, a in enumerate(alts))
        grouped = "|".join(f"(?P<p{i}>{a})" for i, a in enumerate(alts))
        if regex.search(r"\\[1-9]|\(\?P=|\\g<|\(\?\(", source):  # numbered or named back-references
            grouped = ""
        try:
            self._grouped = regex.compile(grouped) if grouped else None
        except (regex.error, RecursionError, OverflowError, MemoryError):
            self._grouped = None
        if self._grouped is None:
            self.parts = (PatternPart(0, MATCH_PART, source),)

    def part_of(self, segment: str, start: int, end: int | None = None) -> PatternPart:
        """The part that cut the chunk ``segment[start:end]`` (``end``: the next match's end when None).

        ``segment`` is the whole text between special tokens the chunk came from, so lookarounds
        and ``$`` see what the pattern saw.  Text no alternative matches there is
        :data:`GAP_PART`; no pattern (``none``), :data:`WHOLE_PART`.
        """
        if not self.parts:
            return PatternPart(-1, WHOLE_PART, "")
        grouped = self._grouped
        if grouped is None:
            return self.parts[0]
        limit = current_limit(len(segment)) if self.name == "custom" else None
        try:
            m = grouped.match(segment, start, timeout=None if limit is None else limit.timeout())
        except TimeoutError:
            return PatternPart(-1, MATCH_PART, "")
        if m is None or m.end() == start:
            return PatternPart(-1, GAP_PART, "")
        if end is not None and m.end() != end:
            return PatternPart(-1, MATCH_PART, "")
        matched = [i for i in range(len(self.parts)) if m.start(f"p{i}") >= 0]
        return self.parts[matched[0]] if matched else PatternPart(-1, MATCH_PART, "")
