"""encode_iterable: the ids of encode("".join(pieces)) for every way of cutting the text, memory bounded;
incremental_decoder(): decode(ids) for every way of cutting the ids into blocks."""

from __future__ import annotations

import itertools
import tracemalloc
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Tokenizer, train
from bpe_core.tokenizer.streaming import encode_pieces
from bpe_core.tokenizer.unigram import UnigramTokenizer
from bpe_core.tokenizer.unigram_normalizer import SentencePieceNormalizer
from bpe_core.tokenizer.wordpiece import WordPieceTokenizer
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


# ----- decoding in blocks: incremental_decoder() -----

UNIGRAM_PIECES = [
    ("<unk>", 0.0), ("<s>", 0.0), ("▁", -2.0), ("▁the", -1.0), ("a", -3.0), ("▁▁", -3.0), ("b▁", -4.0),
    *((f"<0x{b:02X}>", -5.0) for b in (0x41, 0xE7, 0x81, 0xAF, 0xF0, 0x9F, 0x8C, 0x8A, 0xFF, 0xC3)),
]  # fmt: skip
UNIGRAM_KINDS = ["unknown", "control", "normal", "normal", "normal", "normal", "normal", *["byte"] * 10]


def unigram(prefix: bool, squeeze: bool, surface: str) -> UnigramTokenizer:
    norm = SentencePieceNormalizer(add_dummy_prefix=prefix, remove_extra_whitespaces=squeeze)
    return UnigramTokenizer(UNIGRAM_PIECES, kinds=UNIGRAM_KINDS, normalizer=norm, unk_surface=surface)


def unigram_decode_before_blocks(tok: UnigramTokenizer, ids: list[int]) -> str:
    """UnigramTokenizer.decode as it was before it decoded in blocks: the byte runs held whole."""
    out: list[str] = []
    pending = bytearray()
    text_empty, bos, bos_seen = True, True, False
    norm = tok.normalizer
    for i in ids:
        kind = tok.kinds[i]
        if kind == "byte":
            pending.append(int(tok.pieces[i][3:5], 16))
            continue
        if pending:
            out.append(pending.decode("utf-8", "replace"))
            text_empty = False
            pending.clear()
        if bos_seen or not text_empty:
            bos = False
        bos_seen = False
        if kind == "control":
            continue
        if kind == "unknown":
            out.append(tok.unk_surface)
            text_empty = text_empty and not tok.unk_surface
            continue
        piece = tok.pieces[i]
        if bos and (norm.add_dummy_prefix or norm.remove_extra_whitespaces) and piece.startswith("▁"):
            piece = piece[1:]
            bos_seen = not norm.remove_extra_whitespaces
        decoded = piece.replace("▁", " ")
        out.append(decoded)
        text_empty = text_empty and not decoded
    if pending:
        out.append(pending.decode("utf-8", "replace"))
    return "".join(out)


WORDPIECE = WordPieceTokenizer(["[UNK]", "hu", "##gs", "pugs", ".", "n't", "do", "not", "'", "##."])


def in_blocks(tok, ids: list[int], points: list[int]) -> list[str]:
    decoder = tok.incremental_decoder()
    blocks = [ids[a:b] for a, b in itertools.pairwise([0, *sorted({p % (len(ids) + 1) for p in points})])]
    texts = [decoder.decode(block) for block in blocks]
    return [*texts, decoder.decode(ids[sum(map(len, blocks)) :], final=True)]


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    points=st.lists(st.integers(0, 1000), max_size=8),
    prefix=st.booleans(),
    squeeze=st.booleans(),
    surface=st.sampled_from([" \u2047 ", ""]),
)
def test_unigram_decodes_in_blocks_as_whole_and_as_before(data, points, prefix, squeeze, surface) -> None:
    tok = unigram(prefix, squeeze, surface)
    ids = data.draw(st.lists(st.integers(0, len(UNIGRAM_PIECES) - 1), max_size=40))
    want = unigram_decode_before_blocks(tok, ids)
    assert tok.decode(ids) == want
    assert "".join(in_blocks(tok, ids, points)) == want


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(st.integers(0, 9), max_size=30), points=st.lists(st.integers(0, 100), max_size=6))
def test_wordpiece_decodes_in_blocks_as_whole(ids: list[int], points: list[int]) -> None:
    assert "".join(in_blocks(WORDPIECE, ids, points)) == WORDPIECE.decode(ids)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=60), points=st.lists(st.integers(0, 100), max_size=8))
def test_byte_level_decodes_in_blocks_as_whole(data: bytes, points: list[int]) -> None:
    """Any bytes, valid UTF-8 or not, one byte token each: blocks cut characters anywhere."""
    tok = tokenizer("gpt2")
    ids = list(data)  # ids 0..255 are the bytes
    texts = in_blocks(tok, ids, points)
    assert "".join(texts) == tok.decode(ids) == data.decode("utf-8", "replace")
    assert all("\ufffd" not in t for t in texts) or "\ufffd" in data.decode("utf-8", "replace")


def test_a_character_split_across_blocks_comes_whole_with_the_second() -> None:
    tok = tokenizer("gpt2")
    ids = list("a🌊".encode())
    decoder = tok.incremental_decoder()
    assert [decoder.decode(ids[:3]), decoder.decode(ids[3:]), decoder.decode([], final=True)] == [
        "a",
        "🌊",
        "",
    ]
    decoder = tok.incremental_decoder()
    assert [decoder.decode(ids[:3]), decoder.decode([], final=True)] == ["a", "\ufffd"]  # cut for good
