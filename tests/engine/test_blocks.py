"""Block counting: a byte stream counted block by block, in any grouping, equals one count of the whole."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pretokenizer import PreTokenizer
from bpe_core.pretokenizer.blocks import BlockCounter, InvalidUtf8, combine
from tests.engine.test_cuts import PATTERNS, SPECIAL_SETS, TEXTS


def blocks(data: bytes, sizes: list[int]) -> list[tuple[int, bytes]]:
    out, pos, k = [], 0, 0
    while pos < len(data):
        size = sizes[k % len(sizes)] if sizes else len(data)
        out.append((pos, data[pos : pos + size]))
        pos, k = pos + size, k + 1
    return out


@pytest.mark.parametrize("specials", SPECIAL_SETS[:3], ids=lambda s: "+".join(s) or "no-specials")
@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=80, deadline=None)
@given(text=TEXTS, sizes=st.lists(st.integers(1, 40), max_size=5), split=st.integers(0, 50))
def test_blocks_combined_in_any_grouping_count_the_whole_text(pattern, specials, text, sizes, split):
    counter = BlockCounter(PreTokenizer(pattern, special_tokens=specials))
    data = text.encode("utf-8")  # blocks cut characters in half
    parts = [counter.count_block(b, at_start=pos == 0, offset=pos) for pos, b in blocks(data, sizes)]
    whole = counter.count_text(text)
    # All at once, and as two groups combined again (a tree reduce).
    once = combine(parts, counter, starts_stream=True).finish(counter)
    k = split % (len(parts) + 1)
    left = combine(parts[:k], counter, starts_stream=True)
    right = combine(parts[k:], counter, starts_stream=False)
    twice = combine([left, right], counter, starts_stream=True).finish(counter)
    for chunks, specials_seen in (once, twice):
        assert list(chunks.items()) == list(whole[0].items())  # same counts, same first-seen order
        assert specials_seen == whole[1]


def test_a_bad_byte_is_named_by_its_offset_in_the_stream():
    counter = BlockCounter(PreTokenizer("gpt2"))
    data = b"abc def " * 10 + b"\xff" + b" ghi" * 10
    with pytest.raises(InvalidUtf8, match="byte 0xFF at offset 80 is not valid UTF-8"):
        [counter.count_block(b, at_start=pos == 0, offset=pos) for pos, b in blocks(data, [7])]
    # A stray continuation byte first in a block goes to the block's head, then to a seam.
    data = b"abc def " * 10 + b"\x80" + b" ghi" * 10
    parts = [counter.count_block(b, at_start=pos == 0, offset=pos) for pos, b in blocks(data, [8])]
    with pytest.raises(InvalidUtf8, match="byte 0x80 at offset 80 is not valid UTF-8"):
        combine(parts, counter, starts_stream=True).finish(counter)
