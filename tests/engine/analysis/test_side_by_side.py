"""Two tokenizations lined up, two vocabularies compared: the figures the "What if?" views show."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_core import train, train_steps
from bpe_core.analysis.side_by_side import align, compare_vocabs, compression


def cut(data: bytes, points: set[int]) -> list[bytes]:
    edges = [0, *sorted(p for p in points if 0 < p < len(data)), len(data)]
    return [data[a:b] for a, b in pairwise(edges) if b > a]


@given(
    data=st.binary(min_size=0, max_size=40),
    left=st.sets(st.integers(0, 40)),
    right=st.sets(st.integers(0, 40)),
)
def test_stretches_cover_the_bytes_and_end_where_both_sides_cut(data, left, right):
    a, b = cut(data, left), cut(data, right)
    stretches = align(a, b)
    assert b"".join(b"".join(s.left) for s in stretches) == data
    assert all(s.left == s.right for s in stretches if s.same)
    assert all(len(s.left) + len(s.right) > 2 for s in stretches if not s.same)
    position = 0
    for s in stretches:
        assert (
            s.byte_start == position and b"".join(s.left) == b"".join(s.right) == data[position : s.byte_end]
        )
        position = s.byte_end
    # a stretch ends where both sides cut, and nowhere inside it do both cut
    both = ({0} | {p for p in left if 0 < p < len(data)}) & ({0} | {p for p in right if 0 < p < len(data)})
    assert {s.byte_start for s in stretches} == (both if data else set())


def test_align_refuses_two_different_texts():
    with pytest.raises(ValueError, match="spell different bytes"):
        align([b"ab"], [b"a", b"c"])


def test_a_blocked_pair_leaves_tokens_only_one_side_has():
    text = "low low low low low lower lower newest newest newest newest newest newest widest widest widest"
    options = dict(vocab_size=262, pattern="whitespace", tie_break="lowest-id")
    real = train_steps(text, **options)
    list(real)
    what_if = real.branch(3, block=[(108, 111)])
    list(what_if)
    v = compare_vocabs(real.tokenizer(), what_if.tokenizer())
    assert (v.shared, v.only_left, v.only_right) == (5, (b"lo",), (b"ow",))
    assert v.overlap == 5 / 7
    assert compression(real.tokenizer(), text).tokens == compression(what_if.tokenizer(), text).tokens
    assert (
        compression(real.tokenizer(), "lo").tokens == 1 and compression(what_if.tokenizer(), "lo").tokens == 2
    )


def test_compression_counts_bytes_characters_and_words():
    c = compression(train("ab ab", vocab_size=257, pattern="none"), "ab ab 机")
    assert (c.tokens, c.bytes, c.chars, c.words) == (7, 9, 7, 3)  # ab, space, ab, space, the 3 bytes of 机
