"""Checks on what comes in: the text (valid Unicode) and the special tokens (distinct, non-empty).

>>> check_text("naïve")
b'na\\xc3\\xafve'
>>> check_special_tokens(("<|eot|>",))
['<|eot|>']
"""

from __future__ import annotations

from collections.abc import Iterable

MAX_SPECIAL_TOKENS = 10_000
"""The most special tokens a tokenizer may have (real ones have up to about a thousand)."""
MAX_SPECIAL_TOKEN_CHARS = 1000
"""The longest special token (real ones are under 40 characters)."""
EXCERPT_CHARS = 60
"""How much of a bad input a message quotes."""


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """``repr`` of ``value`` for a message, about ``limit`` characters long: a longer string or bytes is
    cut, and its length said.

    >>> excerpt("abc"), excerpt("x" * 100, 5), excerpt(b"\\xff" * 9, 10), excerpt(list(range(50)), 10)
    ("'abc'", "'xxxxx'... (100 characters)", "b'\\\\xff\\\\xff'... (9 bytes)", '[0, 1, 2, ...')
    """
    if isinstance(value, str | bytes):
        n = min(len(value), limit)
        while n > 1 and len(repr(value[:n])) > limit + 3:  # escapes (\x01) make the repr longer
            n = n * 2 // 3
        unit = "characters" if isinstance(value, str) else "bytes"
        return repr(value) if n == len(value) else f"{value[:n]!r}... ({len(value):,} {unit})"
    shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit] + "..."


def check_text(text: str) -> bytes:
    """The UTF-8 bytes of ``text``; a lone surrogate is a ValueError naming where it is."""
    if not isinstance(text, str):
        raise ValueError(
            f"text must be a str, not {type(text).__name__}; decode bytes with .decode('utf-8') first"
        )
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        ch = text[exc.start]
        raise ValueError(
            f"text has a lone surrogate U+{ord(ch):04X} at character {exc.start}, which is not valid "
            "Unicode and has no UTF-8 bytes; remove it or re-decode the source with errors='replace'"
        ) from None


def check_special_tokens(special_tokens: Iterable[str]) -> list[str]:
    """Check special tokens: distinct non-empty strings, not too many nor too long; returns them as a list."""
    if isinstance(special_tokens, str):
        raise ValueError("special_tokens must be a list of strings, e.g. ['<|endoftext|>'], not one string")
    out: list[str] = []
    seen: set[str] = set()
    for tok in special_tokens:
        if not isinstance(tok, str) or tok == "":
            raise ValueError(f"special token {excerpt(tok)} must be a non-empty string")
        if tok in seen:
            raise ValueError(f"special token {excerpt(tok)} is listed twice; list each once")
        if len(tok) > MAX_SPECIAL_TOKEN_CHARS:
            raise ValueError(
                f"special token {excerpt(tok)} is longer than {MAX_SPECIAL_TOKEN_CHARS:,} characters; "
                "a special token is a short marker such as <|endoftext|>"
            )
        seen.add(tok)
        out.append(tok)
        if len(out) > MAX_SPECIAL_TOKENS:
            raise ValueError(
                f"more than {MAX_SPECIAL_TOKENS:,} special tokens; a tokenizer has a few (real ones up to "
                "about a thousand), so check where they come from"
            )
    return out
