"""The textbook encoder gives the fast encoder's ids, for random trained tokenizers, patterns and texts."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core import PATTERNS, TIE_BREAKS, Tokenizer, train
from bpe_core.tokenizer import textbook_encode
from bpe_core.tokenizer.merge_order import reordered

SPECIALS = ["<|endoftext|>", "<|end|>"]
# Emoji (ZWJ sequences, skin tones), CJK, combining marks, whitespace runs, CRLF and lone CRs, digits,
# contractions, special tokens and pieces of them.
ATOMS = [
    "a", "b", "ab", "aaa", "low", " low", "er", "Tom", "'s", "'ll", "1", "234", "2024-12-31",
    " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", "\r\n\r\n", "\r", " \n", "\x0b", "\xa0", "\u2028",
    "你好", "自然语言", "。", "한국어", "こんにちは", "😀", "😀😀", "👩‍👩‍👧", "🤷🏽‍♀️", "\u200d",
    "é", "e\u0301", "naïve", "Привет", ".", "...", "/", "!", "?",
    "<|endoftext|>", "<|end|>", "<|end", "|>", "<|", "endoftext",
]  # fmt: skip
VALID = st.characters(exclude_categories=("Cs",))  # lone surrogates are a ValueError (tested below)
TEXTS = st.one_of(
    st.lists(st.sampled_from(ATOMS), max_size=30).map("".join),
    st.text(VALID, max_size=40),
    st.lists(st.one_of(st.sampled_from(ATOMS), st.text(VALID, max_size=3)), max_size=20).map("".join),
)
PATTERN_NAMES = [p for p in PATTERNS if p != "cl100k"] + [r"\w+|\s+", r"[a-z]+| ?\p{L}+|\d"]


@st.composite
def tokenizers(draw: st.DrawFn) -> Tokenizer:
    """A tokenizer trained on a random text with a random pattern, tie rule, size and special tokens."""
    specials = draw(st.sampled_from([[], SPECIALS[:1], SPECIALS]))
    atoms = draw(st.lists(st.sampled_from(ATOMS), min_size=5, max_size=40))  # words it learns
    return train(
        draw(TEXTS) + "".join(atoms) * draw(st.integers(1, 4)),
        vocab_size=256 + len(specials) + draw(st.integers(0, 80)),
        pattern=draw(st.sampled_from(PATTERN_NAMES)),
        special_tokens=specials,
        tie_break=draw(st.sampled_from(TIE_BREAKS)),
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tok=tokenizers(), texts=st.lists(TEXTS, min_size=1, max_size=4))
def test_textbook_encoder_gives_the_fast_encoders_ids(tok: Tokenizer, texts: list[str]) -> None:
    for text in texts:
        ids = textbook_encode(tok, text)
        assert ids == tok.encode(text)
        assert tok.decode(ids) == text


@settings(max_examples=60, deadline=None)
@given(seed=st.randoms(use_true_random=False), text=TEXTS)
def test_merges_out_of_training_order_give_the_fast_encoders_ids(seed, text: str) -> None:
    """A pair holding a token made by a later merge can rank first: it applies once that token exists."""
    tok = train(" ".join(ATOMS) * 2, vocab_size=340, pattern="gpt2", special_tokens=SPECIALS)
    order = list(range(len(tok.merges)))
    seed.shuffle(order)
    shuffled = reordered(tok, order)
    assert textbook_encode(shuffled, text) == shuffled.encode(text)


def test_a_special_token_is_one_id_and_its_pieces_are_text() -> None:
    tok = train("<|end|> ab ab ab", vocab_size=259, pattern="gpt2", special_tokens=["<|end|>"])
    assert tok.special_tokens == {"<|end|>": 256} and tok.vocab[257] == b"ab"  # the first merge
    assert textbook_encode(tok, "ab<|end|>ab") == [257, 256, 257]
    assert textbook_encode(tok, "<|end") == list(b"<|end")


def test_a_lone_surrogate_is_the_fast_encoders_error() -> None:
    tok = train("abc", vocab_size=258)
    with pytest.raises(ValueError, match="lone surrogate"):
        textbook_encode(tok, "ok \udcff")
