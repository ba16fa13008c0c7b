"""What if? Blocked and forced pairs, with the lessons' true numbers, their errors, and branches.

Every hand-made case runs through both trainers; hypothesis checks that they agree with random
blocks and forces, and that a branch yields what training from scratch with its options yields.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core import PATTERNS, TIE_BREAKS, TrainOptions, train, train_steps
from bpe_core.training import STOP_NO_PAIRS, STOP_ONLY_BLOCKED
from bpe_core.training import corpus as corpus_module

METHODS = ["fast", "textbook"]
SENNRICH = "low low low low low lower lower newest newest newest newest newest newest widest widest widest"
LESSON = dict(vocab_size=262, pattern="whitespace", tie_break="lowest-id")
L, O, W = 108, 111, 119  # noqa: E741 (the letters l, o, w)


def merged(steps):
    return [(s.token, s.count) for s in steps]


@pytest.mark.parametrize("method", METHODS)
def test_the_real_history_of_low_lower_newest_widest(method):
    # By hand: (e,s) and (s,t) 9 (newest x6 + widest x3), (w,e) 8, (l,o) and (o,w) 7 (low x5 + lower x2).
    steps = list(train_steps(SENNRICH, **LESSON, method=method))
    assert merged(steps) == [(b"es", 9), (b"est", 9), (b"lo", 7), (b"low", 7), (b"ew", 6), (b"new", 6)]
    assert steps[2].ties == ((L, O), (O, W))
    assert not any(s.forced for s in steps) and all(s.rule_pair == s.pair for s in steps)


@pytest.mark.parametrize("method", METHODS)
def test_blocking_l_o_makes_ow_then_low(method):
    steps = list(train_steps(SENNRICH, **LESSON, block=[(L, O)], method=method))
    # Step 3: (l,o) is out, so (o,w) 7 wins alone; then l + ow, 7 again: low comes the other way.
    assert merged(steps) == [(b"es", 9), (b"est", 9), (b"ow", 7), (b"low", 7), (b"ew", 6), (b"new", 6)]
    assert steps[2].pair == (O, W) and steps[2].ties == ((O, W),)
    assert steps[3].pair == (L, 258)
    assert all((L, O) not in [r.pair for r in s.top_pairs] for s in steps)
    assert steps[2].tokens_before == 94 - 18 and steps[2].tokens_after == 94 - 18 - 7


@pytest.mark.parametrize("method", METHODS)
def test_forcing_l_o_at_step_1_says_what_the_rule_chose(method):
    steps = list(train_steps(SENNRICH, **LESSON, force={1: (L, O)}, top_k=3, method=method))
    first = steps[0]
    assert (first.token, first.count, first.replaced, first.forced) == (b"lo", 7, 7, True)
    assert first.rule_pair == (101, 115)  # (e, s): 9, the rule's choice
    assert first.top_pairs[0].pair == (101, 115) and first.ties == ((101, 115), (115, 116))
    assert (first.tokens_before, first.tokens_after) == (94, 87)
    assert merged(steps[1:4]) == [(b"es", 9), (b"est", 9), (b"low", 7)]
    assert not any(s.forced for s in steps[1:])


@pytest.mark.parametrize("method", METHODS)
def test_breaking_a_tie_the_other_way(method):
    # At step 3 (l,o) and (o,w) tie at 7 and lowest-id takes (l,o); force (o,w) instead.
    steps = list(train_steps(SENNRICH, **LESSON, force={3: (O, W)}, method=method))
    assert steps[2].token == b"ow" and steps[2].rule_pair == (L, O) and steps[2].tied
    assert steps[3].token == b"low" and steps[3].pair == (L, 258)


@pytest.mark.parametrize("method", METHODS)
def test_a_forced_pair_that_does_not_occur_names_those_that_do(method):
    trainer = train_steps(SENNRICH, **LESSON, force={2: (L, O), 3: (L, O + 1)}, method=method)
    steps = []
    with pytest.raises(ValueError) as error:
        steps.extend(trainer)
    message = str(error.value)
    assert len(steps) == 2  # steps 1 and 2 happened; step 3 cannot
    assert "the pair forced at step 3, (108, 112) = b'l' + b'p', does not occur at step 3" in message
    # By hand, after es and lo: (es,t) 9, (lo,w) 7, (e,w) (n,e) (w,es) 6, (d,es) (i,d) (w,i) 3, (w,e) (e,r) 2.
    assert "the 10 pairs that occur there, most frequent first: (256, 116) = b'es' + b't' ×9, " in message
    assert (
        "(257, 119) = b'lo' + b'w' ×7, (101, 119) = b'e' + b'w' ×6, (110, 101) = b'n' + b'e' ×6," in message
    )
    assert message.endswith("(119, 105) = b'w' + b'i' ×3 and 2 more")


@pytest.mark.parametrize("method", METHODS)
def test_a_forced_id_not_made_yet_is_named(method):
    with pytest.raises(ValueError, match=r"\(300, 97\), an id not made yet .* ids 0\.\.255"):
        list(train_steps("abab", vocab_size=400, pattern="none", force={1: (300, 97)}, method=method))


@pytest.mark.parametrize("method", METHODS)
def test_a_forced_step_after_training_stops_says_where_it_stopped(method):
    trainer = train_steps("abab", vocab_size=300, pattern="none", force={5: (97, 98)}, method=method)
    with pytest.raises(
        ValueError, match=r"step 5 is forced, but training stops after 2 merge\(s\) \(no pair"
    ):
        list(trainer)


def test_a_forced_step_past_vocab_size_is_refused_before_training():
    with pytest.raises(
        ValueError, match=r"a forced step is 9, out of range 1\.\.3; steps are numbered 1\.\.3"
    ):
        TrainOptions(vocab_size=259, force={9: (97, 98)})


@pytest.mark.parametrize(
    ("block", "force", "message"),
    [
        ([(97, 98)], {1: (97, 98)}, r"pair \(97, 98\) is both blocked and forced at step 1"),
        ((), {1: (97, 98), 2: (97, 98)}, r"forced at steps 1 and 2, but a pair is merged once"),
        ((), {0: (97, 98)}, r"a forced step is 0, out of range 1\.\.44"),
        ((), {1: (97,)}, r"is not a pair of token ids"),
        ((), {1: (97, 300)}, r"holds 300, not a token id; ids are whole numbers from 0 to 299"),
        ([(97, -1)], {}, r"holds -1, not a token id"),
        ("ab", {}, r"block must be a collection of \(left id, right id\) pairs"),
        ((), [(1, 2, 3)], r"force entry \(1, 2, 3\) is not \(step, pair\)"),
    ],
)
def test_bad_blocks_and_forces_are_clear_errors(block, force, message):
    with pytest.raises(ValueError, match=message):
        TrainOptions(vocab_size=300, block=block, force=force)


@pytest.mark.parametrize("method", METHODS)
def test_when_every_pair_left_is_blocked_training_says_so(method):
    trainer = train_steps("abab", vocab_size=300, pattern="none", block=[(97, 98), (98, 97)], method=method)
    assert list(trainer) == [] and trainer.stop_reason == STOP_ONLY_BLOCKED
    trainer = train_steps("a", vocab_size=300, pattern="none", block=[(97, 98)], method=method)
    assert list(trainer) == [] and trainer.stop_reason == STOP_NO_PAIRS


def test_train_takes_block_and_force_too():
    tok = train(SENNRICH, **LESSON, block=[(L, O)], force={5: (110, 101)})
    steps = list(train_steps(SENNRICH, **LESSON, block=[(L, O)], force={5: (110, 101)}))
    assert tok.merges == [s.pair for s in steps]
    assert [tok.vocab[i] for i in tok.merge_ids][2:5] == [b"ow", b"low", b"ne"]


# ----- branches --------------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
def test_a_branch_reuses_the_corpus_and_yields_from_the_branch_point(method, monkeypatch):
    real = train_steps(SENNRICH, **LESSON, method=method)
    real_steps = list(real)

    def no_pretokenizing(*args, **kwargs):
        raise AssertionError("a branch must not pre-tokenize the text again")

    monkeypatch.setattr(corpus_module.Corpus, "count", no_pretokenizing)
    what_if = real.branch(3, block=[(L, O)])
    assert what_if.corpus is real.corpus and what_if.first_step == 3
    steps = list(what_if)
    assert [s.index for s in steps] == [3, 4, 5, 6]
    assert merged(steps) == [(b"ow", 7), (b"low", 7), (b"ew", 6), (b"new", 6)]
    assert what_if.merges[:2] == real.merges[:2] and what_if.initial_sequence == real.initial_sequence
    assert steps[0].tokens_before == real_steps[1].tokens_after
    # the parent is untouched and can branch again
    assert [s.token for s in real.branch(3, force={3: (O, W)})][:2] == [b"ow", b"low"]


def test_a_branch_of_a_branch_keeps_the_forces_before_its_point():
    real = train_steps(SENNRICH, **LESSON)
    list(real)
    first = real.branch(1, force={1: (L, O)})
    list(first)
    second = first.branch(3, block=[(O, W)])
    assert second.options.force == ((1, (L, O)),) and second.options.block == ((O, W),)
    assert next(second).token == b"est"


@pytest.mark.parametrize(
    ("at", "kwargs", "message"),
    [
        (0, {}, r"a branch starts at a step from 1 to 7 .* not 0"),
        (8, {}, r"a branch starts at a step from 1 to 7"),
        (4, {"force": {2: (L, O)}}, r"step 2 is before the branch point 4: the branch shares steps 1 to 3"),
        (4, {"block": [(101, 115)]}, r"pair \(101, 115\) was merged at step 1, before the branch point 4"),
    ],
)
def test_bad_branches_are_clear_errors(at, kwargs, message):
    real = train_steps(SENNRICH, **LESSON)
    list(real)
    with pytest.raises(ValueError, match=message):
        real.branch(at, **kwargs)


# ----- hypothesis: the two trainers agree, and a branch is training from scratch -------------------

small_text = st.text(alphabet=st.sampled_from(list("aab c\n机é😀")), min_size=0, max_size=40)
ids = st.sampled_from([32, 97, 98, 99, 10, 0xC3, 0xA9, 256, 257, 258, 259, 260])
pairs = st.tuples(ids, ids)


def records(steps):
    return [
        (s.pair, s.count, s.replaced, s.ties, s.top_pairs, s.sequence, s.tokens_after, s.forced, s.rule_pair)
        for s in steps
    ]


def run(trainer):
    """The records a trainer yields, and how it ended: its stop reason or its error message."""
    out = []
    try:
        out.extend(trainer)
    except ValueError as error:
        return records(out), f"error: {error}"
    return records(out), trainer.stop_reason


@settings(max_examples=80, deadline=None)
@given(
    text=small_text,
    pattern=st.sampled_from([p for p in PATTERNS if p != "cl100k"]),
    tie_break=st.sampled_from(TIE_BREAKS),
    block=st.lists(pairs, max_size=4),
    data=st.data(),
)
def test_fast_equals_textbook_with_random_blocks_and_forces(text, pattern, tie_break, block, data):
    options = dict(vocab_size=256 + 12, pattern=pattern, tie_break=tie_break, top_k=3, block=block)
    # One force that can happen (a pair from the table at a step of the run without it), and maybe one
    # at random, which mostly cannot: then both trainers must stop at the same step with the same message.
    steps = list(train_steps(text, **options, method="textbook"))
    force = {}
    if steps:
        k = data.draw(st.integers(1, len(steps)), label="forced step")
        force[k] = data.draw(st.sampled_from([r.pair for r in steps[k - 1].top_pairs]), label="forced pair")
    force |= data.draw(st.dictionaries(st.integers(1, 12), pairs, max_size=1), label="random force")
    try:
        TrainOptions(**options, force=force)
    except ValueError:
        return  # a blocked pair forced, or one pair forced twice: refused before training
    fast = run(train_steps(text, **options, force=force))
    assert fast == run(train_steps(text, **options, force=force, method="textbook"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=small_text,
    pattern=st.sampled_from(["none", "whitespace", "gpt2"]),
    tie_break=st.sampled_from(TIE_BREAKS),
    method=st.sampled_from(METHODS),
    data=st.data(),
)
def test_a_branch_yields_what_training_from_scratch_with_its_options_yields(
    text, pattern, tie_break, method, data
):
    options = dict(vocab_size=256 + 15, pattern=pattern, tie_break=tie_break, top_k=4)
    real = train_steps(text, **options, method=method)
    real_steps = list(real)
    at = data.draw(st.integers(1, len(real_steps) + 1), label="at")
    block, force = [], {}
    if at <= len(real_steps):
        step = real_steps[at - 1]
        how = data.draw(st.sampled_from(["block", "force", "both"]), label="how")
        if how in ("block", "both"):
            block = [step.pair]
        if how in ("force", "both"):
            others = [r.pair for r in step.top_pairs if r.pair not in block]
            if others:
                force = {at: data.draw(st.sampled_from(others), label="forced")}
    branch = real.branch(at, block=block, force=force)
    scratch = train_steps(text, **options, block=block, force=force, method=method)
    branch_run, scratch_run = run(branch), run(scratch)
    # Steps before the branch point are the real ones (a block can change their tables, never their pairs).
    assert branch_run[1] == scratch_run[1]
    assert branch_run[0] == scratch_run[0][at - 1 :]
    assert branch.merges == scratch.merges
    assert branch.tokenizer().vocab == scratch.tokenizer().vocab
