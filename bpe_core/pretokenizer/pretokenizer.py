"""The pre-tokenizer: special tokens first, then a regex splits text into chunks.

BPE never merges across a chunk boundary, so the pattern decides what a token
can be (with ``gpt2`` no token spans two words; with ``none`` it can).  The
patterns are in :mod:`bpe_core.pretokenizer.patterns`.  Text a custom regex
does not match is kept as chunks of its own, so nothing is ever dropped.  A
custom regex runs under a time limit (:mod:`bpe_core.pretokenizer.safe_regex`):
one that backtracks for ever is a ValueError after about a second.

>>> PreTokenizer("gpt2").chunks("Hello world, it's 2024!")
['Hello', ' world', ',', ' it', "'s", ' 2024', '!']
>>> PreTokenizer("gpt4").chunks("in 2024!!\\n")
['in', ' ', '202', '4', '!!\\n']
>>> PreTokenizer("none", special_tokens=["<|eot|>"]).segments("ab<|eot|>cd")
[('ab', False), ('<|eot|>', True), ('cd', False)]
>>> PreTokenizer(r"\\d+").chunks("ab12cd")
['ab', '12', 'cd']
>>> PreTokenizer(r"(a|a)+$").chunks("a" * 34 + "!")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bpe_core.pretokenizer.safe_regex.PatternTimeout: the split pattern '(a|a)+$' was stopped after 1.0 s on 35 ...
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence

import regex

from .parallel import PARALLEL_MIN_CHARS, count_parallel
from .patterns import COVERING, ascii_form, pattern_name, resolve_pattern, safe_cut
from .safe_regex import PatternTimeout, compile_pattern, current_limit, time_limit
from .specials import special_token_regex
from .text import check_special_tokens

_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# Mixed texts shorter than this are not worth cutting into ASCII and non-ASCII runs.
MIXED_MIN_CHARS = 2000


class PreTokenizer:
    """Splits text into special tokens and chunks (see the module docstring)."""

    def __init__(self, pattern: str = "gpt2", *, special_tokens: Sequence[str] = ()) -> None:
        self.pattern = pattern
        self.name = pattern_name(pattern)
        self.source = resolve_pattern(pattern)
        self.special_tokens = check_special_tokens(special_tokens)
        # The named patterns never backtrack far; every other one runs under a time limit.
        self._limited = self.source is not None and self.name == "custom"
        self._regex = (
            None
            if self.source is None
            else compile_pattern(self.source)
            if self._limited
            else regex.compile(self.source)
        )
        self._covering = self.source in COVERING
        self._ascii_regex = ascii_form(self.source)
        self._special_regex = special_token_regex(self.special_tokens)

    def segments(self, text: str) -> list[tuple[str, bool]]:
        """``text`` cut at special tokens: ``(segment, is_special)`` in order, no empty segments."""
        if self._special_regex is None:
            return [(text, False)] if text else []
        parts = self._special_regex.split(text)
        # split with one group alternates: text, special, text, special, ...
        return [(p, i % 2 == 1) for i, p in enumerate(parts) if p]

    def split(self, text: str) -> list[str]:
        """Chunks of one segment of ordinary text (no special tokens in it).

        A custom pattern gets the time limit that the running operation set
        (:func:`~.safe_regex.time_limit`), else one of its own for ``text``.
        """
        compiled = self._regex
        if compiled is None:
            return [text] if text else []
        if self._limited:
            limit = current_limit(len(text))
            try:
                return self._matches_and_gaps(compiled, text, timeout=limit.timeout())
            except TimeoutError:
                raise PatternTimeout(self.pattern, limit) from None
        if self._covering:
            fast = self._ascii_regex
            if fast is not None:
                if text.isascii():
                    return fast.findall(text)
                if len(text) >= MIXED_MIN_CHARS:
                    return self._split_mixed(text, fast, compiled)
            return compiled.findall(text)
        return self._matches_and_gaps(compiled, text, timeout=None)

    @staticmethod
    def _matches_and_gaps(compiled: regex.Pattern[str], text: str, *, timeout: float | None) -> list[str]:
        """The pattern's matches, and the text between them as chunks too (for patterns not known to
        cover every character)."""
        out: list[str] = []
        pos = 0
        for m in compiled.finditer(text, timeout=timeout):
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

    @staticmethod
    def _split_mixed(text: str, fast: re.Pattern[str], slow: regex.Pattern[str]) -> list[str]:
        """``split`` for a long text with some non-ASCII: ASCII runs of lines go to
        the fast pattern, the lines around each non-ASCII character to the full
        one (``slow``).  Cuts are made only at safe newlines (see :func:`_safe_cut`), so the
        chunks are exactly those of one ``findall`` over the whole text."""
        out: list[str] = []
        pos, n = 0, len(text)
        while pos < n:
            m = _NON_ASCII.search(text, pos)
            if m is None:
                out += fast.findall(text, pos)
                break
            start = m.start()
            cut = text.rfind("\n", pos, start)
            while cut >= pos and not safe_cut(text, cut):
                cut = text.rfind("\n", pos, cut)
            if cut >= pos:
                out += fast.findall(text, pos, cut + 1)
                pos = cut + 1
            end = text.find("\n", start)
            while end >= 0 and not safe_cut(text, end):
                end = text.find("\n", end + 1)
            end = n if end < 0 else end + 1
            out += slow.findall(text, pos, end)
            pos = end
        return out

    def chunks(self, text: str) -> list[str]:
        """All ordinary chunks of ``text`` in order, special tokens left out."""
        out: list[str] = []
        with time_limit(len(text)):
            for segment, special in self.segments(text):
                if not special:
                    out.extend(self.split(segment))
        return out

    def count_chunks(self, text: str, *, workers: int | None = None) -> tuple[Counter[str], Counter[str]]:
        """``(chunk counts, special-token counts)``; chunk counts keep first-occurrence order.

        Texts over ``PARALLEL_MIN_CHARS`` are split at safe points and counted
        in ``workers`` processes (default: the CPU count, at most 2; 1 counts
        here, with no other process).
        """
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise ValueError(
                f"workers must be a whole number of processes (1 counts in this process), or None for "
                f"the CPU count; not {workers!r}"
            )
        specials: Counter[str] = Counter()
        segments = self.segments(text)
        for segment, special in segments:
            if special:
                specials[segment] += 1
        if workers is None:
            workers = min(2, os.cpu_count() or 1)
        if workers > 1 and len(text) >= PARALLEL_MIN_CHARS and self._covering:
            return count_parallel(self.split, [p for p, s in segments if not s], workers), specials
        counts: Counter[str] = Counter()
        with time_limit(len(text)):
            for segment, special in segments:
                if not special:
                    counts.update(self.split(segment))
        return counts, specials
