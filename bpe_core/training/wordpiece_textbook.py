"""The textbook WordPiece trainer: score every pair, merge the best, repeat.

WordPiece learns merges as BPE does, but it does not merge the most *frequent* pair: it merges the
pair with the highest score ``count(ab) / (count(a) * count(b))``, how often two tokens stand side
by side over how often each occurs at all.  Two tokens that are common everywhere (``un`` and
``##able``) score low; two rare ones that nearly always come together score high.  Each word starts
as its first character and its other characters with ``##``: ``hugs`` is ``h ##u ##g ##s``.

This is the HF course's algorithm (chapter 6, "WordPiece tokenization"), on its corpus:

>>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
>>> steps = textbook_wordpiece_steps(counts, WordPieceOptions(vocab_size=11, special_tokens=("[UNK]",)))
>>> [(s.token, str(s.left_count * s.right_count // s.count)) for s in steps]  # score 1/20, 1/36, 1/15
[('##gs', '20'), ('hu', '36'), ('hugs', '15')]

HF `tokenizers`' ``WordPieceTrainer`` does *not* do this: it trains BPE (the most frequent pair)
with ``##`` marks, and only its encoding is WordPiece's.  On this corpus its first merge is ``##u``
+ ``##g`` (20 times), where WordPiece's is ``##g`` + ``##s`` (5 times, but ``##s`` never occurs
without ``##g``); a test shows both.

Each step recounts every token and pair of the corpus (its distinct words, each weighted by how
often it occurs), so a step costs the whole corpus; :mod:`.wordpiece_fast` yields the same steps,
faster.  Scores are compared exactly (as fractions); equal scores are decided by the tie rule (see
:mod:`.wordpiece_records`).
"""

from __future__ import annotations

from collections.abc import Generator
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


def textbook_wordpiece_steps(
    word_counts: dict[str, int], options: WordPieceOptions
) -> Generator[WordPieceStep, None, str]:
    """Yield one :class:`WordPieceStep` per merge; the generator's return value says why it stopped.

    ``word_counts``: each distinct word with how often it occurs, in first-occurrence order.
    """
    vocab = options.initial_vocab(word_counts)
    ids = {t: i for i, t in enumerate(vocab)}
    words = [(options.first_split(w), n) for w, n in word_counts.items()]
    tokens = sum(len(split) * n for split, n in words)
    step = 0
    while len(vocab) < options.vocab_size:
        step += 1
        # 1. Count every token and every adjacent pair, each word weighted by how often it occurs.
        token_counts: dict[str, int] = {}
        pair_counts: dict[Pair, int] = {}  # in the order first seen
        for split, n in words:
            for t in split:
                token_counts[t] = token_counts.get(t, 0) + n
            for pair in pairwise(split):
                pair_counts[pair] = pair_counts.get(pair, 0) + n
        if not pair_counts:
            return STOP_NO_PAIRS
        candidates = [p for p, c in pair_counts.items() if c >= options.min_frequency]
        if not candidates:
            return STOP_MIN_FREQUENCY
        # 2. Score each pair; the highest score wins, equal scores go to the tie rule.
        score = {p: Fraction(pair_counts[p], token_counts[p[0]] * token_counts[p[1]]) for p in candidates}
        seen = {p: k for k, p in enumerate(pair_counts)}
        tie = {p: seen[p] if options.tie_break == "first-seen" else p for p in candidates}
        by_score = [p for *_, p in sorted((-score[p], tie[p], p) for p in candidates)]
        by_count = [p for *_, p in sorted((-pair_counts[p], tie[p], p) for p in candidates)]
        left, right = best = by_score[0]
        # 3. Merge it in every word, left to right.
        new = options.joined(left, right)
        added = new not in ids
        if added:
            ids[new] = len(vocab)
            vocab.append(new)
        replaced = 0
        for split, n in words:
            k = 0
            while k < len(split) - 1:
                if split[k] == left and split[k + 1] == right:
                    split[k : k + 2] = [new]
                    replaced += n
                k += 1
        # 4. Say what happened.
        top = options.top_k
        yield WordPieceStep(
            index=step,
            left=left,
            right=right,
            token=new,
            new_id=ids[new],
            added=added,
            count=pair_counts[best],
            left_count=token_counts[left],
            right_count=token_counts[right],
            replaced=replaced,
            tokens_before=tokens,
            tokens_after=tokens - replaced,
            ties=tuple(p for p in by_score if score[p] == score[best]),
            tie_break=options.tie_break,
            top_by_score=tuple(_row(p, pair_counts, token_counts) for p in by_score[:top]),
            top_by_count=tuple(_row(p, pair_counts, token_counts) for p in by_count[:top]),
            bpe_pair=by_count[0],
        )
        tokens -= replaced
    return STOP_VOCAB_SIZE


def _row(p: Pair, pair_counts: dict[Pair, int], token_counts: dict[str, int]) -> PairScore:
    return PairScore(p[0], p[1], pair_counts[p], token_counts[p[0]], token_counts[p[1]])
