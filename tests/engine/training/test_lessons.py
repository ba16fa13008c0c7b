"""The lessons' worked examples, with the numbers checked by hand."""

from bpe_core import train, train_steps

LOW = "low low low low low lowest lowest newest newest newest"


def merged(steps):
    return [(s.left, s.right, s.count) for s in steps]


def test_low_lowest_newest_first_three_merges_with_true_counts():
    steps = list(train_steps(LOW, vocab_size=256 + 3, pattern="none", tie_break="lowest-id"))
    # (l,o) and (o,w) tie at 7; lowest-id takes (l,o) = (108, 111).
    # One lesson's table says 5 for (' ', low): it occurs before the 4 later "low"s and the 2 "lowest"s = 6.
    assert merged(steps) == [(b"l", b"o", 7), (b"lo", b"w", 7), (b" ", b"low", 6)]
    assert steps[0].ties == ((108, 111), (111, 119))
    assert steps[0].tied and not steps[1].tied


def test_low_counts_match_a_direct_count_of_the_text():
    step3 = list(train_steps(LOW, vocab_size=259, pattern="none", tie_break="lowest-id"))[2]
    assert step3.count == LOW.count(" low")
    assert step3.replaced == step3.count


def test_the_cat_in_the_hat_lexicographic():
    steps = list(train_steps("the cat in the hat", vocab_size=259, pattern="none", tie_break="lexicographic"))
    assert [s.token for s in steps] == [b"th", b"the", b"the "]
    # (t,h), (h,e), (e,' '), (a,t) all occur twice: the greatest byte strings win.
    assert set(steps[0].ties) == {(116, 104), (104, 101), (101, 32), (97, 116)}
    assert steps[0].pair == (116, 104)


def test_pretokenization_keeps_the_space_out_of_words():
    steps = list(
        train_steps("the cat in the hat", vocab_size=259, pattern="whitespace", tie_break="lexicographic")
    )
    assert b"the " not in [s.token for s in steps]
    gpt2 = list(train_steps("the cat in the hat", vocab_size=259, pattern="gpt2", tie_break="lexicographic"))
    assert all(not s.token.endswith(b" ") for s in gpt2)


def test_merge_order_matters_on_abc():
    # Two tokenizers share the merges {ab, bc} in opposite orders and split "abc" differently.
    ab_first = train("ab ab ab bc bc abc", vocab_size=258, pattern="whitespace", tie_break="lowest-id")
    assert [ab_first.vocab[a] + ab_first.vocab[b] for a, b in ab_first.merges] == [b"ab", b"bc"]
    assert [ab_first.vocab[i] for i in ab_first.encode("abc")] == [b"ab", b"c"]
    bc_first = train("bc bc bc ab ab abc", vocab_size=258, pattern="whitespace", tie_break="lowest-id")
    assert [bc_first.vocab[a] + bc_first.vocab[b] for a, b in bc_first.merges] == [b"bc", b"ab"]
    assert [bc_first.vocab[i] for i in bc_first.encode("abc")] == [b"a", b"bc"]


def test_overlapping_pairs_count_all_positions_but_replace_left_to_right():
    (step,) = train_steps("aaa", vocab_size=257, pattern="none")
    assert (step.token, step.count, step.replaced) == (b"aa", 2, 1)
    assert step.tokens_before == 3 and step.tokens_after == 2
    assert step.sequence == (256, 97)


def test_aaabdaaabac_wikipedia_example():
    steps = list(
        train_steps("aaabdaaabac", vocab_size=259, pattern="none", tie_break="lowest-id", method="textbook")
    )
    assert [s.token for s in steps] == [b"aa", b"ab", b"aaab"]
    assert steps[-1].sequence == (258, 100, 258, 97, 99)  # "XdXac"


def test_step_records_describe_the_table_and_the_corpus():
    steps = list(train_steps(LOW, vocab_size=262, pattern="none", tie_break="lowest-id", top_k=3))
    for s in steps:
        assert s.top_pairs[0].pair == s.pair and s.top_pairs[0].count == s.count
        assert len(s.top_pairs) <= 3
        assert [r.count for r in s.top_pairs] == sorted((r.count for r in s.top_pairs), reverse=True)
        assert s.tokens_after == s.tokens_before - s.replaced
        assert s.token == s.left + s.right and s.pair[0] < s.new_id and s.pair[1] < s.new_id
    assert [s.index for s in steps] == list(range(1, len(steps) + 1))
    assert steps[0].tokens_before == len(LOW.encode())
