"""Which writing system each character belongs to, for per-script compression figures.

Every character gets one *category*: a script (``Latin``, ``Han``,
``Cyrillic``, ...), ``digits`` (any ``\\p{N}``), ``emoji``
(``\\p{Extended_Pictographic}``), ``other letters`` (letters of scripts not
listed), or it is *weak*: whitespace, punctuation, symbols, combining marks,
controls.  Weak characters have no script of their own, so inside one
pre-tokenization chunk each weak character takes the category of the next
strong character of that chunk (a GPT-2 word's leading space joins its word),
or, when none follows, of the previous one (a trailing ``!``); a chunk with no
strong character at all is ``space & punctuation``.

A token is counted for the category of the character its first byte belongs
to (see :mod:`bpe_core.analysis.curves`), so bytes and tokens of a
category always add up to the text's totals.

>>> [category_of(c) for c in ["a", "中", "я", "7", "😀", " "]]
['Latin', 'Han', 'Cyrillic', 'digits', 'emoji', None]
>>> resolve_chunk(" the!")
['Latin', 'Latin', 'Latin', 'Latin', 'Latin']
>>> resolve_chunk("\\n\\n")
['space & punctuation', 'space & punctuation']
>>> resolve_chunk("猫 cat")
['Han', 'Latin', 'Latin', 'Latin', 'Latin']
"""

from __future__ import annotations

import regex

from ..pretokenizer import PreTokenizer

SPACE_PUNCT = "space & punctuation"
SPECIAL = "special tokens"

# Checked in this order; the first class that matches wins.
_CLASSES: tuple[tuple[str, str], ...] = (
    ("emoji", r"\p{Extended_Pictographic}"),
    ("digits", r"\p{N}"),
    ("Latin", r"\p{Script=Latin}"),
    ("Cyrillic", r"\p{Script=Cyrillic}"),
    ("Greek", r"\p{Script=Greek}"),
    ("Arabic", r"\p{Script=Arabic}"),
    ("Hebrew", r"\p{Script=Hebrew}"),
    ("Devanagari", r"\p{Script=Devanagari}"),
    ("Han", r"\p{Script=Han}"),
    ("Kana", r"[\p{Script=Hiragana}\p{Script=Katakana}]"),
    ("Hangul", r"\p{Script=Hangul}"),
    ("Thai", r"\p{Script=Thai}"),
    ("other letters", r"\p{L}"),
)
_COMPILED = tuple((name, regex.compile(source)) for name, source in _CLASSES)

_CACHE: dict[str, str | None] = {}


def category_of(char: str) -> str | None:
    """The category of one character, or None for a weak one (space, punctuation, symbol, mark).

    >>> [category_of(c) for c in ["é", "ß", "ا", "あ", "한", "。"]]
    ['Latin', 'Latin', 'Arabic', 'Kana', 'Hangul', None]
    """
    try:
        return _CACHE[char]
    except KeyError:
        pass
    if not isinstance(char, str) or len(char) != 1:
        raise ValueError(f"category_of takes one character, not {char!r}; loop over the text's characters")
    found = None
    for name, pattern in _COMPILED:
        if pattern.match(char):
            found = name
            break
    if len(_CACHE) < 200_000:
        _CACHE[char] = found
    return found


def resolve_chunk(chunk: str) -> list[str]:
    """The category of every character of one chunk, weak characters resolved (see the module doc)."""
    cats = [_CACHE[c] if c in _CACHE else category_of(c) for c in chunk]
    following: str | None = None
    for i in range(len(cats) - 1, -1, -1):  # weak -> the next strong character
        if cats[i] is None:
            cats[i] = following
        else:
            following = cats[i]
    out: list[str] = []
    previous = SPACE_PUNCT
    for c in cats:  # trailing weak characters -> the previous strong one
        if c is not None:
            previous = c
        out.append(previous)
    return out


def byte_categories(chunk: str, cats: list[str] | None = None) -> list[str]:
    """The category of each UTF-8 byte of ``chunk`` (the category of the character it belongs to).

    ``cats`` may pass :func:`resolve_chunk`'s result when it is already known.

    >>> byte_categories("é!")
    ['Latin', 'Latin', 'Latin']
    """
    if cats is None:
        cats = resolve_chunk(chunk)
    out: list[str] = []
    for c, cat in zip(chunk, cats):
        if c < "\x80":
            out.append(cat)
        else:
            out.extend([cat] * len(c.encode("utf-8")))
    return out


def text_categories(
    text: str, *, pattern: str = "gpt2", special_tokens: tuple[str, ...] | list[str] = ()
) -> list[str]:
    """The resolved category of every character of ``text`` under a pre-tokenizer (special tokens'
    characters are :data:`SPECIAL`).

    >>> text_categories("hi 你好", pattern="gpt2")
    ['Latin', 'Latin', 'Han', 'Han', 'Han']
    """
    pre = PreTokenizer(pattern, special_tokens=list(special_tokens))
    out: list[str] = []
    for segment, special in pre.segments(text):
        if special:
            out.extend([SPECIAL] * len(segment))
            continue
        for chunk in pre.split(segment):
            out.extend(resolve_chunk(chunk))
    return out
