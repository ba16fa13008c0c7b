"""The classic example corpora of corpora/ give the numbers their descriptions promise."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import bpe_core

CORPORA = Path(__file__).resolve().parents[3] / "corpora"


def test_hug_pug_pun_bpe_and_wordpiece_choose_differently_at_the_first_step():
    """The Hugging Face course's example: BPE merges the most frequent pair, ``u g`` (20 times);
    WordPiece divides by how often each half occurs, so the rarer ``##g ##s`` wins (5 / (20 × 5))."""
    text = (CORPORA / "hug_pug_pun.txt").read_text(encoding="utf-8")
    assert Counter(text.split()) == {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    bpe = next(iter(bpe_core.train_steps(text, vocab_size=270)))
    assert (bpe.left, bpe.right, bpe.count) == (b"u", b"g", 20)
    assert [(p.left, p.right, p.count) for p in bpe.top_pairs[:3]] == [
        (b"u", b"g", 20),
        (b"p", b"u", 17),
        (b"u", b"n", 16),
    ]
    wp = next(iter(bpe_core.wordpiece_steps(text, vocab_size=40)))
    assert (wp.left, wp.right, wp.token) == ("##g", "##s", "##gs")
    assert (wp.count, wp.left_count, wp.right_count) == (5, 20, 5)
    assert wp.bpe_pair == ("##u", "##g")  # the pair BPE would have merged: 20 / (36 × 20) scores less
    best, bpe_choice = wp.top_by_score[0], wp.top_by_count[0]
    assert best.count / (best.left_count * best.right_count) == 5 / (20 * 5)
    assert (bpe_choice.count, bpe_choice.left_count, bpe_choice.right_count) == (20, 36, 20)
    assert bpe_choice.count / (bpe_choice.left_count * bpe_choice.right_count) < 5 / (20 * 5)
