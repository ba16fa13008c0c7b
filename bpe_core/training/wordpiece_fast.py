"""The fast WordPiece trainer: it yields exactly the steps of :mod:`.wordpiece_textbook`, without
recounting the corpus at each step.

It keeps the token and pair counts, which words hold each pair, and which pairs each token is in.
A merge of ``a`` + ``b`` touches only the words that hold the pair; but it changes the counts of
``a``, ``b`` and the new token, so the score of every pair they are in changes too.  The best pair
comes from a heap of ``(-score, pair)`` whose entries are checked when they come up (a stale one,
whose score has changed since, is dropped: each change pushed a fresh entry).  Float scores never
order two pairs the wrong way round (division is correctly rounded, so monotonic), but two
different scores can round to one float: all the pairs on top with the same float are taken, then
compared exactly as fractions, then by the tie rule, as the textbook trainer does.  A hypothesis
test compares the two on random corpora.

>>> from .wordpiece_records import WordPieceOptions
>>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
>>> options = WordPieceOptions(vocab_size=11, special_tokens=("[UNK]",))
>>> [s.token for s in fast_wordpiece_steps(counts, options)]
['##gs', 'hu', 'hugs']
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Generator
from fractions import Fraction
from itertools import pairwise

from .wordpiece_records import (
    STOP_MIN_FREQUENCY,
    STOP_NO_PAIRS,
    STOP_VOCAB_SIZE,
    PairScore,
    WordPieceOptions,
    WordPieceStep,
)

Pair = tuple[str, str]
TieKey = tuple[int, int] | Pair  # where the pair is first seen (word, place), or the pair itself


def fast_wordpiece_steps(
    word_counts: dict[str, int], options: WordPieceOptions, *, records: bool = True
) -> Generator[WordPieceStep, None, str]:
    """The steps of :func:`~.wordpiece_textbook.textbook_wordpiece_steps` (without ``top_*`` and
    ``bpe_pair`` when ``records`` is off)."""
    vocab = options.initial_vocab(word_counts)
    ids = {t: i for i, t in enumerate(vocab)}
    words = [options.first_split(w) for w in word_counts]
    weights = list(word_counts.values())
    token_counts: Counter[str] = Counter()
    pair_counts: dict[Pair, int] = {}
    where: dict[Pair, set[int]] = {}  # pair -> the words that hold it
    partners: dict[str, set[Pair]] = {}  # token -> the pairs it is in
    for wi, (split, n) in enumerate(zip(words, weights)):
        for t in split:
            token_counts[t] += n
        for p in pairwise(split):
            pair_counts[p] = pair_counts.get(p, 0) + n
            where.setdefault(p, set()).add(wi)
    for p in pair_counts:
        partners.setdefault(p[0], set()).add(p)
        partners.setdefault(p[1], set()).add(p)

    def score(p: Pair) -> float:
        return pair_counts[p] / (token_counts[p[0]] * token_counts[p[1]])

    def exact(p: Pair) -> Fraction:
        return Fraction(pair_counts[p], token_counts[p[0]] * token_counts[p[1]])

    def first_seen(p: Pair) -> tuple[int, int]:
        wi = min(where[p])
        split = words[wi]
        return wi, next(k for k in range(len(split) - 1) if (split[k], split[k + 1]) == p)

    def tie_key(p: Pair) -> TieKey:
        return first_seen(p) if options.tie_break == "first-seen" else p

    def row(p: Pair) -> PairScore:
        return PairScore(p[0], p[1], pair_counts[p], token_counts[p[0]], token_counts[p[1]])

    low = options.min_frequency
    heap = [(-score(p), p) for p in pair_counts if pair_counts[p] >= low]
    heapq.heapify(heap)
    tokens = sum(len(s) * n for s, n in zip(words, weights))
    step = 0
    while len(vocab) < options.vocab_size:
        if not pair_counts:
            return STOP_NO_PAIRS
        # 1. The pairs on top of the heap with the best float score (stale entries dropped).
        group: dict[Pair, None] = {}
        top = None
        while heap:
            neg, p = heap[0]
            if p not in pair_counts or pair_counts[p] < low or -neg != score(p):
                heapq.heappop(heap)
                continue
            if top is None:
                top = neg
            elif neg != top:
                break
            heapq.heappop(heap)
            group[p] = None
        if top is None:
            return STOP_MIN_FREQUENCY
        # 2. Exactly the best of them, then the tie rule.
        best_score = max(exact(p) for p in group)
        ties = sorted((p for p in group if exact(p) == best_score), key=tie_key)
        best = ties[0]
        for p in group:
            if p != best:
                heapq.heappush(heap, (top, p))
        step += 1
        a, b = best
        extra: dict[str, object] = {}
        if records:
            candidates = [p for p in pair_counts if pair_counts[p] >= low]
            if options.tie_break == "first-seen":
                seen: dict[Pair, int] = {}
                for split in words:
                    for p in pairwise(split):
                        seen.setdefault(p, len(seen))
                key: Callable[[Pair], int | TieKey] = seen.__getitem__
            else:
                key = tie_key
            k = options.top_k
            by_score = heapq.nsmallest(k, candidates, key=lambda p: (-exact(p), key(p)))
            by_count = heapq.nsmallest(max(k, 1), candidates, key=lambda p: (-pair_counts[p], key(p)))
            extra = {
                "top_by_score": tuple(map(row, by_score)),
                "top_by_count": tuple(map(row, by_count[:k])),
                "bpe_pair": by_count[0],
            }
        count, left_count, right_count = pair_counts[best], token_counts[a], token_counts[b]
        # 3. Merge it in the words that hold it, and update the counts.
        new = options.joined(a, b)
        added = new not in ids
        if added:
            ids[new] = len(vocab)
            vocab.append(new)
        replaced = 0
        changed: set[Pair] = set()
        for wi in sorted(where[best]):
            old, n = words[wi], weights[wi]
            merged: list[str] = []
            k = 0
            while k < len(old):
                if k + 1 < len(old) and old[k] == a and old[k + 1] == b:
                    merged.append(new)
                    k += 2
                else:
                    merged.append(old[k])
                    k += 1
            r = len(old) - len(merged)
            replaced += r * n
            token_counts[a] -= r * n
            token_counts[b] -= r * n
            token_counts[new] += r * n
            old_pairs, new_pairs = Counter(pairwise(old)), Counter(pairwise(merged))
            for p, c in old_pairs.items():
                pair_counts[p] -= c * n
                changed.add(p)
                if p not in new_pairs:
                    where[p].discard(wi)
            for p, c in new_pairs.items():
                pair_counts[p] = pair_counts.get(p, 0) + c * n
                changed.add(p)
                where.setdefault(p, set()).add(wi)
            words[wi] = merged
        for p in changed:
            if pair_counts[p] == 0:
                del pair_counts[p], where[p]
                partners[p[0]].discard(p)
                partners[p[1]].discard(p)
            else:
                partners.setdefault(p[0], set()).add(p)
                partners.setdefault(p[1], set()).add(p)
        for t in (a, b):
            if token_counts[t] == 0:
                del token_counts[t]
        # 4. Fresh heap entries for every pair whose score may have changed.
        touched = changed | partners.get(a, set()) | partners.get(b, set()) | partners.get(new, set())
        for p in touched:
            if p in pair_counts and pair_counts[p] >= low:
                heapq.heappush(heap, (-score(p), p))
        if len(heap) > 4 * len(pair_counts) + 1000:  # too many stale entries: start afresh
            heap = [(-score(p), p) for p in pair_counts if pair_counts[p] >= low]
            heapq.heapify(heap)
        yield WordPieceStep(
            index=step,
            left=a,
            right=b,
            token=new,
            new_id=ids[new],
            added=added,
            count=count,
            left_count=left_count,
            right_count=right_count,
            replaced=replaced,
            tokens_before=tokens,
            tokens_after=tokens - replaced,
            ties=tuple(ties),
            tie_break=options.tie_break,
            **extra,  # type: ignore[arg-type]
        )
        tokens -= replaced
    return STOP_VOCAB_SIZE
