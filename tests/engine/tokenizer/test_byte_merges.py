"""Tokenizer.from_merges: vocab dict[int, bytes] and merges list[tuple[bytes, bytes]], checked, and back."""

from __future__ import annotations

import pytest

from bpe_core import Tokenizer
from tests.engine.formats.support import EOT, SAMPLE, trained

BYTES = {i: bytes([i]) for i in range(256)}


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4", "none"])
def test_a_trained_tokenizer_comes_back_from_its_bytes(pattern):
    tok = trained(pattern)
    again = Tokenizer.from_merges(tok.vocab_bytes(), tok.merges_bytes(), [EOT], pattern=pattern)
    assert again.encode(SAMPLE) == tok.encode(SAMPLE)
    assert again.special_tokens == tok.special_tokens == {EOT: 256}
    assert again.merges == tok.merges and again.vocab == tok.vocab


def test_merges_name_tokens_by_their_bytes_in_merge_order():
    vocab = BYTES | {256: b"lo", 257: b"low", 258: b"er"}
    tok = Tokenizer.from_merges(vocab, [(b"l", b"o"), (b"lo", b"w"), (b"e", b"r")])
    assert tok.merges == [(108, 111), (256, 119), (101, 114)]
    assert [tok.vocab[i] for i in tok.encode("lower")] == [b"low", b"er"]
    assert tok.merges_bytes() == [(b"l", b"o"), (b"lo", b"w"), (b"e", b"r")]


def test_a_special_token_not_in_the_vocab_gets_the_next_id():
    vocab = BYTES | {256: b"<|endoftext|>", 257: b"ab"}
    tok = Tokenizer.from_merges(vocab, [(b"a", b"b")], ["<|endoftext|>", "<|pad|>"])
    assert tok.special_tokens == {"<|endoftext|>": 256, "<|pad|>": 258}
    assert tok.encode("ab<|pad|><|endoftext|>") == [257, 258, 256]
    assert tok.vocab_bytes()[258] == b"<|pad|>"


@pytest.mark.parametrize(
    ("vocab", "merges", "message"),
    [
        (BYTES, [(b"a", b"b")], r"merge 1 \(b'a', b'b'\) makes b'ab', which is not in the vocab; add it"),
        (BYTES | {256: b"ab"}, [(b"a", b"xy")], r"merge 1 \(b'a', b'xy'\): b'xy' is not in the vocab"),
        (BYTES | {256: b"a"}, [], r"vocab ids 97 and 256 both hold b'a'; each byte string needs one id"),
        (BYTES | {300: b"ab"}, [], r"vocab ids must be 0..256 without gaps, but 256 is missing"),
        (BYTES | {256: "ab"}, [], r"vocab\[256\] is a str, not bytes"),
        (BYTES | {256: b"ab"}, [("a", "b")], r"merge 1 is \('a', 'b'\), not a pair of byte strings"),
        (BYTES | {256: b"ab"}, [(b"a", b"b", b"c")], r"merge 1 is .*, not a pair of byte strings"),
        ({i: bytes([i]) for i in range(255)}, [], r"the vocab lacks 1 of the 256 single bytes"),
    ],
)
def test_bad_shapes_are_clear_errors(vocab, merges, message):
    with pytest.raises(ValueError, match=message):
        Tokenizer.from_merges(vocab, merges)


def test_one_string_as_special_tokens_is_refused():
    with pytest.raises(ValueError, match="list of strings"):
        Tokenizer.from_merges(BYTES, [], "<|endoftext|>")
