"""The merge-order lesson: the same merges in another order cut text differently and decode the same."""

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import train
from bpe_core.analysis.side_by_side import compare_cuts
from bpe_core.tokenizer.merge_order import (
    abc_tokenizer,
    check_order,
    reordered,
    reversed_order,
    shuffled_order,
    swapped_order,
)

TEXT = "the cat in the hat sat on the mat; the hat is that cat's. 机器学习 机器 😀😀 naïve"


def tokens(tok, text):
    return [tok.vocab[i] for i in tok.encode(text)]


def test_abc_in_training_order_is_ab_c_and_the_other_way_a_bc():
    tok = abc_tokenizer()
    assert [tok.vocab[a] + tok.vocab[b] for a, b in tok.merges] == [b"ab", b"bc"]
    assert tokens(tok, "abc") == [b"ab", b"c"]
    other = reordered(tok, swapped_order(2, 0, 1))
    assert tokens(other, "abc") == [b"a", b"bc"]
    assert other.vocab == tok.vocab and other.decode(other.encode("abc")) == "abc"
    assert tokens(tok, "abcabc") == [b"ab", b"c", b"ab", b"c"]
    assert tokens(other, "abcabc") == [b"a", b"bc", b"a", b"bc"]


def rank_greedy_encode(tok, text):
    """The oracle: per chunk, merge the lowest-rank adjacent pair everywhere (left to right), until none."""
    rank = {}
    for r, pair in enumerate(tok.merges):
        rank.setdefault(pair, r)
    out = []
    for chunk in tok.pretokenizer.split(text):
        ids = list(chunk.encode("utf-8"))
        while True:
            present = [rank[p] for p in pairwise(ids) if p in rank]
            if not present:
                break
            best = min(present)
            pair, new = tok.merges[best], tok.merge_ids[best]
            merged, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                    merged.append(new)
                    i += 2
                else:
                    merged.append(ids[i])
                    i += 1
            ids = merged
        out.extend(ids)
    return out


@pytest.fixture(scope="module")
def trained():
    return train(TEXT * 4, vocab_size=256 + 60, pattern="none", tie_break="lowest-id")


@pytest.fixture(scope="module", params=["reverse", "shuffle", "swap"])
def other_order(request, trained):
    n = len(trained.merges)
    order = {
        "reverse": reversed_order(n),
        "shuffle": shuffled_order(n, seed=7),
        "swap": swapped_order(n, 0, n - 1),
    }[request.param]
    return reordered(trained, order)


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("the cat 机器学习😀ï;'")), max_size=60))
def test_any_order_decodes_back_and_encodes_as_the_rank_greedy_oracle(trained, other_order, text):
    ids = other_order.encode(text)
    assert other_order.decode(ids) == text
    assert ids == rank_greedy_encode(other_order, text)


def test_another_order_changes_the_cut_of_the_training_text(trained):
    n = len(trained.merges)
    for order in (reversed_order(n), shuffled_order(n, seed=1)):
        cuts = compare_cuts(trained, reordered(trained, order), TEXT)
        assert cuts.same_text and cuts.differing > 0
        assert cuts.left_tokens < cuts.right_tokens  # the training order compresses its own text best
    same = compare_cuts(trained, reordered(trained, list(range(n))), TEXT)
    assert same.differing == 0 and same.left_tokens == same.right_tokens


def test_reordering_keeps_special_tokens_and_pattern():
    tok = train("ab ab <|eot|> ab", vocab_size=260, special_tokens=["<|eot|>"], pattern="gpt2")
    other = reordered(tok, reversed_order(len(tok.merges)))
    assert other.special_tokens == tok.special_tokens and other.pattern == "gpt2"
    assert other.encode("<|eot|>") == tok.encode("<|eot|>") == [256]


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ([0, 1], r"the order lists 2 merges but the tokenizer has 3"),
        ([0, 0, 1], r"lists merge position 0 twice and lacks 2; an order lists each of 0\.\.2 once"),
        ([0, 1, 3], r"the order lists 3, which is not a merge position \(0\.\.2\)"),
        ([0, 1, "2"], r"an order is a list of merge positions"),
    ],
)
def test_bad_orders_are_clear_errors(order, message):
    with pytest.raises(ValueError, match=message):
        check_order(order, 3)


def test_swapping_needs_two_merge_positions():
    with pytest.raises(
        ValueError, match=r"merge position 5 is not one of 0\.\.2 \(the tokenizer has 3 merges\)"
    ):
        swapped_order(3, 0, 5)
