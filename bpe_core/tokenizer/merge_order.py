"""Merge order is part of a tokenizer: the same merges applied in another order cut text differently.

Encoding applies, again and again, the merge of lowest rank among the pairs
present (:meth:`Tokenizer._bpe`), so the ranks (the order) decide which
merges win where two overlap.  The classic example: with ``(a, b) -> ab``
and ``(b, c) -> bc``, ``abc`` is ``ab c`` in training order and ``a bc`` the
other way.  The vocabulary is the same, so every order decodes to the same
text; a model only ever saw the training order's cut.

>>> tok = abc_tokenizer()
>>> [tok.vocab[i] for i in tok.encode("abc")]
[b'ab', b'c']
>>> other = reordered(tok, reversed_order(len(tok.merges)))
>>> [other.vocab[i] for i in other.encode("abc")]
[b'a', b'bc']
>>> other.decode(other.encode("abc")) == tok.decode(tok.encode("abc")) == "abc"
True

An order is a permutation of the merges' positions, 0-based: ``order[r]`` is
the position (in the training order) of the merge given rank ``r``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .bpe import Tokenizer


def check_order(order: Sequence[int], n: int) -> list[int]:
    """``order`` as a list, if it is a permutation of ``0..n-1``; else a ValueError saying what is wrong.

    >>> check_order([1, 0, 0], 3)
    Traceback (most recent call last):
    ...
    ValueError: the order lists merge position 0 twice and lacks 2; an order lists each of 0..2 once
    """
    order = list(order)
    if any(isinstance(i, bool) or not isinstance(i, int) for i in order):
        raise ValueError(
            f"an order is a list of merge positions (whole numbers 0..{n - 1}), not {order[:5]!r}"
        )
    if len(order) != n:
        raise ValueError(f"the order lists {len(order)} merges but the tokenizer has {n}; list each once")
    counts = Counter(order)
    outside = sorted(i for i in counts if not 0 <= i < n)
    if outside:
        raise ValueError(f"the order lists {outside[0]}, which is not a merge position (0..{n - 1})")
    twice = sorted(i for i, c in counts.items() if c > 1)
    if twice:  # as long as n and inside 0..n-1: then some position is missing
        missing = min(set(range(n)) - set(counts))
        raise ValueError(
            f"the order lists merge position {twice[0]} twice and lacks {missing}; "
            f"an order lists each of 0..{n - 1} once"
        )
    return order


def reordered(tokenizer: Tokenizer, order: Sequence[int]) -> Tokenizer:
    """``tokenizer`` with its merges applied in ``order``: same vocabulary, ids and special tokens."""
    order = check_order(order, len(tokenizer.merges))
    return Tokenizer(
        tokenizer.vocab,
        [tokenizer.merges[i] for i in order],
        special_tokens=tokenizer.special_tokens,
        pattern=tokenizer.pattern,
    )


def reversed_order(n: int) -> list[int]:
    """The last merge first.

    >>> reversed_order(3)
    [2, 1, 0]
    """
    return list(range(n - 1, -1, -1))


def shuffled_order(n: int, *, seed: int) -> list[int]:
    """A random order, the same for the same ``seed`` (``random.Random(seed)``).

    >>> shuffled_order(5, seed=1) == shuffled_order(5, seed=1) != list(range(5))
    True
    """
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return order


def swapped_order(n: int, i: int, j: int) -> list[int]:
    """The training order with the merges at positions ``i`` and ``j`` (0-based) swapped.

    >>> swapped_order(4, 0, 2)
    [2, 1, 0, 3]
    """
    for k in (i, j):
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < n:
            raise ValueError(f"merge position {k!r} is not one of 0..{n - 1} (the tokenizer has {n} merges)")
    order = list(range(n))
    order[i], order[j] = order[j], order[i]
    return order


def abc_tokenizer() -> Tokenizer:
    """The lesson's tokenizer: the 256 bytes and two merges, ``(a, b) -> ab`` then ``(b, c) -> bc``."""
    a, b, c = b"abc"
    vocab = {i: bytes([i]) for i in range(256)} | {256: b"ab", 257: b"bc"}
    return Tokenizer(vocab, [(a, b), (b, c)], pattern="none")
