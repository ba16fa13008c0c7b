"""The fast trainer on long single chunks (pattern ``none``) equals the textbook trainer, merge for merge.

With pattern ``none`` the whole text is one chunk, so the fast trainer's position
lists run to the text's length and runs of one character (``aaaa``, ``😀😀😀``)
give overlapping pairs, whose merges must go left to right as the textbook's do.
The texts are runs of characters of 1 to 4 UTF-8 bytes, so merged tokens have
different lengths side by side; a branch from the middle of such a run must go on
as training from scratch does.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import TIE_BREAKS, train_steps

runs = st.lists(
    st.tuples(st.sampled_from(list("ab aé\n机😀")), st.integers(min_value=1, max_value=40)),
    min_size=0,
    max_size=60,
)


def text_of(pieces: list[tuple[str, int]]) -> str:
    return "".join(ch * k for ch, k in pieces)


def steps_of(trainer) -> list[tuple]:
    return [(s.pair, s.count, s.replaced, s.ties, s.top_pairs, s.tokens_after) for s in trainer]


@settings(max_examples=40, deadline=None)
@given(pieces=runs, tie_break=st.sampled_from(TIE_BREAKS), merges=st.integers(min_value=1, max_value=60))
def test_fast_equals_textbook_on_one_long_chunk(pieces, tie_break, merges):
    text = text_of(pieces)
    options = dict(vocab_size=256 + merges, pattern="none", tie_break=tie_break, top_k=3)
    fast = train_steps(text, **options)
    textbook = train_steps(text, **options, method="textbook")
    assert steps_of(fast) == steps_of(textbook)
    assert fast.stop_reason == textbook.stop_reason
    assert fast.tokens == textbook.tokens


@settings(max_examples=25, deadline=None)
@given(pieces=runs, at=st.integers(min_value=1, max_value=30))
def test_a_branch_of_one_long_chunk_is_training_from_scratch(pieces, at):
    text = text_of(pieces)
    options = dict(vocab_size=256 + 40, pattern="none", tie_break="lowest-id")
    real = train_steps(text, **options)
    list(real)
    at = min(at, len(real.merges) + 1)
    branch = real.branch(at)
    list(branch)
    assert branch.merges == train_steps(text, **options, method="textbook").run().merges


def test_a_run_of_one_byte_merges_left_to_right():
    """``a`` * 7: aa aa aa a (6 overlapping pairs, 3 merged), then aaaa aa a (2 pairs, 1 merged), then
    aaaa aaa (lowest id: aa + a before aaaa + aa)."""
    trainer = train_steps("a" * 7, vocab_size=259, pattern="none", tie_break="lowest-id")
    assert [(s.token, s.count, s.replaced) for s in trainer] == [
        (b"aa", 6, 3),
        (b"aaaa", 2, 1),
        (b"aaa", 1, 1),
    ]


def test_many_chunks_and_weights_match_on_runs():
    text = " ".join(["aaaa", "ab", "aaaa", "ba", "aaa"] * 30)
    options = dict(vocab_size=256 + 30, pattern="whitespace", tie_break="lexicographic", top_k=5)
    assert steps_of(train_steps(text, **options)) == steps_of(train_steps(text, **options, method="textbook"))
