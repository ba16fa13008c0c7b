"""The pre-tokenizer: special tokens first, then a regex splits text into chunks.

BPE never merges across a chunk boundary, so the pattern decides what a token
can be (with ``gpt2`` no token spans two words; with ``none`` it can).

Named patterns (``PATTERNS``):

- ``none``: no split, each text between special tokens is one chunk (the
  classic lesson: ``e `` and ``the `` can become tokens);
- ``whitespace``: runs of non-space and runs of space, ``\\S+|\\s+``;
- ``gpt2``: GPT-2's pattern (tiktoken's r50k form), words keep a leading space;
- ``gpt4`` (alias ``cl100k``): cl100k_base's pattern, digits in groups of 3;
- ``o200k``: o200k_base's pattern.

Any other string is compiled as a custom regex (``regex`` module syntax).
Text a custom regex does not match is kept as chunks of its own, so nothing
is ever dropped.

>>> PreTokenizer("gpt2").chunks("Hello world, it's 2024!")
['Hello', ' world', ',', ' it', "'s", ' 2024', '!']
>>> PreTokenizer("gpt4").chunks("in 2024!!\\n")
['in', ' ', '202', '4', '!!\\n']
>>> PreTokenizer("none", special_tokens=["<|eot|>"]).pieces("ab<|eot|>cd")
[('ab', False), ('<|eot|>', True), ('cd', False)]
>>> PreTokenizer(r"\\d+").chunks("ab12cd")
['ab', '12', 'cd']
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence

import regex

GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
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
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# Mixed texts shorter than this are not worth cutting into ASCII and non-ASCII runs.
MIXED_MIN_CHARS = 2000


def _ascii_form(source: str | None) -> re.Pattern[str] | None:
    form = _ASCII_FORMS.get(source) if source is not None else None
    if form is None:
        return None
    try:
        return re.compile(form)
    except re.error:  # possessive quantifiers need Python 3.11: use the regex module only
        return None


# Patterns known to cover every character, so a fast findall loses nothing,
# and known to end a chunk at a lone newline (safe split points for parallel
# pre-tokenization, see _split_at_newlines).
_COVERING = {GPT2_PATTERN, GPT4_PATTERN, PATTERNS["whitespace"]}

PARALLEL_MIN_CHARS = 4_000_000


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

    A custom regex that does not compile is a ValueError saying why.
    """
    if not isinstance(pattern, str):
        raise ValueError(f"pattern must be a string (one of {sorted(PATTERNS)} or a regex), not {pattern!r}")
    if pattern in PATTERNS:
        return PATTERNS[pattern]
    if pattern == "":
        raise ValueError(f"pattern is empty: use 'none' for no split, or one of {sorted(PATTERNS)}")
    try:
        regex.compile(pattern)
    except regex.error as exc:
        raise ValueError(
            f"pattern {pattern!r} is not a valid regex ({exc}); fix it or use one of {sorted(PATTERNS)}"
        ) from None
    return pattern


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


class PreTokenizer:
    """Splits text into special tokens and chunks (see the module docstring)."""

    def __init__(self, pattern: str = "gpt2", *, special_tokens: Sequence[str] = ()) -> None:
        self.pattern = pattern
        self.name = pattern_name(pattern)
        self.source = resolve_pattern(pattern)
        self.special_tokens = check_special_tokens(special_tokens)
        self._regex = regex.compile(self.source) if self.source is not None else None
        self._covering = self.source in _COVERING
        self._ascii_regex = _ascii_form(self.source)
        self._special_regex = (
            regex.compile(
                "("
                + "|".join(regex.escape(s) for s in sorted(self.special_tokens, key=len, reverse=True))
                + ")"
            )
            if self.special_tokens
            else None
        )

    def pieces(self, text: str) -> list[tuple[str, bool]]:
        """``text`` cut at special tokens: ``(piece, is_special)`` in order, no empty pieces."""
        if self._special_regex is None:
            return [(text, False)] if text else []
        parts = self._special_regex.split(text)
        # split with one group alternates: text, special, text, special, ...
        return [(p, i % 2 == 1) for i, p in enumerate(parts) if p]

    def split(self, text: str) -> list[str]:
        """Chunks of one piece of ordinary text (no special tokens in it)."""
        if self._regex is None:
            return [text] if text else []
        if self._covering:
            fast = self._ascii_regex
            if fast is not None:
                if text.isascii():
                    return fast.findall(text)
                if len(text) >= MIXED_MIN_CHARS:
                    return self._split_mixed(text, fast)
            return self._regex.findall(text)
        out: list[str] = []
        pos = 0
        for m in self._regex.finditer(text):
            start, end = m.span()
            if end == start:
                continue
            if start > pos:
                out.append(text[pos:start])
            out.append(text[start:end])
            pos = end
        if pos < len(text):
            out.append(text[pos:])
        return out

    def _split_mixed(self, text: str, fast: re.Pattern[str]) -> list[str]:
        """``split`` for a long text with some non-ASCII: ASCII runs of lines go to
        the fast pattern, the lines around each non-ASCII character to the full
        one.  Cuts are made only at safe newlines (see :func:`_safe_cut`), so the
        chunks are exactly those of one ``findall`` over the whole text."""
        slow = self._regex
        out: list[str] = []
        pos, n = 0, len(text)
        while pos < n:
            m = _NON_ASCII.search(text, pos)
            if m is None:
                out += fast.findall(text, pos)
                break
            start = m.start()
            cut = text.rfind("\n", pos, start)
            while cut >= pos and not _safe_cut(text, cut):
                cut = text.rfind("\n", pos, cut)
            if cut >= pos:
                out += fast.findall(text, pos, cut + 1)
                pos = cut + 1
            end = text.find("\n", start)
            while end >= 0 and not _safe_cut(text, end):
                end = text.find("\n", end + 1)
            end = n if end < 0 else end + 1
            out += slow.findall(text, pos, end)
            pos = end
        return out

    def chunks(self, text: str) -> list[str]:
        """All ordinary chunks of ``text`` in order, special tokens left out."""
        out: list[str] = []
        for piece, special in self.pieces(text):
            if not special:
                out.extend(self.split(piece))
        return out

    def count_chunks(self, text: str, *, workers: int | None = None) -> tuple[Counter[str], Counter[str]]:
        """``(chunk counts, special-token counts)``; chunk counts keep first-occurrence order.

        Texts over ``PARALLEL_MIN_CHARS`` are split at safe points and counted
        in ``workers`` processes (default: the CPU count, at most 2).
        """
        specials: Counter[str] = Counter()
        pieces = self.pieces(text)
        for piece, special in pieces:
            if special:
                specials[piece] += 1
        if workers is None:
            workers = min(2, os.cpu_count() or 1)
        if workers > 1 and len(text) >= PARALLEL_MIN_CHARS and self._covering:
            return _count_parallel(self, [p for p, s in pieces if not s], workers), specials
        counts: Counter[str] = Counter()
        for piece, special in pieces:
            if not special:
                counts.update(self.split(piece))
        return counts, specials


def _safe_cut(text: str, pos: int) -> bool:
    r"""Whether ``text[pos]`` is a lone newline (a non-space on both sides), after
    which the text can be cut without changing its chunks under any covering
    pattern: each makes that newline a chunk of its own or ends a chunk with it,
    whether or not text follows.  A longer whitespace run would not be safe, as
    ``\s+(?!\S)`` looks past it.

    >>> [p for p in range(7) if _safe_cut("ab\ncd\n\ne", p)]
    [2]
    """
    return (
        0 < pos < len(text) - 1
        and text[pos] == "\n"
        and not text[pos - 1].isspace()
        and not text[pos + 1].isspace()
    )


def _split_at_newlines(text: str, parts: int) -> list[str]:
    r"""Cut ``text`` into about ``parts`` pieces just after a safe newline (see
    :func:`_safe_cut`).

    >>> _split_at_newlines("ab\r\ncd\nef", 2)
    ['ab\r\ncd\n', 'ef']
    """
    out, start, n = [], 0, len(text)
    for k in range(1, parts):
        target = max(start, n * k // parts)
        cut = -1
        pos = target
        while True:
            pos = text.find("\n", pos)
            if pos < 0 or pos + 1 >= n:
                break
            if _safe_cut(text, pos):
                cut = pos + 1
                break
            pos += 1
        if cut < 0:
            break
        out.append(text[start:cut])
        start = cut
    out.append(text[start:])
    return out


_WORKER_PRETOKENIZER: PreTokenizer | None = None


def _count_batch(texts: list[str]) -> Counter[str]:
    """Count the chunks of ``texts`` with the pre-tokenizer the parent set before forking."""
    pre = _WORKER_PRETOKENIZER
    if pre is None:
        raise RuntimeError("_count_batch runs only in a worker forked by _count_parallel")
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(pre.split(t))
    return counts


def _count_parallel(pre: PreTokenizer, texts: list[str], workers: int) -> Counter[str]:
    import multiprocessing

    global _WORKER_PRETOKENIZER
    # Balance by size: cut long texts at safe newlines, then deal them out in order
    # so that concatenating the batches keeps the text order (first-seen order).
    total = sum(len(t) for t in texts)
    target = max(1, total // (workers * 4))
    pieces: list[str] = []
    for t in texts:
        pieces.extend(_split_at_newlines(t, max(1, len(t) // target)) if len(t) > target else [t])
    batches: list[list[str]] = [[] for _ in range(workers)]
    size, b = 0, 0
    for p in pieces:
        if size >= total * (b + 1) / workers and b < workers - 1:
            b += 1
        batches[b].append(p)
        size += len(p)
    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform: count here
        return Counter(chunk for batch in batches for t in batch for chunk in pre.split(t))
    _WORKER_PRETOKENIZER = pre
    try:
        with ctx.Pool(workers) as pool:
            results = pool.map(_count_batch, batches)
    finally:
        _WORKER_PRETOKENIZER = None
    counts: Counter[str] = Counter()
    for r in results:
        counts.update(r)
    return counts
