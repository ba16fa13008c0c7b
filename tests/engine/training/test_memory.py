"""The fast trainer's pair index stays small per position, so that a large corpus's counts fit."""

from __future__ import annotations

import random
import tracemalloc

from bpe_core.training.incremental import PairIndex
from bpe_core.training.tie_rules import TieRule


def test_the_pair_index_holds_under_64_bytes_per_position():
    """Slots, weights and position lists hold no object per position (about 52 bytes in all with
    weights and a separator per short chunk; linked lists of ints took 78, and before that 128)."""
    rng = random.Random(16)
    chunks = {
        "".join(rng.choices("abcdefghij", k=rng.randint(3, 12))): rng.randint(1, 500) for _ in range(20_000)
    }
    positions = sum(map(len, chunks))
    rule = TieRule("lexicographic", [bytes([i]) for i in range(256)])
    tracemalloc.start()
    try:
        index = PairIndex(chunks, rule, top_k=0, records=False)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert index.choose() is not None
    assert held / positions < 64, held / positions


def test_one_long_chunk_holds_under_32_bytes_per_byte():
    """Pattern none: one chunk, no weights: a slot (16 bytes) and its place in a position list (4)."""
    text = "".join(random.Random(28).choices("abcdefghij ", k=200_000))
    rule = TieRule("lowest-id", [bytes([i]) for i in range(256)])
    tracemalloc.start()
    try:
        index = PairIndex({text: 1}, rule, top_k=0, records=False)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert index.choose() is not None
    assert held / len(text) < 32, held / len(text)
