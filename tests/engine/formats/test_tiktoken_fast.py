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


def _rank_files() -> list[tuple[bytes, dict[str, int] | None]]:
    """Rank files of every shape the trusted build meets, each with the special tokens given."""
    clean = rank_file(3000, seed=9)
    lines = clean.splitlines()
    shuffled = list(lines)
    random.Random(9).shuffle(shuffled)
    gaps = [b"%s %d" % (line.split()[0], int(line.split()[1]) * 2) for line in lines]  # every odd id free
    # abc ranked before ab: BPE with lower ranks leaves a, b, c, so the split of lowest ranks makes it
    odd = [base64.b64encode(bytes([b])) + b" %d" % b for b in range(256)]
    odd += [b"YWJj 256", b"YWI= 257", b"Y2Q= 258", b"YWJjZA== 259"]  # abc, ab, cd, abcd
    return [
        (clean, None),
        (b"\n".join(shuffled), {"<|endoftext|>": 3000}),
        (b"\n".join(gaps), {"<|endoftext|>": 1, "<|fim|>": 7, "<|x|>": 10_000_000}),
        (b"\n".join(odd), {"abc": 400}),  # a special token whose bytes an ordinary token has too
    ]


@pytest.mark.parametrize("index", range(4))
def test_the_readers_merge_ids_are_what_the_checking_constructor_finds(index):
    """A .tiktoken file's tokenizer is built without checking its merges again (``merge_ids`` from the
    reader): it must be the very tokenizer the checking constructor builds from the same data."""
    from bpe_core import Tokenizer
    from bpe_core.formats.load import tokenizer_from

    data, specials = _rank_files()[index]
    read = read_tiktoken_text(data, "x.tiktoken", special_tokens=specials)
    checked = Tokenizer(read.vocab, read.merges, special_tokens=read.special_tokens, pattern="gpt4")
    assert read.merge_ids == checked.merge_ids
    trusted = tokenizer_from(read, pattern="gpt4")
    assert (trusted.vocab, trusted.merges) == (checked.vocab, checked.merges)
    assert trusted.merge_ids == checked.merge_ids
    assert trusted.special_tokens == checked.special_tokens and trusted.merge_ranks() == checked.merge_ranks()
    for token_id, token in checked.vocab.items():
        assert trusted.id_of(token) == checked.id_of(token)
        assert trusted.merge_step_of(token_id) == checked.merge_step_of(token_id)
    sample = bytes(range(256)).decode("latin-1") + data[:3000].decode("ascii") + " abcd <|endoftext|>"
    for text in [sample, "abcd abc cd", "".join(specials or {}) + " the cat"]:
        assert trusted.encode(text) == checked.encode(text)
        assert trusted.decode(trusted.encode(text)) == text
