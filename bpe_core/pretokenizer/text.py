"""Checks on what comes in: the text (valid Unicode) and the special tokens (distinct, non-empty).

>>> check_text("naïve")
b'na\\xc3\\xafve'
>>> check_special_tokens(("<|eot|>",))
['<|eot|>']
"""

from __future__ import annotations

from collections.abc import Iterable


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
    """Validate special tokens: non-empty, distinct strings. Returns them as a list."""
    if isinstance(special_tokens, str):
        raise ValueError("special_tokens must be a list of strings, e.g. ['<|endoftext|>'], not one string")
    out: list[str] = []
    for tok in special_tokens:
        if not isinstance(tok, str) or tok == "":
            raise ValueError(f"special token {tok!r} must be a non-empty string")
        if tok in out:
            raise ValueError(f"special token {tok!r} is listed twice; list each once")
        out.append(tok)
    return out
