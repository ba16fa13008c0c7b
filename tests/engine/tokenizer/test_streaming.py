"""encode_iterable: the ids of encode("".join(pieces)) for every way of cutting the text, memory bounded."""

from __future__ import annotations

import itertools
import tracemalloc
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Tokenizer, train
from bpe_core.tokenizer.streaming import encode_pieces
from tests.engine.formats.support import CORPUS, EOT
from tests.engine.test_cuts import ATOMS

PATTERNS = ["gpt2", "gpt4", "o200k", "whitespace", "none", r"\w+|[^\w\s]+|\s+"]
SPECIALS = [EOT, "<|end|>"]
# Whitespace runs across lines, CRLF and special tokens, so that merges like "\n\n" exist.
RUNS = "Tom sat.\n\n\nThen he ran  off.\r\n\r\nAnd then\n  back<|end|>\n\n" * 30


@cache
def tokenizer(pattern: str) -> Tokenizer:
    return train(CORPUS + RUNS, vocab_size=420, pattern=pattern, special_tokens=SPECIALS)


def cut(text: str, points: list[int]) -> list[str]:
    points = sorted({p % (len(text) + 1) for p in points})
    return [text[a:b] for a, b in itertools.pairwise([0, *points, len(text)])]


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=120, deadline=None)
@given(
    atoms=st.lists(st.sampled_from([*ATOMS, "Tom sat.\n\n\nThen", "  back<|end|>\n\n"]), max_size=30),
    points=st.lists(st.integers(0, 10_000), max_size=12),
    buffer_chars=st.integers(1, 40),
)
def test_any_cutting_gives_the_ids_of_the_whole_text(pattern, atoms, points, buffer_chars):
    tok = tokenizer(pattern)
    text = "".join(atoms)
    pieces = cut(text, points)  # special tokens, CRLF and whitespace runs get cut in half too
    streamed = list(encode_pieces(pieces, tok.pretokenizer, tok.encode, buffer_chars=buffer_chars))
    assert streamed == tok.encode(text)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_encode_iterable_of_lines_equals_encode(pattern):
    tok = tokenizer(pattern)
    text = (CORPUS + RUNS) * 3  # longer than the 64K buffer
    assert list(tok.encode_iterable(text.splitlines(keepends=True))) == tok.encode(text)


def test_the_issue_example_whitespace_runs_join_across_lines():
    """GPT-2's pattern makes "\\n\\n\\n" before a word "\\n\\n", "\\n"; line by line gives three "\\n"."""
    tok = tokenizer("gpt2")
    text = f"{EOT}\n\n\nTom\n"
    ids = list(tok.encode_iterable(text.splitlines(keepends=True)))
    nn, n = tok.id_of(b"\n\n"), tok.id_of(b"\n")
    assert nn is not None and ids[:3] == [tok.special_tokens[EOT], nn, n]
    assert ids == tok.encode(text)
    per_line = [i for line in text.splitlines(keepends=True) for i in tok.encode(line)]
    assert per_line[:4] == [tok.special_tokens[EOT], n, n, n] and per_line != ids


def test_ids_come_before_the_input_ends():
    tok = tokenizer("gpt2")
    endless = itertools.cycle(["The lighthouse keeper climbed the stairs.\n", "He lit the lamp. "])
    first = list(itertools.islice(tok.encode_iterable(endless), 50))
    assert tok.decode(first).startswith("The lighthouse keeper climbed")


def peak_bytes(tok: Tokenizer, lines: int) -> tuple[int, int]:
    """(ids, peak bytes Python allocated) while streaming ``lines`` generated lines."""
    text = (f"Line {i % 1000} of the story: the keeper lit lamp {i % 97}.\n" for i in range(lines))
    tracemalloc.start()
    try:
        count = sum(1 for _ in tok.encode_iterable(text))
        return count, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("pattern", ["gpt2", "o200k"])
def test_memory_is_bounded_by_the_buffer_not_the_input(pattern):
    """0.27 MB and 1.1 MB of lines streamed: the peak does not grow with the input.

    (Few distinct words, so that the chunk cache, bounded on its own, stays small.)"""
    tok = tokenizer(pattern)
    peak_bytes(tok, 1000)  # fill the chunk cache
    small_ids, small = peak_bytes(tok, 5_000)
    large_ids, large = peak_bytes(tok, 20_000)
    assert large_ids > 3.9 * small_ids
    # The 64K-character buffer, its chunks and ids: about 1.8 MB, however long the input.
    assert large < 1.2 * small + 100_000, (small, large)


def test_a_piece_that_is_not_a_string_is_a_clear_error():
    tok = tokenizer("gpt2")
    with pytest.raises(ValueError, match="piece 2 is a bytes, not a str; open files in text mode"):
        list(tok.encode_iterable(["ok ", b"bytes"]))


def test_a_lone_surrogate_names_where_it_is_in_the_stream():
    tok = tokenizer("gpt2")
    pieces = ["word " * 20_000, "bad \ud800 here"]
    with pytest.raises(ValueError, match="lone surrogate"):
        list(tok.encode_iterable(pieces))
