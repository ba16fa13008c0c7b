"""What the browser needs to encode text itself: a tokenizer's ranks and split pattern as one typed record.

The token view (:mod:`.clickable_tokens`) encodes in the browser while you type, from an
:class:`EncoderTable` sent once per tokenizer; the engine stays the reference (browser tests compare
ids).  A tokenizer the browser cannot encode exactly (a custom split pattern, the character baseline,
a vocabulary over :data:`MAX_BROWSER_TOKENS`) gets no table, and the server tokenizes.

The split pattern goes over in JavaScript's syntax (:func:`js_pattern`), each Unicode class spelled
out as the ranges Python's ``regex`` gives it, so the browser's Unicode version cannot cut otherwise.
The field names are the JavaScript's (``live_assets/encoder.js``'s JSDoc typedefs; a test checks them).

>>> from bpe_core import Tokenizer
>>> tok = Tokenizer({i: bytes([i]) for i in range(256)} | {256: b"ab"}, [(97, 98)], pattern="gpt2")
>>> table = encoder_table(tok, key="demo")
>>> table.merges, table.merge_ids, table.byte_ids[:3]
((97, 98), (256,), (0, 1, 2))
>>> js_pattern(r"\\d+") is None  # a pattern that is not a named one stays on the server
True
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import regex

from bpe_core import SchemeTokenizer
from bpe_core.byte_level import INVISIBLE_NAMES, WHITESPACE_MARKERS
from bpe_core.pretokenizer import GPT2_PATTERN, GPT4_PATTERN, O200K_PATTERN, PATTERNS
from mergescope_ui.shared import hosting
from mergescope_ui.shared.html.tokens import PALETTE_SIZE, TITLE_HEX_BYTES

OFF = "MERGESCOPE_BROWSER_ENCODE"  # "off": the server encodes every keystroke (as before; for comparison)
MAX_BROWSER_TOKENS = 300_000  # a larger vocabulary is encoded on the server
# The named patterns the browser encodes with (their source in Python's ``regex`` syntax).
BROWSER_PATTERNS = (GPT2_PATTERN, GPT4_PATTERN, O200K_PATTERN, PATTERNS["whitespace"])
LIST_NAME = "Tokens"  # the token list's name for screen readers (the server's spans and the browser's)


@dataclass(frozen=True, slots=True)
class EncoderTable:
    """One tokenizer as the browser encodes with it.

    ``key``: the tokenizer's identity (the browser keeps tables by it); ``pattern``: JavaScript syntax
    for the ``u`` flag (``""``: no split); ``merges``: two ids per merge, in rank order;
    ``invisible``: a character class of what a label names instead of showing (``⟨ZWJ⟩``), ``names``
    their short names.  ``marks``, ``palette``, ``title_hex``, ``list_name``: the spans look as the
    server's do (:mod:`mergescope_ui.shared.html.tokens`).
    """

    key: str
    pattern: str
    byte_ids: tuple[int, ...]
    merges: tuple[int, ...]
    merge_ids: tuple[int, ...]
    specials: tuple[tuple[str, int], ...]
    invisible: str
    names: dict[str, str]
    marks: dict[str, str]
    palette: int
    title_hex: int
    list_name: str


@dataclass(frozen=True, slots=True)
class LiveView:
    """What the token view is sent at each script run.

    ``html``: the server's spans for ``page`` (escaped), ``sig`` names them (tokenizer, text, page,
    switches); ``picked``: the outlined position.  How the browser follows the typing: ``box``, the
    text box's name; ``table_key``, the table to encode with (``table`` itself only when the browser
    does not hold it yet); the switches and the limits.  ``characters``, ``bytes``, ``tokens``: the
    counts of the server's text (the browser counts the text as typed when it encodes it).
    """

    html: str = ""
    sig: str = ""
    page: int = 1
    picked: int | None = None
    box: str = ""
    table_key: str = ""
    table: EncoderTable | None = None
    specials: bool = True
    marks: bool = True
    max_tokens: int = 5000
    live_chars: int = 0
    characters: int = 0
    bytes: int = 0
    tokens: int = 0
    count_labels: tuple[tuple[str, str], ...] = ()


RECORDS: tuple[type, ...] = (EncoderTable, LiveView)


@lru_cache(maxsize=1)
def _all_chars() -> str:
    """Every code point but the surrogates, in order."""
    return "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, sys.maxunicode + 1)))


def _char(code: int) -> str:
    """One code point in a JavaScript pattern: ASCII letters and digits as themselves, else ``\\u{..}``."""
    c = chr(code)
    return c if c.isascii() and c.isalnum() else f"\\u{{{code:X}}}"


def _ranges(chars: list[str]) -> str:
    """A character class body (no brackets) for ``chars`` (sorted), as ``\\u{..}`` ranges."""
    out: list[str] = []
    codes = sorted(set(map(ord, chars)))
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        lo, hi = codes[i], codes[j]
        out.append(_char(lo) if lo == hi else f"{_char(lo)}-{_char(hi)}")
        i = j + 1
    return "".join(out)


@lru_cache(maxsize=64)
def class_body(construct: str) -> str:
    """The ranges ``regex`` matches with ``construct`` (``\\p{L}``, ``\\s``, ``(?i:s)``), as a class body.

    >>> class_body(r"\\s")[:23]
    '\\\\u{9}-\\\\u{D}\\\\u{20}\\\\u{85}'
    """
    return _ranges(regex.findall(construct, _all_chars()))


_TOKEN = regex.compile(
    r"\\p\{(\w+)\}|\\[sS]|\\[rnt]|\(\?i:|\[\^?|\]|\(\?[:!=]|\(|\)|[+*?]|\{\d+(?:,\d*)?\}|.", regex.S
)


def js_pattern(source: str | None) -> str | None:
    """The named split pattern ``source`` in JavaScript syntax (``u`` flag), ``""`` for no split, or None
    (a custom pattern).  Possessive ``++`` becomes greedy: in the named patterns it matches the same.

    >>> js_pattern(PATTERNS["whitespace"]).count("[^")
    1
    >>> js_pattern(None)
    ''
    """
    if source is None:
        return ""
    if source not in BROWSER_PATTERNS:
        return None
    out: list[str] = []
    in_class = False
    fold = 0  # depth inside (?i:...) groups
    depth = 0
    fold_depths: list[int] = []
    quantified = False  # the last token was a quantifier (a "+" after it is possessive)
    for m in _TOKEN.finditer(source):
        tok = m.group(0)
        was_quantifier, quantified = quantified, False
        if m.group(1) or tok == r"\s":
            body = class_body(tok)
            out.append(body if in_class else f"[{body}]")
        elif tok == r"\S":
            if in_class:
                return None  # not in the named patterns
            out.append("[^" + class_body(r"\s") + "]")
        elif tok in (r"\r", r"\n", r"\t"):
            out.append(tok)
        elif tok.startswith("["):
            in_class = True
            out.append(tok)
        elif tok == "]":
            in_class = False
            out.append(tok)
        elif in_class:
            out.append(_letter(tok, fold, in_class=True))
        elif tok == "(?i:":
            depth += 1
            fold += 1
            fold_depths.append(depth)
            out.append("(?:")
        elif tok.startswith("("):
            depth += 1
            out.append(tok)
        elif tok == ")":
            if fold_depths and fold_depths[-1] == depth:
                fold_depths.pop()
                fold -= 1
            depth -= 1
            out.append(tok)
        elif tok in "+*?" or tok.startswith("{"):
            if tok == "+" and was_quantifier:
                continue  # possessive: greedy matches the same in the named patterns
            quantified = True
            out.append(tok)
        elif tok == "$":
            out.append("$")
        else:
            out.append(_letter(tok, fold, in_class=False))
    return "".join(out)


def _letter(ch: str, fold: int, *, in_class: bool) -> str:
    """One literal character: escaped, and inside ``(?i:...)`` every character ``regex`` folds with it."""
    if fold and ch.isalpha():
        body = class_body(f"(?i:{regex.escape(ch)})")
        return body if in_class else f"[{body}]"
    if ch in "|" and not in_class:
        return ch
    return _char(ord(ch))


@lru_cache(maxsize=1)
def invisible_class() -> tuple[str, dict[str, str]]:
    """The characters a label names instead of showing, as a class body, and their fixed names (names
    that follow from the code point, ``VS1``, ``U+2009``, are made in the browser)."""
    marks = {"\u034f", *map(chr, range(0xFE00, 0xFE10)), *map(chr, range(0xE0100, 0xE01F0))}
    chars = [c for c in _all_chars() if (not c.isprintable() or c in marks) and c not in WHITESPACE_MARKERS]
    names = {c: n for c, n in INVISIBLE_NAMES.items() if c not in WHITESPACE_MARKERS}
    return _ranges(chars), names


def encoder_table(tok: SchemeTokenizer | None, *, key: str) -> EncoderTable | None:
    """``tok`` as the browser encodes with it, or None when the server must encode (see the module)."""
    tok = tok.as_bpe() if tok is not None else None
    if tok is None or tok.vocab_size > MAX_BROWSER_TOKENS:
        return None
    pattern = js_pattern(tok.pretokenizer.source)
    if pattern is None:
        return None
    byte_ids = tuple(tok.id_of(bytes([b])) or 0 for b in range(256))
    merges = tuple(i for pair in tok.merges for i in pair)
    invisible, names = invisible_class()
    return EncoderTable(
        key=key,
        pattern=pattern,
        byte_ids=byte_ids,
        merges=merges,
        merge_ids=tuple(tok.merge_ids),
        specials=tuple(sorted(tok.special_tokens.items())),
        invisible=invisible,
        names=names,
        marks=dict(WHITESPACE_MARKERS),
        palette=PALETTE_SIZE,
        title_hex=TITLE_HEX_BYTES,
        list_name=LIST_NAME,
    )


def browser_encoding(env: Mapping[str, str] | None = None) -> bool:
    """Whether the browser encodes while you type (``MERGESCOPE_BROWSER_ENCODE=off``: never)."""
    return not hosting.switched_off(OFF, env)
