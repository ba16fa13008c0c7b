"""Tokenizer._bpe, which updates only the ranks beside a merge, gives the ids of recounting every round."""

from __future__ import annotations

import random
from functools import cache
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Tokenizer, train
from bpe_core.primitives import merge_pair
from bpe_core.tokenizer.merge_order import reordered
from tests.engine.formats.support import CORPUS
from tests.engine.test_cuts import ATOMS

BYTES = {i: bytes([i]) for i in range(256)}
# Long runs and repeats, so that chunks hold the same pair many times over, overlapping too (aaaa).
TRAINING = CORPUS + "aaaa aaaaaaa abababab 你好你好 😀😀😀 \n\n\n" * 40


def recounting_bpe(tok: Tokenizer, data: bytes) -> list[int]:
    """The rule as stated: every round, rank every adjacent pair and merge the lowest everywhere."""
    ids = [tok.id_of(bytes([b])) for b in data]
    rank = {pair: r for r, pair in reversed(list(enumerate(tok.merges)))}  # a pair's first merge
    while len(ids) > 1:
        ranked = [(rank[p], p) for p in pairwise(ids) if p in rank]
        if not ranked:
            break
        r, pair = min(ranked)
        ids = merge_pair(ids, pair, tok.merge_ids[r])
    return ids


@cache
def tokenizer(kind: str) -> Tokenizer:
    if kind == "shuffled":  # merges out of training order: a pair with a new token may rank before it
        tok = train(TRAINING, vocab_size=400, pattern="none", tie_break="lowest-id")
        order = list(range(len(tok.merges)))
        random.Random(16).shuffle(order)
        return reordered(tok, order)
    pattern, tie_break = kind.split("/")
    return train(TRAINING, vocab_size=500, pattern=pattern, tie_break=tie_break)


@pytest.mark.parametrize("kind", ["none/lowest-id", "gpt2/lexicographic", "shuffled"])
@settings(max_examples=150, deadline=None)
@given(
    text=st.one_of(
        st.lists(st.sampled_from([*ATOMS, "aaa", "abab", "low", " the", "你好"]), max_size=40).map("".join),
        st.text(max_size=60),
    )
)
def test_updating_the_neighbours_ranks_gives_the_ids_of_recounting(kind, text):
    tok = tokenizer(kind)
    data = text.encode("utf-8", "surrogatepass")
    assert tok._bpe(data) == recounting_bpe(tok, data)


def test_the_lowest_rank_is_merged_everywhere_before_a_pair_it_makes():
    """(ab, a) ranks before (a, b), which makes ab: one ab at a time would give aba, b for "abab";
    every (a, b) is merged first."""
    tok = Tokenizer.from_merges(BYTES | {256: b"aba", 257: b"ab"}, [(b"ab", b"a"), (b"a", b"b")])
    assert tok.encode("abab") == [257, 257]
    assert tok.encode("abxaba") == [257, 120, 256]


def test_a_long_run_of_one_byte_takes_few_rounds():
    """2**16 a's with the merges a+a, aa+aa, ...: each round merges every occurrence at once."""
    vocab = BYTES | {256 + k: b"a" * 2 ** (k + 1) for k in range(16)}
    merges = [(b"a" * 2**k, b"a" * 2**k) for k in range(16)]
    tok = Tokenizer.from_merges(vocab, merges)
    assert tok.encode("a" * 2**16) == [256 + 15]
