"""What a training run is asked to do: one frozen record, checked once.

Ids are laid out as 0..255 the raw bytes, then the special tokens, then one
id per merge in order, so ``vocab_size = 256 + len(special_tokens) + merges``.

>>> options = TrainOptions(vocab_size=300, special_tokens=["<|eot|>"])
>>> options.special_tokens, options.base_vocab, options.max_merges
(('<|eot|>',), 257, 43)
>>> TrainOptions(vocab_size=100)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: vocab_size is 100, out of range 256..1000000; ... so ask for at least 256

Two options change the history itself (the "What if?" lesson): ``block``, pairs
never merged, and ``force``, the pair merged at a step instead of the rule's
choice.  Both are kept sorted, so equal runs have equal options.

>>> options = TrainOptions(vocab_size=300, block=[(111, 119)], force={2: (108, 111)})
>>> options.block, options.force, options.forced_pair(2), options.forced_pair(3)
(((111, 119),), ((2, (108, 111)),), (108, 111), None)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ..pretokenizer import PreTokenizer, check_special_tokens, resolve_pattern
from .tie_rules import check_tie_break

MAX_VOCAB_SIZE = 1_000_000


@dataclass(frozen=True, slots=True)
class TrainOptions:
    """The options of a training run (each a ValueError that says how to fix it when wrong).

    - ``vocab_size``: 256 bytes + special tokens + merges; training stops there,
      or earlier when no pair is left or the best count is below
      ``min_frequency``.
    - ``pattern``: pre-tokenization, ``"none"``, ``"whitespace"``, ``"gpt2"``,
      ``"gpt4"`` (``"cl100k"``), ``"o200k"`` or a custom regex (see
      :mod:`bpe_core.pretokenizer.patterns`).
    - ``special_tokens``: strings cut out of the text before pre-tokenization,
      never merged nor counted; ids 256, 257, ... in the order given.
    - ``tie_break``: how equal counts are decided, one of
      :data:`~bpe_core.training.tie_rules.TIE_BREAKS`.
    - ``top_k``: rows of the pair-count table in each step; ``preview_chars``:
      how much of the text the ``sequence`` of each step covers.
    - ``block``: pairs of token ids (as in ``MergeStep.pair``) never merged:
      they are left out of the choice, the pair table and the ties.
    - ``force``: step number (1-based) -> the pair merged at that step instead
      of the rule's choice (a mapping, or its items).  It changes which pair a
      step merges, never whether the step happens; a forced pair that does not
      occur at its step, or a step training does not reach, is a ValueError
      that says which pairs do occur (see :mod:`.overrides`).
    """

    vocab_size: int
    pattern: str = "gpt2"
    special_tokens: tuple[str, ...] = ()
    tie_break: str = "lexicographic"
    min_frequency: int = 1
    top_k: int = 20
    preview_chars: int = 2000
    block: tuple[tuple[int, int], ...] = ()
    force: tuple[tuple[int, tuple[int, int]], ...] = ()

    def __post_init__(self) -> None:
        resolve_pattern(self.pattern)
        specials = tuple(check_special_tokens(self.special_tokens))
        object.__setattr__(self, "special_tokens", specials)
        smallest = 256 + len(specials)
        _check_int(
            "vocab_size",
            self.vocab_size,
            smallest,
            MAX_VOCAB_SIZE,
            f"it counts the 256 bytes + {len(specials)} special token(s) + the merges, "
            f"so ask for at least {smallest}",
        )
        _check_int("min_frequency", self.min_frequency, 1, 2**62, "use 1 to merge any pair that occurs")
        _check_int("top_k", self.top_k, 0, 10_000, "it is the number of rows in the pair table")
        _check_int("preview_chars", self.preview_chars, 0, 10_000_000, "keep the preview short")
        check_tie_break(self.tie_break)
        object.__setattr__(self, "block", _check_block(self.block, self.vocab_size))
        object.__setattr__(self, "force", _check_force(self.force, self.vocab_size, self.max_merges))
        for step, pair in self.force:
            if pair in self.block:
                raise ValueError(
                    f"pair {pair} is both blocked and forced at step {step}; drop one of the two"
                )

    @property
    def base_vocab(self) -> int:
        """The vocab size before any merge: the 256 bytes and the special tokens."""
        return 256 + len(self.special_tokens)

    @property
    def max_merges(self) -> int:
        """How many merges ``vocab_size`` leaves room for."""
        return self.vocab_size - self.base_vocab

    def forced_pair(self, step: int) -> tuple[int, int] | None:
        """The pair ``force`` sets for merge ``step`` (1-based), or None when the rule chooses."""
        for forced_step, pair in self.force:
            if forced_step == step:
                return pair
        return None

    def special_ids(self) -> dict[str, int]:
        """Each special token's id: 256, 257, ... in the order given."""
        return {s: 256 + i for i, s in enumerate(self.special_tokens)}

    def initial_vocab(self) -> dict[int, bytes]:
        """id -> bytes before any merge: the 256 bytes, then the special tokens' UTF-8."""
        vocab = {i: bytes([i]) for i in range(256)}
        for s, i in self.special_ids().items():
            vocab[i] = s.encode("utf-8")
        return vocab

    def pretokenizer(self) -> PreTokenizer:
        return PreTokenizer(self.pattern, special_tokens=self.special_tokens)

    def replace(self, **changes: Any) -> TrainOptions:
        """A copy with some options changed (checked again, so any value may be given).

        >>> TrainOptions(vocab_size=300).replace(vocab_size=400).vocab_size
        400
        """
        return dataclasses.replace(self, **changes)


def _check_int(name: str, value: object, low: int, high: int, hint: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} is {value}, out of range {low}..{high}; {hint}")
    return value


def _check_pair(pair: object, vocab_size: int, what: str) -> tuple[int, int]:
    """A pair of token ids as a tuple, each a whole number below ``vocab_size``."""
    items = tuple(islice(pair, 3)) if isinstance(pair, Iterable) else ()
    if len(items) != 2:
        raise ValueError(f"{what} {pair!r} is not a pair of token ids; write it as (left id, right id)")
    a, b = items
    for i in (a, b):
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < vocab_size:
            raise ValueError(
                f"{what} {pair!r} holds {i!r}, not a token id; ids are whole numbers from 0 to "
                f"{vocab_size - 1} (vocab_size - 1)"
            )
    return (a, b)


def force_items(
    force: Mapping[int, tuple[int, int]] | Iterable[tuple[int, tuple[int, int]]] | None,
) -> tuple[tuple[int, tuple[int, int]], ...]:
    """``force`` as :class:`TrainOptions` holds it: from a mapping or its items (TrainOptions checks them).

    >>> force_items({2: (108, 111)}), force_items(None)
    (((2, (108, 111)),), ())
    """
    if force is None:
        return ()
    return tuple(force.items() if isinstance(force, Mapping) else force)


def _check_block(block: Iterable[object], vocab_size: int) -> tuple[tuple[int, int], ...]:
    if isinstance(block, str | bytes) or not isinstance(block, Iterable):
        raise ValueError(f"block must be a collection of (left id, right id) pairs, not {block!r}")
    return tuple(sorted({_check_pair(p, vocab_size, "blocked pair") for p in block}))


def _check_force(
    force: Mapping[int, object] | Iterable[tuple[int, object]], vocab_size: int, max_merges: int
) -> tuple[tuple[int, tuple[int, int]], ...]:
    if isinstance(force, str | bytes) or not isinstance(force, Mapping | Iterable):
        raise ValueError(f"force must map step numbers to (left id, right id) pairs, not {force!r}")
    items = list(force.items() if isinstance(force, Mapping) else force)
    out: dict[int, tuple[int, int]] = {}
    where: dict[tuple[int, int], int] = {}
    for item in items:
        try:
            step, pair = item
        except (TypeError, ValueError):
            raise ValueError(
                f"force entry {item!r} is not (step, pair); write force={{step: (left, right)}}"
            ) from None
        _check_int(
            "a forced step",
            step,
            1,
            max_merges,
            f"steps are numbered 1..{max_merges}, the merges vocab_size leaves room for",
        )
        if step in out:
            raise ValueError(f"step {step} is forced twice; force one pair per step")
        pair = out[step] = _check_pair(pair, vocab_size, f"the pair forced at step {step}")
        if pair in where:
            raise ValueError(
                f"pair {pair} is forced at steps {where[pair]} and {step}, but a pair is merged once "
                "(its occurrences are gone after); force it at one step"
            )
        where[pair] = step
    return tuple(sorted(out.items()))
