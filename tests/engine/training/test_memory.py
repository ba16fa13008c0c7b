"""The fast trainer's pair index stays small per position, so that a large corpus's counts fit."""

from __future__ import annotations

import random
import tracemalloc

from bpe_core.training.incremental import PairIndex
from bpe_core.training.tie_rules import TieRule


def test_the_pair_index_holds_under_100_bytes_per_position():
    """Links, weights, tokens and position lists share one int per position (about 78 bytes in all;
    a list of its own ints for each of nxt, prv and the position lists took 128)."""
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
    assert held / positions < 100, held / positions
