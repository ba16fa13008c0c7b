"""The textbook BPE trainer: count every pair, merge the most frequent, repeat.

This is the algorithm as a lesson states it, short enough to read in one
sitting.  Each step recounts every adjacent pair of the corpus (its distinct
chunks, each weighted by how often it occurs), picks the most frequent pair
(equal counts are decided by the tie rule, see :mod:`.tie_rules`), gives it the
next id and merges it in every chunk.  So a step costs the whole corpus; the
fast trainer (:mod:`.incremental`) yields exactly the same steps, faster.
Blocked pairs are never candidates, and a forced step merges the pair it
names instead of the rule's choice (see :mod:`.overrides`).  (A branch of a
textbook run replays it from step 1; only the fast trainer starts mid-run.)

>>> from bpe_core.pretokenizer import PreTokenizer
>>> options = TrainOptions(vocab_size=259, pattern="none", tie_break="lowest-id")
>>> corpus = Corpus.count("aaabdaaabac", options.pretokenizer())
>>> steps = textbook_steps(corpus, options, Preview("", []))
>>> [(s.token, s.count, s.replaced) for s in steps]
[(b'aa', 4, 2), (b'ab', 2, 2), (b'aaab', 2, 2)]
"""

from __future__ import annotations

from collections.abc import Generator

from ..primitives import Pair, count_pairs, merge_pair
from .corpus import Corpus
from .options import TrainOptions
from .overrides import pair_not_found, stopping
from .preview import Preview
from .records import (
    STOP_MIN_FREQUENCY,
    STOP_ONLY_BLOCKED,
    STOP_VOCAB_SIZE,
    MergeStep,
    PairCount,
    no_pairs_reason,
    ties_kept,
)
from .tie_rules import TieRule


def textbook_steps(
    corpus: Corpus, options: TrainOptions, preview: Preview
) -> Generator[MergeStep, None, str]:
    """Yield one :class:`MergeStep` per merge; the generator's return value says why it stopped."""
    # Each distinct chunk as its UTF-8 bytes, with how often it occurs.
    words = [(list(chunk.encode("utf-8")), n) for chunk, n in corpus.chunk_counts.items()]
    vocab = options.initial_vocab()
    rule = TieRule(options.tie_break, [vocab[i] for i in range(options.base_vocab)])
    blocked = set(options.block)
    tokens = corpus.initial_tokens
    while len(vocab) < options.vocab_size:
        step = len(vocab) - options.base_vocab + 1
        # 1. Count every adjacent pair, each chunk weighted by how often it occurs.
        counts: dict[Pair, int] = {}
        for ids, n in words:
            count_pairs(ids, counts, n)
        # 2. Choose the highest count; among equal counts, the tie rule's smallest key.
        #    (``counts`` lists the pairs in the order first seen: the first-seen rule's key.)
        #    Blocked pairs are not candidates.
        seen = {p: i for i, p in enumerate(counts)}
        candidates = [p for p in counts if p not in blocked]
        if not candidates:
            return stopping(
                options,
                step - 1,
                STOP_ONLY_BLOCKED if counts else no_pairs_reason(corpus.chunk_counts, corpus.special_counts),
            )
        ranked = sorted(candidates, key=lambda p: (-counts[p], rule.key(p[0], p[1], seen[p])))
        rule_pair = ranked[0]
        tied = sum(1 for p in ranked if counts[p] == counts[rule_pair])
        if counts[rule_pair] < options.min_frequency:
            return stopping(options, step - 1, STOP_MIN_FREQUENCY)
        #    A forced step merges the pair it names instead, if that pair occurs.
        forced = options.forced_pair(step)
        pair = forced or rule_pair
        if pair not in counts:
            raise pair_not_found(step, pair, {p: counts[p] for p in candidates}, vocab)
        count = counts[pair]
        # 3. Give it the next id and merge it in every chunk.
        left, right = vocab[pair[0]], vocab[pair[1]]
        new_id = len(vocab)
        vocab[new_id] = left + right
        rule.add_token(left + right)
        replaced = 0
        for n, (ids, weight) in enumerate(words):
            merged = merge_pair(ids, pair, new_id)
            replaced += (len(ids) - len(merged)) * weight
            words[n] = (merged, weight)
        # 4. Say what happened.
        yield MergeStep(
            index=step,
            pair=pair,
            left=left,
            right=right,
            new_id=new_id,
            token=left + right,
            count=count,
            replaced=replaced,
            top_pairs=tuple(
                PairCount(p, vocab[p[0]], vocab[p[1]], counts[p]) for p in ranked[: options.top_k]
            ),
            ties=tuple(ranked[: min(tied, ties_kept(options.top_k))]),  # the tied pairs lead the ranking
            tie_break=options.tie_break,
            tokens_before=tokens,
            tokens_after=tokens - replaced,
            sequence=preview.merge(pair, new_id),
            forced=forced is not None,
            rule_pair=rule_pair,
            distinct_pairs=len(candidates),
            tie_count=tied,
        )
        tokens -= replaced
    return STOP_VOCAB_SIZE
