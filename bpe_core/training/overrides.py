"""Block and force: the two ways a run departs from the rule, and what is said when one cannot happen.

Both trainers decide a step the same way: the rule chooses among the pairs
that are not blocked; then, if ``TrainOptions.force`` names a pair for this
step, that pair is merged instead.  A force changes which pair a step merges,
never whether the step happens, so a forced step after training stopped is an
error, and so is a forced pair that does not occur at its step.  The messages
list the pairs that do occur, most frequent first, so the fix is in sight.

>>> vocab = {i: bytes([i]) for i in range(256)}
>>> counts = {(108, 111): 7, (111, 119): 7, (32, 108): 6}
>>> print(pair_not_found(2, (97, 98), counts, vocab))  # doctest: +NORMALIZE_WHITESPACE
the pair forced at step 2, (97, 98) = b'a' + b'b', does not occur at step 2; the 3 pairs that occur
there, most frequent first: (108, 111) = b'l' + b'o' ×7, (111, 119) = b'o' + b'w' ×7,
(32, 108) = b' ' + b'l' ×6
"""

from __future__ import annotations

from collections.abc import Mapping

from ..primitives import Pair
from .options import TrainOptions

SHOWN = 8  # pairs listed in a message; the rest are counted


def describe(pair: Pair, vocab: Mapping[int, bytes]) -> str:
    """``(a, b) = b'x' + b'y'``: a pair by its ids and its tokens' bytes."""
    return f"{pair} = {vocab[pair[0]]!r} + {vocab[pair[1]]!r}"


def occurring(counts: Mapping[Pair, int], vocab: Mapping[int, bytes]) -> str:
    """The pairs of ``counts`` that occur, most frequent first (then by ids), the first :data:`SHOWN`."""
    ranked = sorted(((p, c) for p, c in counts.items() if c > 0), key=lambda pc: (-pc[1], pc[0]))
    if not ranked:
        return "no pair occurs there"
    shown = ", ".join(f"{describe(p, vocab)} ×{c}" for p, c in ranked[:SHOWN])
    more = f" and {len(ranked) - SHOWN} more" if len(ranked) > SHOWN else ""
    return f"the {len(ranked)} pairs that occur there, most frequent first: {shown}{more}"


def pair_not_found(
    step: int, pair: Pair, counts: Mapping[Pair, int], vocab: Mapping[int, bytes]
) -> ValueError:
    """The error for a forced pair that does not occur at its step (``counts``: the unblocked pairs)."""
    a, b = pair
    if a not in vocab or b not in vocab:
        what = f"{pair}, an id not made yet (the vocabulary holds ids 0..{len(vocab) - 1} at that step)"
    else:
        what = describe(pair, vocab)
    return ValueError(
        f"the pair forced at step {step}, {what}, does not occur at step {step}; {occurring(counts, vocab)}"
    )


def stopping(options: TrainOptions, steps: int, reason: str) -> str:
    """``reason``, the trainer's return value when it stops after ``steps`` merges; a ValueError
    instead if a forced step lies beyond."""
    late = [step for step, _ in options.force if step > steps]
    if not late:
        return reason
    fix = f"force a step from 1 to {steps}" if steps else "no step can be forced"
    raise ValueError(f"step {late[0]} is forced, but training stops after {steps} merge(s) ({reason}); {fix}")
