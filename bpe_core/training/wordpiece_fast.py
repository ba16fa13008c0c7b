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


class _Counts:
    """What the fast trainer keeps between steps, and the four phases of a step as methods.

    ``words``: each word's tokens now, ``weights``: how often each word occurs; ``token_counts`` and
    ``pair_counts``; ``where``: pair -> the words that hold it; ``partners``: token -> the pairs it is
    in; ``heap``: ``(-score, pair)`` entries, stale ones among them (checked when they come up).
    """

    def __init__(self, word_counts: dict[str, int], options: WordPieceOptions) -> None:
        """Count every token and pair of the words' first splits (each word weighted by its count)."""
        self.options = options
        self.low = options.min_frequency
        self.words = words = [options.first_split(w) for w in word_counts]
        self.weights = weights = list(word_counts.values())
        self.token_counts = token_counts = Counter[str]()
        self.pair_counts = pair_counts = dict[Pair, int]()
        self.where = where = dict[Pair, set[int]]()
        self.partners = partners = dict[str, set[Pair]]()
        for wi, (split, n) in enumerate(zip(words, weights)):
            for t in split:
                token_counts[t] += n
            for p in pairwise(split):
                pair_counts[p] = pair_counts.get(p, 0) + n
                where.setdefault(p, set()).add(wi)
        for p in pair_counts:
            partners.setdefault(p[0], set()).add(p)
            partners.setdefault(p[1], set()).add(p)
        self.heap = self.fresh_heap()

    def score(self, p: Pair) -> float:
        token_counts = self.token_counts
        return self.pair_counts[p] / (token_counts[p[0]] * token_counts[p[1]])

    def exact(self, p: Pair) -> Fraction:
        return Fraction(self.pair_counts[p], self.token_counts[p[0]] * self.token_counts[p[1]])

    def first_seen(self, p: Pair) -> tuple[int, int]:
        wi = min(self.where[p])
        split = self.words[wi]
        return wi, next(k for k in range(len(split) - 1) if (split[k], split[k + 1]) == p)

    def tie_key(self, p: Pair) -> TieKey:
        return self.first_seen(p) if self.options.tie_break == "first-seen" else p

    def row(self, p: Pair) -> PairScore:
        return PairScore(p[0], p[1], self.pair_counts[p], self.token_counts[p[0]], self.token_counts[p[1]])

    def fresh_heap(self) -> list[tuple[float, Pair]]:
        """A heap entry for every pair that occurs at least ``min_frequency`` times."""
        pair_counts, low, score = self.pair_counts, self.low, self.score
        heap = [(-score(p), p) for p in pair_counts if pair_counts[p] >= low]
        heapq.heapify(heap)
        return heap

    def top_group(self) -> tuple[float | None, dict[Pair, None]]:
        """Phase 1: pop the pairs on top of the heap with the best float score (stale entries dropped).

        Returns that score negated (None when no pair is left that occurs often enough) and the pairs.
        """
        heap, pair_counts, low, score = self.heap, self.pair_counts, self.low, self.score
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
        return top, group

    def choose(self, top: float, group: dict[Pair, None]) -> list[Pair]:
        """Phase 2: the pairs of ``group`` with exactly the best score, by the tie rule (the winner first);
        the others go back on the heap."""
        exact = self.exact
        best_score = max(exact(p) for p in group)
        ties = sorted((p for p in group if exact(p) == best_score), key=self.tie_key)
        for p in group:
            if p != ties[0]:
                heapq.heappush(self.heap, (top, p))
        return ties

    def tables(self) -> dict[str, object]:
        """The step's tables (before its merge): the ``top_k`` pairs by score and by count, and the
        pair BPE would merge (the most frequent)."""
        pair_counts, low, exact = self.pair_counts, self.low, self.exact
        candidates = [p for p in pair_counts if pair_counts[p] >= low]
        if self.options.tie_break == "first-seen":
            seen: dict[Pair, int] = {}
            for split in self.words:
                for p in pairwise(split):
                    seen.setdefault(p, len(seen))
            key: Callable[[Pair], int | TieKey] = seen.__getitem__
        else:
            key = self.tie_key
        k = self.options.top_k
        by_score = heapq.nsmallest(k, candidates, key=lambda p: (-exact(p), key(p)))
        by_count = heapq.nsmallest(max(k, 1), candidates, key=lambda p: (-pair_counts[p], key(p)))
        return {
            "top_by_score": tuple(map(self.row, by_score)),
            "top_by_count": tuple(map(self.row, by_count[:k])),
            "bpe_pair": by_count[0],
        }

    def merge(self, a: str, b: str, new: str) -> tuple[int, set[Pair]]:
        """Phase 3: merge ``a`` + ``b`` into ``new`` in the words that hold the pair, and update the counts.

        Returns how many tokens the merge replaced (each word weighted) and the pairs whose count changed.
        """
        words, weights, token_counts = self.words, self.weights, self.token_counts
        pair_counts, where, partners = self.pair_counts, self.where, self.partners
        replaced = 0
        changed: set[Pair] = set()
        for wi in sorted(where[(a, b)]):
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
        return replaced, changed

    def requeue(self, changed: set[Pair], a: str, b: str, new: str) -> None:
        """Phase 4: a fresh heap entry for every pair whose score may have changed: the pairs whose count
        did, and every pair ``a``, ``b`` or ``new`` is in (their token counts changed)."""
        partners, pair_counts, low, score = self.partners, self.pair_counts, self.low, self.score
        touched = changed | partners.get(a, set()) | partners.get(b, set()) | partners.get(new, set())
        heap = self.heap
        for p in touched:
            if p in pair_counts and pair_counts[p] >= low:
                heapq.heappush(heap, (-score(p), p))
        if len(heap) > 4 * len(pair_counts) + 1000:  # too many stale entries: start afresh
            self.heap = self.fresh_heap()


def fast_wordpiece_steps(
    word_counts: dict[str, int], options: WordPieceOptions, *, records: bool = True
) -> Generator[WordPieceStep, None, str]:
    """The steps of :func:`~.wordpiece_textbook.textbook_wordpiece_steps` (without ``top_*`` and
    ``bpe_pair`` when ``records`` is off).

    Each step: the best pairs by float score (:meth:`_Counts.top_group`), exactly the best of them
    and the tie rule (:meth:`_Counts.choose`), the step's tables if ``records``
    (:meth:`_Counts.tables`), the merge (:meth:`_Counts.merge`), fresh heap entries for the pairs it
    changed (:meth:`_Counts.requeue`).
    """
    vocab = options.initial_vocab(word_counts)
    ids = {t: i for i, t in enumerate(vocab)}
    counts = _Counts(word_counts, options)
    token_counts, pair_counts = counts.token_counts, counts.pair_counts
    tokens = sum(len(s) * n for s, n in zip(counts.words, counts.weights))
    step = 0
    while len(vocab) < options.vocab_size:
        if not pair_counts:
            return STOP_NO_PAIRS
        top, group = counts.top_group()
        if top is None:
            return STOP_MIN_FREQUENCY
        ties = counts.choose(top, group)
        step += 1
        a, b = best = ties[0]
        extra = counts.tables() if records else {}
        count, left_count, right_count = pair_counts[best], token_counts[a], token_counts[b]
        new = options.joined(a, b)
        added = new not in ids
        if added:
            ids[new] = len(vocab)
            vocab.append(new)
        replaced, changed = counts.merge(a, b, new)
        counts.requeue(changed, a, b, new)
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
