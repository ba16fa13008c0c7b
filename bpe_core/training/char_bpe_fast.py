"""The fast code-point BPE trainer: the steps of :func:`~.char_bpe.textbook_char_bpe_steps`, with pair
counts kept up to date instead of recounted.

The pairs' counts are counted once; each pair knows the segments it occurs in, and a heap holds the pairs
by (-count, left id, right id).  A merge re-counts only the segments that held the pair (their pairs'
counts are taken off, the segment merged, its pairs added back), and pushes the pairs whose count rose.
A popped heap entry whose count is no longer its pair's is pushed again with the right one (HF's lazy
queue), so the pair popped is the textbook's choice.  ``ties`` comes from how many pairs have each count.

>>> from bpe_core.training.char_bpe_records import CharBpeOptions
>>> steps = fast_char_bpe_steps({"▁low": 3, "▁lower": 1}, CharBpeOptions(vocab_size=265))
>>> [(s.token, s.count, s.ties) for s in steps]
[('lo', 4, 3), ('▁lo', 4, 2)]
"""

from __future__ import annotations

import heapq
from collections.abc import Generator, Mapping
from itertools import pairwise

from .char_bpe_records import BYTE_PIECES, CharBpeOptions, CharBpeStep, Pair, start
from .records import STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_VOCAB_SIZE


def fast_char_bpe_steps(
    word_counts: Mapping[str, int], options: CharBpeOptions
) -> Generator[CharBpeStep, None, str]:
    """One :class:`~.char_bpe.CharBpeStep` per merge, as the textbook trainer's; returns why it stopped."""
    s = start(word_counts, options)
    ids = {t: 1 + len(BYTE_PIECES) + k for k, t in enumerate(s.alphabet)}
    size = len(ids) + 1 + len(BYTE_PIECES)
    segs = [list(seg) for seg in s.segments]
    weight = list(s.segments.values())
    counts: dict[Pair, int] = {}
    where: dict[Pair, set[int]] = {}
    histogram: dict[int, int] = {}  # count -> how many pairs have it (pairs of count 0 left out)

    def add(pair: Pair, delta: int) -> None:
        old = counts.get(pair, 0)
        new = old + delta
        if old:
            histogram[old] -= 1
        if new:
            histogram[new] = histogram.get(new, 0) + 1
            counts[pair] = new
        else:
            del counts[pair]

    for k, seg in enumerate(segs):
        for pair in pairwise(seg):
            if options.allows(*pair):
                add(pair, weight[k])
                where.setdefault(pair, set()).add(k)
    heap = [(-c, ids[a], ids[b], (a, b)) for (a, b), c in counts.items()]
    heapq.heapify(heap)
    step = 0
    while size < options.vocab_size:
        best: Pair | None = None
        while heap:
            neg, _, _, pair = heap[0]
            true = counts.get(pair, 0)
            if -neg == true:
                best = pair
                break
            heapq.heappop(heap)
            if true:
                heapq.heappush(heap, (-true, ids[pair[0]], ids[pair[1]], pair))
        if best is None:
            return STOP_NO_PAIRS
        count = counts[best]
        if count < options.min_frequency:
            return STOP_MIN_FREQUENCY
        heapq.heappop(heap)
        ties = histogram[count]
        left, right = best
        token = left + right
        added = token not in ids
        if added:
            ids[token] = size
            size += 1
        replaced = 0
        risen: set[Pair] = set()
        for k in sorted(where.pop(best, ())):
            seg, n = segs[k], weight[k]
            before = _segment_pairs(seg, options)
            j = 0
            while j < len(seg) - 1:
                if seg[j] == left and seg[j + 1] == right:
                    seg[j : j + 2] = [token]
                    replaced += n
                j += 1
            after = _segment_pairs(seg, options)
            for pair in before.keys() | after.keys():
                delta = (after.get(pair, 0) - before.get(pair, 0)) * n
                if delta:
                    add(pair, delta)
                    if delta > 0:
                        risen.add(pair)
                if pair in after:
                    where.setdefault(pair, set()).add(k)
                elif pair != best and pair in where:
                    where[pair].discard(k)
        for pair in risen:
            if pair in counts:
                heapq.heappush(heap, (-counts[pair], ids[pair[0]], ids[pair[1]], pair))
        step += 1
        yield CharBpeStep(
            index=step,
            left=left,
            right=right,
            token=token,
            new_id=ids[token],
            added=added,
            count=count,
            replaced=replaced,
            ties=ties,
            to_bytes=s.to_bytes,
        )
    return STOP_VOCAB_SIZE


def _segment_pairs(seg: list[str], options: CharBpeOptions) -> dict[Pair, int]:
    """The pairs of one segment that may join, with how often each occurs in it."""
    out: dict[Pair, int] = {}
    for pair in pairwise(seg):
        if options.allows(*pair):
            out[pair] = out.get(pair, 0) + 1
    return out
