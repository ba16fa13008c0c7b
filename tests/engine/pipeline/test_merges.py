"""The merge rule of BPE over characters: the fast merge (a heap) gives exactly what the textbook one
(the best pair, again and again) gives, on random symbols and rules, and through both models."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pipeline.models import BpeModel
from bpe_core.tokenizer.piece_bpe import PieceBpeTokenizer, merge_fast, merge_textbook

ALPHABET = "abcd"


@settings(max_examples=300, deadline=None)
@given(
    symbols=st.lists(st.sampled_from(ALPHABET), max_size=30),
    rules=st.dictionaries(
        st.tuples(st.text(ALPHABET, min_size=1, max_size=3), st.text(ALPHABET, min_size=1, max_size=3)),
        st.integers(0, 5),
        max_size=25,
    ),
    frozen_at=st.sets(st.integers(0, 29), max_size=4),
)
def test_fast_merges_equal_the_textbook(symbols: list[str], rules: dict, frozen_at: set[int]) -> None:
    """Ties in priority are many here (priorities 0..5), so the leftmost-first rule is tested too."""

    def rule(a: str, b: str) -> tuple[float, str] | None:
        p = rules.get((a, b))
        return None if p is None else (p, a + b)

    frozen = [i in frozen_at for i in range(len(symbols))]
    assert merge_fast(symbols, rule, frozen) == merge_textbook(symbols, rule, frozen)


def test_a_break_in_the_tie_rule_is_seen() -> None:
    """The leftmost of equal pairs joins first: ``aaa`` with ``a+a`` is ``aa a``, not ``a aa``."""
    rule = lambda a, b: (0.0, a + b) if (a, b) == ("a", "a") else None  # noqa: E731
    assert merge_fast(list("aaa"), rule) == merge_textbook(list("aaa"), rule) == [("aa", 2), ("a", 1)]


PIECES = [("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("c", -1.0), ("▁", -1.0), ("ab", -2.0), ("bc", -2.5),
          ("abc", -3.0), ("▁a", -4.0), ("ca", -5.0), ("▁ab", -6.0)]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(text=st.text("abc ", max_size=40))
def test_textbook_and_fast_sentencepiece_bpe_agree(text: str) -> None:
    fast = PieceBpeTokenizer(PIECES)
    textbook = PieceBpeTokenizer(PIECES, textbook=True)
    assert fast.encode(text) == textbook.encode(text)


@settings(max_examples=200, deadline=None)
@given(text=st.text("abcx", max_size=40))
def test_textbook_and_fast_hf_bpe_agree(text: str) -> None:
    vocab = {"<unk>": 0, "a": 1, "b": 2, "c": 3, "ab": 4, "bc": 5, "abc": 6, "ca": 7}
    merges = [("a", "b"), ("b", "c"), ("ab", "c"), ("c", "a")]
    fast = BpeModel(vocab, merges, unk_token="<unk>", fuse_unk=True)
    textbook = BpeModel(vocab, merges, unk_token="<unk>", fuse_unk=True, textbook=True)
    assert fast.tokenize(text) == textbook.tokenize(text)
