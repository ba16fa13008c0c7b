"""The split patterns: the named regexes, their fast ASCII forms, and which cuts are safe.

- ``none``: no split, each text between special tokens is one chunk (the
  classic lesson: ``e `` and ``the `` can become tokens);
- ``whitespace``: runs of non-space and runs of space, ``\\S+|\\s+``;
- ``gpt2``: GPT-2's pattern (tiktoken's r50k form), words keep a leading space;
- ``gpt4`` (alias ``cl100k``): cl100k_base's pattern, digits in groups of 3;
- ``o200k``: o200k_base's pattern.

Any other string is a custom regex (``regex`` module syntax).
"""

from __future__ import annotations

import re

from .safe_regex import compile_pattern
from .text import excerpt

GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_O200K_LOWER = r"""[\p{Ll}\p{Lm}\p{Lo}\p{M}]"""
_O200K_UPPER = r"""[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"""
_O200K_SUFFIX = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?"""
O200K_PATTERN = "|".join(
    [
        rf"""[^\r\n\p{{L}}\p{{N}}]?{_O200K_UPPER}*{_O200K_LOWER}+{_O200K_SUFFIX}""",
        rf"""[^\r\n\p{{L}}\p{{N}}]?{_O200K_UPPER}+{_O200K_LOWER}*{_O200K_SUFFIX}""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

PATTERNS: dict[str, str | None] = {
    "none": None,
    "whitespace": r"\S+|\s+",
    "gpt2": GPT2_PATTERN,
    "gpt4": GPT4_PATTERN,
    "cl100k": GPT4_PATTERN,
    "o200k": O200K_PATTERN,
}
# The same patterns for text that is all ASCII, in the stdlib ``re`` (about twice
# as fast as ``regex`` here).  On ASCII text they match exactly what the Unicode
# forms match: \p{L} is [A-Za-z], \p{N} is [0-9] and \s is the six characters
# below (``regex`` does not count \x1c-\x1f as space); tests check it.
_WS = r"\t\n\x0b\x0c\r "
_ASCII_FORMS = {
    GPT2_PATTERN: rf"""'(?:[sdmt]|ll|ve|re)| ?[A-Za-z]++| ?[0-9]++| ?[^{_WS}A-Za-z0-9]++|[{_WS}]++$"""
    rf"""|[{_WS}]+(?![^{_WS}])|[{_WS}]""",
    GPT4_PATTERN: rf"""'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]++|[0-9]{{1,3}}+"""
    rf"""| ?[^{_WS}A-Za-z0-9]++[\r\n]*+|[{_WS}]++$|[{_WS}]*[\r\n]|[{_WS}]+(?![^{_WS}])|[{_WS}]""",
    r"\S+|\s+": rf"[^{_WS}]+|[{_WS}]+",
}


def ascii_form(source: str | None) -> re.Pattern[str] | None:
    """The stdlib ``re`` form of a named pattern for all-ASCII text, or None if it has none."""
    form = _ASCII_FORMS.get(source) if source is not None else None
    if form is None:
        return None
    try:
        return re.compile(form)
    except re.error:  # possessive quantifiers need Python 3.11: use the regex module only
        return None


# Patterns known to cover every character, so a fast findall loses nothing,
# and known to end a chunk at a lone newline (see safe_cut).
COVERING = {GPT2_PATTERN, GPT4_PATTERN, PATTERNS["whitespace"]}


def pattern_name(pattern: str) -> str:
    """The name of a named pattern's regex, or ``"custom"``.

    >>> pattern_name(GPT2_PATTERN), pattern_name("gpt4"), pattern_name(r"\\w+")
    ('gpt2', 'gpt4', 'custom')
    """
    if pattern in PATTERNS:
        return "gpt4" if pattern == "cl100k" else pattern
    for name, source in PATTERNS.items():
        if source is not None and source == pattern and name != "cl100k":
            return name
    return "custom"


def resolve_pattern(pattern: str) -> str | None:
    """The regex source for a named or custom pattern (None for ``"none"``).

    A custom regex that does not compile, or that is too long or unrolls too
    far to compile safely (see :mod:`.safe_regex`), is a ValueError saying why.
    """
    if not isinstance(pattern, str):
        raise ValueError(
            f"pattern must be a string (one of {sorted(PATTERNS)} or a regex), not {excerpt(pattern)}"
        )
    if pattern in PATTERNS:
        return PATTERNS[pattern]
    if pattern == "":
        raise ValueError(f"pattern is empty: use 'none' for no split, or one of {sorted(PATTERNS)}")
    try:
        compile_pattern(pattern)
    except ValueError as exc:
        raise ValueError(f"{exc}; fix it or use one of {sorted(PATTERNS)}") from None
    return pattern


def safe_cut(text: str, pos: int) -> bool:
    r"""Whether ``text[pos]`` is a lone newline (a non-space on both sides), after
    which the text can be cut without changing its chunks under any
    :data:`COVERING` pattern: each makes that newline a chunk of its own or ends
    a chunk with it, whether or not text follows.  A longer whitespace run would
    not be safe, as ``\s+(?!\S)`` looks past it.

    >>> [p for p in range(7) if safe_cut("ab\ncd\n\ne", p)]
    [2]
    """
    return (
        0 < pos < len(text) - 1
        and text[pos] == "\n"
        and not text[pos - 1].isspace()
        and not text[pos + 1].isspace()
    )
