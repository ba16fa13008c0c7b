"""Split patterns from users and files: checked before they compile, and run with a time limit.

A custom pattern comes from a person (the app, the CLI) or from a file (a
``tokenizer.json`` ``Split``, a minbpe model), so it is not trusted:

- **before compiling** (:func:`compile_pattern`): at most
  :data:`MAX_PATTERN_CHARS` characters, and counted repeats (``{n}``,
  ``{m,n}``) that multiply to at most :data:`MAX_REPEAT_PRODUCT`: the
  ``regex`` module unrolls ``(?:a{1000}){1000}`` into a million copies while it
  compiles, which takes hundreds of MB and seconds;
- **while matching** (:func:`time_limit`, :func:`current_limit`): each operation
  on a text (counting a training text, encoding one text) gets
  :data:`BASE_SECONDS` plus :data:`SECONDS_PER_MILLION_CHARS` per million
  characters, passed to ``regex`` as ``timeout=``.  A pattern that backtracks
  exponentially, such as ``(a|a)+$`` on ``"a" * 34 + "!"``, would otherwise
  spin for the life of the process (a Python thread cannot be stopped from
  outside); with the limit it raises :class:`PatternTimeout`, a ValueError that
  says what to change, in the thread that ran it, and nothing keeps running.

The named patterns are written so that they never backtrack far, and are not limited.

>>> compile_pattern(r"(?:a{1000}){1000}")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: pattern '(?:a{1000}){1000}' repeats counted parts 1,000,000 times over ...
>>> import regex
>>> with time_limit(35) as limit:
...     regex.findall(r"(a|a)+$", "a" * 34 + "!", timeout=limit.timeout())
Traceback (most recent call last):
...
TimeoutError: regex timed out
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import regex

from .text import excerpt

MAX_PATTERN_CHARS = 5000
"""The longest custom pattern (the named ones are 60 to 330 characters; real files' Split regexes
are a few hundred)."""
MAX_REPEAT_PRODUCT = 10_000
"""The largest product of all counted repeats in a custom pattern (``\\p{N}{1,3}`` counts 3)."""
BASE_SECONDS = 1.0
SECONDS_PER_MILLION_CHARS = 1.0
"""The time limit of one operation: a second, plus a second per million characters (a custom
pattern that does not backtrack splits a million characters in about 0.15 s here)."""

# Anything that reads as a counted repeat, also inside a class or after a backslash (counted
# too: an overestimate is harmless, a miss is not).
_COUNTED = regex.compile(r"\{\s*(\d*)\s*(?:,\s*(\d*)\s*)?\}")
# The time limit of the operation running in this thread (or task).
_LIMIT: ContextVar[Limit | None] = ContextVar("bpe_core_regex_limit", default=None)


class PatternTimeout(ValueError):
    """A custom split pattern ran past its time limit (it backtracks too much)."""

    def __init__(self, pattern: str, limit: Limit) -> None:
        self.pattern = pattern
        self.limit = limit
        super().__init__(
            f"the split pattern {excerpt(pattern)} was stopped after {limit.seconds:.1f} s on "
            f"{limit.chars:,} characters: "
            "it tries too many ways to match (nested repeats such as (a|a)+ or (a+)+ try exponentially "
            "many); simplify it, make its repeats possessive (a++), or use a named pattern such as gpt2"
        )


def repeat_product(source: str) -> int:
    """The product of every counted repeat in ``source`` (the upper bound, or the lower one when open).

    >>> repeat_product(r"\\p{N}{1,3}+|\\s{2,}"), repeat_product(r"\\w+")
    (6, 1)
    """
    product = 1
    for low, high in _COUNTED.findall(source):
        product *= max(1, int(high or low or 1))
        if product > MAX_REPEAT_PRODUCT:  # stop before multiplying huge numbers
            return product
    return product


def compile_pattern(source: str) -> regex.Pattern[str]:
    """``source`` compiled, after the checks of the module docstring; a bad one is a ValueError saying why."""
    if len(source) > MAX_PATTERN_CHARS:
        raise ValueError(
            f"pattern {excerpt(source)} is {len(source):,} characters long, over the {MAX_PATTERN_CHARS:,} "
            "a split pattern may have; shorten it"
        )
    product = repeat_product(source)
    if product > MAX_REPEAT_PRODUCT:
        raise ValueError(
            f"pattern {excerpt(source)} repeats counted parts {product:,} times over (the regex module "
            f"unrolls {{n}} repeats, and more than {MAX_REPEAT_PRODUCT:,} would take too much memory); "
            "use + or * instead of large {n} counts"
        )
    try:
        return regex.compile(source)
    except regex.error as exc:
        raise ValueError(f"pattern {excerpt(source)} is not a valid regex ({exc})") from None
    except (RecursionError, OverflowError, MemoryError):
        raise ValueError(f"pattern {excerpt(source)} nests too deeply or is too large to compile") from None


def budget(chars: int) -> float:
    """The seconds one operation on ``chars`` characters may take.

    >>> budget(0), budget(10_000_000)
    (1.0, 11.0)
    """
    return BASE_SECONDS + SECONDS_PER_MILLION_CHARS * chars / 1_000_000


@dataclass(frozen=True, slots=True)
class Limit:
    """The time limit of one operation: when it ends (``time.monotonic``), its length, the text's length."""

    deadline: float
    seconds: float
    chars: int

    @classmethod
    def starting_now(cls, chars: int) -> Limit:
        seconds = budget(chars)
        return cls(time.monotonic() + seconds, seconds, chars)

    def timeout(self) -> float:
        """The ``timeout=`` for the next regex call: the time left, never 0 (``regex`` would not stop)."""
        return max(self.deadline - time.monotonic(), 1e-3)


@contextmanager
def time_limit(chars: int) -> Iterator[Limit]:
    """One shared deadline for the regex calls inside, :func:`budget` ``(chars)`` from now.

    Nested calls keep the outer deadline (encoding inside training counts
    toward training's limit).  The deadline belongs to the running thread (a
    context variable), so sessions in other threads do not share it.
    """
    outer = _LIMIT.get()
    if outer is not None:
        yield outer
        return
    limit = Limit.starting_now(chars)
    token = _LIMIT.set(limit)
    try:
        yield limit
    finally:
        _LIMIT.reset(token)


def current_limit(chars: int) -> Limit:
    """The running :func:`time_limit`, else a limit of its own for one call on ``chars`` characters."""
    limit = _LIMIT.get()
    return Limit.starting_now(chars) if limit is None else limit
