"""The whole-file reading of a .tiktoken file gives what reading it line by line gives, or defers to it.

A clean file is read with a few whole-file calls; at any doubt the line-by-line
reader runs and names the bad line.  Here both read the same files, clean and
damaged in many ways, and the work to read a file grows in step with its size.
"""

from __future__ import annotations

import base64
import random
import sys
from collections import Counter

import pytest

from bpe_core.formats.safe_io import TokenizerFileError
from bpe_core.formats.tiktoken import (
    _clean_ranks,
    _ranks_line_by_line,
    merges_from_ranks,
    read_tiktoken_text,
)
from tests.engine.formats.support import rank_file

DAMAGE = [
    lambda d, r: d.replace(b"\n", b"\r\n"),
    lambda d, r: d.replace(b"\n", b"\n\n", 3),
    lambda d, r: d.rstrip(b"\n"),
    lambda d, r: d.replace(b" ", b"\t", 1),
    lambda d, r: d.replace(b" ", b"  ", 1),
    lambda d, r: b" " + d,
    lambda d, r: d + b"YQ== 999999\n",  # a token twice
    lambda d, r: d + b"QUJD 5\n",  # a rank twice
    lambda d, r: d + b"QUJD\n",  # one field
    lambda d, r: d + b"QUJD 7 8\n",  # three fields
    lambda d, r: d + b"QUJD 99999999999\n",  # a rank too large
    lambda d, r: d + b"QUJD -4\n",
    lambda d, r: d + b"QU*D 300000\n",  # not base64
    lambda d, r: d + b"QUJ 300000\n",  # bad padding
    lambda d, r: d + b"=QUJD 300000\n",
    lambda d, r: d + b" 300000\n",
    lambda d, r: d.replace(b"\n", b" 12\n", 1),  # a line with one field, next to one with three
    lambda d, r: d + base64.b64encode(b"x" * 300) + b" 300000\n",  # a token too long
    lambda d, r: d + b"4444 300000\n",  # digits are base64 too
    lambda d, r: d.replace(b"\n", b"\x0b", 1),
]


def read(data: bytes) -> tuple[object, object]:
    """What each reader makes of ``data``: ranks, or the error's message."""
    try:
        slow: object = _ranks_line_by_line(data, "x.tiktoken")[0]
    except TokenizerFileError as exc:
        slow = str(exc)
    return _clean_ranks(data), slow


@pytest.mark.parametrize("seed", range(3))
def test_clean_files_read_the_same_both_ways(seed):
    data = rank_file(2000, seed=seed)
    fast, slow = read(data)
    assert fast is not None and fast == slow


@pytest.mark.parametrize("damage", range(len(DAMAGE)))
def test_damaged_files_are_read_the_same_or_left_to_the_line_by_line_reader(damage):
    data = DAMAGE[damage](rank_file(600, seed=damage), random.Random(damage))
    fast, slow = read(data)
    assert fast is None or fast == slow
    if isinstance(slow, str):  # an error: the whole-file reader must not have accepted the file
        assert fast is None
        with pytest.raises(TokenizerFileError) as raised:
            read_tiktoken_text(data, "x.tiktoken")
        assert str(raised.value) == slow


def test_merges_are_those_of_running_bpe_on_each_token():
    """The 2- and 3-byte shortcuts agree with the general BPE recovery for every token."""
    from bpe_core.formats import tiktoken

    data = rank_file(3000, seed=7)
    ranks = _clean_ranks(data)
    assert ranks is not None
    general = []
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(token) > 1:
            parts = tiktoken._bpe(token, ranks, rank)
            general.append((parts[0], parts[1]) if len(parts) == 2 else None)
    fast = merges_from_ranks(ranks)
    assert [g if g is not None else f for g, f in zip(general, fast, strict=True)] == fast


def calls(data: bytes) -> int:
    """Python and C function calls made while reading ``data`` (a count, not a time)."""
    counted: Counter[str] = Counter()

    def profile(frame, event, arg):
        if event in ("call", "c_call"):
            counted[event] += 1

    sys.setprofile(profile)
    try:
        read_tiktoken_text(data, "x.tiktoken")
    finally:
        sys.setprofile(None)
    return sum(counted.values())


def test_reading_grows_in_step_with_the_file():
    small, large = calls(rank_file(5000, seed=1)), calls(rank_file(20_000, seed=1))
    assert large < 4.5 * small, (small, large)


def test_merges_come_in_rank_order_whatever_the_files_line_order():
    from bpe_core.formats.tiktoken import merge_ranks

    ranks = _clean_ranks(rank_file(3000, seed=8))
    assert ranks is not None
    shuffled = list(ranks.items())
    random.Random(8).shuffle(shuffled)
    assert merge_ranks(dict(shuffled)) == merge_ranks(ranks)
