"""The two primitives of byte-pair encoding: count adjacent pairs, merge one pair.

Everything else in :mod:`bpe_core` is built on these two ideas.  A text is a
sequence of token ids (at first its UTF-8 bytes, ids 0..255).  Training counts
every adjacent pair, gives the most frequent one a new id and merges it
everywhere, then repeats; encoding replays the learned merges in order.

>>> ids = list("aaabdaaabac".encode())
>>> counts = count_pairs(ids)
>>> max(counts, key=counts.get), counts[(97, 97)]
((97, 97), 4)
>>> merge_pair(ids, (97, 97), 256)
[256, 97, 98, 100, 256, 97, 98, 97, 99]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

Pair = tuple[int, int]


def count_pairs(
    ids: Sequence[int], counts: dict[Pair, int] | None = None, weight: int = 1
) -> dict[Pair, int]:
    """How often each adjacent pair occurs in ``ids``, each occurrence counting ``weight``.

    Overlapping occurrences count: ``aaa`` holds ``(a, a)`` twice.  Pass
    ``counts`` to add to a running total (one call per word of a corpus); the
    dict keeps the pairs in the order they were first seen.

    >>> count_pairs([1, 1, 1, 2])
    {(1, 1): 2, (1, 2): 1}
    >>> count_pairs([2, 1], count_pairs([1, 2, 1], weight=10))
    {(1, 2): 10, (2, 1): 11}
    """
    counts = {} if counts is None else counts
    for pair in pairwise(ids):
        counts[pair] = counts.get(pair, 0) + weight
    return counts


def merge_pair(ids: Sequence[int], pair: Pair, new_id: int) -> list[int]:
    """Replace each occurrence of ``pair`` in ``ids`` by ``new_id``, left to right, without overlap.

    >>> merge_pair([1, 1, 1, 2], (1, 1), 9)
    [9, 1, 2]
    >>> merge_pair([1, 2, 3, 1, 2], (1, 2), 9)
    [9, 3, 9]
    """
    a, b = pair
    out: list[int] = []
    i, n = 0, len(ids)
    while i < n:
        if i + 1 < n and ids[i] == a and ids[i + 1] == b:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
