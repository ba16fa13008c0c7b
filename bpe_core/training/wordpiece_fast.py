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
SHIFT = 32  # a pair of token ids is one int: left << SHIFT | right (ints hash faster than tuples of str)
RIGHT = (1 << SHIFT) - 1


class _Counts:
    """What the fast trainer keeps between steps, and the four phases of a step as methods.

    Tokens are ids (``names[id]`` is the token) and a pair is one int, ``left << SHIFT | right``.
    ``words``: each word's token ids now, ``weights``: how often each word occurs; ``token_counts`` (by
    id) and ``pair_counts``; ``where``: pair -> the words that hold it; ``partners``: token -> the pairs
    it is in; ``heap``: ``(-score, pair)`` entries, stale ones among them (checked when they come up).
    """

    def __init__(self, word_counts: dict[str, int], options: WordPieceOptions) -> None:
        """Count every token and pair of the words' first splits (each word weighted by its count)."""
        self.options = options
        self.low = options.min_frequency
        self.names: list[str] = []
        self.ids: dict[str, int] = {}
        self.token_counts: list[int] = []
        self.partners: list[set[int]] = []
        self.words = words = [[self.id(t) for t in options.first_split(w)] for w in word_counts]
        self.weights = weights = list(word_counts.values())
        token_counts = self.token_counts
        self.pair_counts = pair_counts = dict[int, int]()
        self.where = where = dict[int, set[int]]()
        for wi, (split, n) in enumerate(zip(words, weights)):
            for t in split:
                token_counts[t] += n
            for x, y in pairwise(split):
                p = x << SHIFT | y
                pair_counts[p] = pair_counts.get(p, 0) + n
                where.setdefault(p, set()).add(wi)
        partners = self.partners
        for p in pair_counts:
            partners[p >> SHIFT].add(p)
            partners[p & RIGHT].add(p)
        self.heap = self.fresh_heap()

    def id(self, token: str) -> int:
        """The token's id, a new one the first time it is seen."""
        found = self.ids.get(token)
        if found is None:
            found = self.ids[token] = len(self.names)
            self.names.append(token)
            self.token_counts.append(0)
            self.partners.append(set())
        return found

    def pair(self, p: int) -> Pair:
        return self.names[p >> SHIFT], self.names[p & RIGHT]

    def score(self, p: int) -> float:
        token_counts = self.token_counts
        return self.pair_counts[p] / (token_counts[p >> SHIFT] * token_counts[p & RIGHT])

    def exact(self, p: int) -> Fraction:
        return Fraction(self.pair_counts[p], self.token_counts[p >> SHIFT] * self.token_counts[p & RIGHT])

    def first_seen(self, p: int) -> tuple[int, int]:
        wi = min(self.where[p])
        split = self.words[wi]
        a, b = p >> SHIFT, p & RIGHT
        return wi, next(k for k in range(len(split) - 1) if split[k] == a and split[k + 1] == b)

    def tie_key(self, p: int) -> TieKey:
        return self.first_seen(p) if self.options.tie_break == "first-seen" else self.pair(p)

    def row(self, p: int) -> PairScore:
        a, b = p >> SHIFT, p & RIGHT
        counts = self.token_counts
        return PairScore(self.names[a], self.names[b], self.pair_counts[p], counts[a], counts[b])

    def fresh_heap(self) -> list[tuple[float, int]]:
        """A heap entry for every pair that occurs at least ``min_frequency`` times."""
        pair_counts, low, counts = self.pair_counts, self.low, self.token_counts
        heap = [
            (-c / (counts[p >> SHIFT] * counts[p & RIGHT]), p) for p, c in pair_counts.items() if c >= low
        ]
        heapq.heapify(heap)
        return heap

    def top_group(self) -> tuple[float | None, dict[int, None]]:
        """Phase 1: pop the pairs on top of the heap with the best float score.

        An entry whose score is stale is dropped if the pair's score rose (a fresher entry or a token's
        bound covers it) and pushed again with its score if it fell; a token's bound (:meth:`requeue`)
        that comes up is replaced by an entry for each of its pairs.  Returns the best score negated
        (None when no pair is left that occurs often enough) and the pairs with it.
        """
        heap, pair_counts, low, counts = self.heap, self.pair_counts, self.low, self.token_counts
        pop, push = heapq.heappop, heapq.heappush
        group: dict[int, None] = {}
        top = None
        while heap:
            neg, p = heap[0]
            if top is not None and neg != top:
                break
            if p < 0:  # a token's bound: its pairs, scored now
                pop(heap)
                for q in self.partners[-1 - p]:
                    c = pair_counts[q]
                    if c >= low:
                        push(heap, (-c / (counts[q >> SHIFT] * counts[q & RIGHT]), q))
                continue
            pop(heap)
            c = pair_counts.get(p, 0)
            if c < low:
                continue
            score = c / (counts[p >> SHIFT] * counts[p & RIGHT])
            if -neg != score:
                if score < -neg:
                    push(heap, (-score, p))
                continue
            top = neg
            group[p] = None
        return top, group

    def choose(self, top: float, group: dict[int, None]) -> list[int]:
        """Phase 2: the pairs of ``group`` with exactly the best score, by the tie rule (the winner first);
        the others go back on the heap."""
        if len(group) == 1:
            return list(group)
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
            seen: dict[int, int] = {}
            for split in self.words:
                for x, y in pairwise(split):
                    seen.setdefault(x << SHIFT | y, len(seen))
            key: Callable[[int], int | TieKey] = seen.__getitem__
        else:
            key = self.tie_key
        k = self.options.top_k
        by_score = heapq.nsmallest(k, candidates, key=lambda p: (-exact(p), key(p)))
        by_count = heapq.nsmallest(max(k, 1), candidates, key=lambda p: (-pair_counts[p], key(p)))
        return {
            "top_by_score": tuple(map(self.row, by_score)),
            "top_by_count": tuple(map(self.row, by_count[:k])),
            "bpe_pair": self.pair(by_count[0]),
        }

    def merge(self, a: int, b: int, new: int) -> tuple[int, set[int]]:
        """Phase 3: merge ``a`` + ``b`` into ``new`` in the words that hold the pair, and update the counts.

        Returns how many tokens the merge replaced (each word weighted) and the pairs whose count changed.
        """
        words, weights, token_counts = self.words, self.weights, self.token_counts
        pair_counts, where, partners = self.pair_counts, self.where, self.partners
        replaced = 0
        changed: set[int] = set()
        for wi in sorted(where[a << SHIFT | b]):
            old, n = words[wi], weights[wi]
            merged: list[int] = []
            k = 0
            size = len(old)
            while k < size:
                if k + 1 < size and old[k] == a and old[k + 1] == b:
                    merged.append(new)
                    k += 2
                else:
                    merged.append(old[k])
                    k += 1
            r = size - len(merged)
            replaced += r * n
            token_counts[a] -= r * n
            token_counts[b] -= r * n
            token_counts[new] += r * n
            old_pairs = [x << SHIFT | y for x, y in pairwise(old)]
            new_pairs = [x << SHIFT | y for x, y in pairwise(merged)]
            for p in old_pairs:
                pair_counts[p] -= n
            for p in new_pairs:
                pair_counts[p] = pair_counts.get(p, 0) + n
            kept = set(new_pairs)
            for p in old_pairs:
                if p not in kept:
                    where[p].discard(wi)
            for p in kept:
                where.setdefault(p, set()).add(wi)
            changed.update(old_pairs)
            changed |= kept
            words[wi] = merged
        for p in changed:
            if pair_counts[p] == 0:
                del pair_counts[p], where[p]
                partners[p >> SHIFT].discard(p)
                partners[p & RIGHT].discard(p)
            else:
                partners[p >> SHIFT].add(p)
                partners[p & RIGHT].add(p)
        return replaced, changed

    def requeue(self, changed: set[int], a: int, b: int) -> None:
        """Phase 4: a fresh heap entry for each pair whose count changed, and a bound for ``a`` and ``b``.

        The merge lowered the counts of ``a`` and ``b``, so every pair they are in scores higher now.
        Rather than an entry for each (``##e`` is in hundreds), one entry per token holds their bound:
        a pair's count is at most each of its tokens' counts, so no pair of ``t`` scores above
        ``1 / count(t)`` (float division is monotonic: nor does its float).  When that bound comes up
        on the heap, the token's pairs are scored (:meth:`top_group`); a frequent token's bound is low
        and rarely does.  The new token's pairs score lower than their entries say: they are corrected
        when they come up.
        """
        pair_counts, low, counts = self.pair_counts, self.low, self.token_counts
        heap = self.heap
        push = heapq.heappush
        for p in changed:
            c = pair_counts.get(p, 0)
            if c >= low:
                push(heap, (-c / (counts[p >> SHIFT] * counts[p & RIGHT]), p))
        for t in (a, b):
            if counts[t] and self.partners[t]:
                push(heap, (-1 / counts[t], -1 - t))
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
        best = ties[0]
        a, b = best >> SHIFT, best & RIGHT
        left, right = counts.names[a], counts.names[b]
        extra = counts.tables() if records else {}
        count, left_count, right_count = pair_counts[best], token_counts[a], token_counts[b]
        token = options.joined(left, right)
        new = counts.id(token)
        added = token not in ids
        if added:
            ids[token] = len(vocab)
            vocab.append(token)
        replaced, changed = counts.merge(a, b, new)
        counts.requeue(changed, a, b)
        yield WordPieceStep(
            index=step,
            left=left,
            right=right,
            token=token,
            new_id=ids[token],
            added=added,
            count=count,
            left_count=left_count,
            right_count=right_count,
            replaced=replaced,
            tokens_before=tokens,
            tokens_after=tokens - replaced,
            ties=tuple(map(counts.pair, ties)),
            tie_break=options.tie_break,
            **extra,  # type: ignore[arg-type]
        )
        tokens -= replaced
    return STOP_VOCAB_SIZE
