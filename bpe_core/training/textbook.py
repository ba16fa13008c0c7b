"""The textbook BPE trainer: count every pair, merge the most frequent, repeat.

This is the algorithm as a lesson states it, short enough to read in one
sitting.  Each step recounts every adjacent pair of the corpus (its distinct
chunks, each weighted by how often it occurs), picks the most frequent pair
(equal counts are decided by the tie rule, see :mod:`.tie_rules`), gives it the
next id and merges it in every chunk.  So a step costs the whole corpus; the
fast trainer (:mod:`.incremental`) yields exactly the same steps, faster.

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
from .preview import Preview
from .records import STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_VOCAB_SIZE, MergeStep, PairCount
from .tie_rules import TieRule


def textbook_steps(
    corpus: Corpus, options: TrainOptions, preview: Preview
) -> Generator[MergeStep, None, str]:
    """Yield one :class:`MergeStep` per merge; the generator's return value says why it stopped."""
    words = [(list(chunk.encode("utf-8")), n) for chunk, n in corpus.chunk_counts.items()]
    vocab = options.initial_vocab()
    rule = TieRule(options.tie_break, list(vocab.values()))
    tokens = corpus.initial_tokens
    while len(vocab) < options.vocab_size:
        # 1. Count every adjacent pair, each chunk weighted by how often it occurs.
        counts: dict[Pair, int] = {}
        for ids, n in words:
            count_pairs(ids, counts, n)
        if not counts:
            return STOP_NO_PAIRS
        # 2. Choose the highest count; among equal counts, the tie rule's smallest key.
        #    (``counts`` lists the pairs in the order first seen: the first-seen rule's key.)
        seen = {p: i for i, p in enumerate(counts)}
        ranked = sorted(counts, key=lambda p: (-counts[p], rule.key(p[0], p[1], seen[p])))
        pair = ranked[0]
        count = counts[pair]
        if count < options.min_frequency:
            return STOP_MIN_FREQUENCY
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
            index=new_id - options.base_vocab + 1,
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
            ties=tuple(p for p in ranked if counts[p] == count),
            tie_break=options.tie_break,
            tokens_before=tokens,
            tokens_after=tokens - replaced,
            sequence=preview.merge(pair, new_id),
        )
        tokens -= replaced
    return STOP_VOCAB_SIZE
