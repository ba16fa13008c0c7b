"""Round trips on hostile text, and fast == textbook under every pattern and tie rule (hypothesis)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core import PATTERNS, TIE_BREAKS, train, train_steps
from bpe_core.primitives import merge_pair
from bpe_core.training.records import ties_kept

CORPUS = (
    "Hello world! Hello, hello world. 自然语言处理是人工智能的一个分支。机器学习 机器学习\n"
    "def f(x):\r\n\treturn x + 1  # 😀👩‍👩‍👧 café naïve 2024-11-30 <|endoftext|> aaaa\n"
)
HOSTILE = [
    "",
    " ",
    "。",
    "自然语言处理",
    "hello world hello",
    "a" * 1000,
    "霰龘",
    "<|endoftext|>",
    "👩‍👩‍👧‍👦 family",
    "line1\r\nline2\r\n",
    "\ttab\t\tstop",
    "  lead and trail  ",
    "\x00\x01\x7f",
    "e\u0301 combining",
    "\U0010ffff",
]


@pytest.fixture(scope="module", params=["none", "whitespace", "gpt2", "gpt4"])
def tokenizer(request):
    return train(CORPUS * 3, vocab_size=400, pattern=request.param, special_tokens=["<|endoftext|>"])


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_texts_round_trip(tokenizer, text):
    ids = tokenizer.encode(text)
    assert tokenizer.decode(ids) == text
    assert tokenizer.decode_bytes(ids) == text.encode("utf-8")


def test_special_token_is_one_token(tokenizer):
    assert tokenizer.encode("<|endoftext|>") == [tokenizer.special_tokens["<|endoftext|>"]]
    assert len(tokenizer.encode_ordinary("<|endoftext|>")) > 1


def test_lone_surrogate_is_a_clear_error(tokenizer):
    with pytest.raises(ValueError, match="lone surrogate"):
        tokenizer.encode("ok \udcff")


def sequential_encode(tok, text):
    """Every merge applied in order to each chunk (an oracle for merges in training order; the
    textbook encoder, bpe_core.tokenizer.textbook, merges the lowest rank present instead)."""
    out = []
    for segment, special in tok.pretokenizer.segments(text):
        if special:
            out.append(tok.special_tokens[segment])
            continue
        for chunk in tok.pretokenizer.split(segment):
            ids = list(chunk.encode())
            for (a, b), new_id in zip(tok.merges, tok.merge_ids):
                ids = merge_pair(ids, (a, b), new_id)
            out.extend(ids)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=80))
def test_random_text_round_trips_and_matches_the_textbook_encoder(tokenizer, text):
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        with pytest.raises(ValueError, match="lone surrogate"):
            tokenizer.encode(text)
        return
    ids = tokenizer.encode(text)
    assert tokenizer.decode(ids) == text
    assert ids == sequential_encode(tokenizer, text)


def test_training_text_encodes_to_the_trainers_token_count():
    trainer = train_steps(CORPUS * 2, vocab_size=350, pattern="gpt2", special_tokens=["<|endoftext|>"])
    trainer.run()
    assert len(trainer.tokenizer().encode(CORPUS * 2)) == trainer.tokens


small_text = st.text(alphabet=st.sampled_from(list("aab c\n机é😀")), max_size=40)


def records(steps):
    return [
        (
            s.pair,
            s.count,
            s.replaced,
            s.ties,
            s.tie_count,
            s.top_pairs,
            s.sequence,
            s.tokens_after,
            s.distinct_pairs,
        )
        for s in steps
    ]


@settings(max_examples=60, deadline=None)
@given(
    text=small_text,
    pattern=st.sampled_from([p for p in PATTERNS if p != "cl100k"] + [r"\w+"]),
    tie_break=st.sampled_from(TIE_BREAKS),
    top_k=st.sampled_from([0, 2, 20]),
    special=st.booleans(),
)
def test_fast_trainer_equals_textbook_trainer(text, pattern, tie_break, top_k, special):
    options = dict(
        vocab_size=256 + 1 + 25,
        pattern=pattern,
        tie_break=tie_break,
        top_k=top_k,
        special_tokens=["c\n"] if special else [],
    )
    fast = train_steps(text, **options)
    textbook = train_steps(text, **options, method="textbook")
    steps = list(fast)
    assert records(steps) == records(textbook)
    assert fast.stop_reason == textbook.stop_reason
    assert fast.initial_sequence == textbook.initial_sequence
    for k in (1, len(steps) // 2 + 1, len(steps) + 1):  # every pair counted, on demand, by both trainers
        table = fast.pair_table(k)
        assert table == textbook.pair_table(k)
        if k <= len(steps) and top_k:
            assert len(table) == steps[k - 1].distinct_pairs and table[:top_k] == steps[k - 1].top_pairs


def test_plain_train_gives_the_same_merges_as_the_step_generator():
    for tie_break in TIE_BREAKS:
        a = train(CORPUS, vocab_size=330, tie_break=tie_break)
        b = train_steps(CORPUS, vocab_size=330, tie_break=tie_break).run().tokenizer()
        assert a.merges == b.merges, tie_break


def scattered_text(n: int, *, seed: int) -> str:
    """``n`` characters drawn from the 94 printable ASCII ones: thousands of pairs, most counted once, so
    that once the few counted twice are merged, a thousand and more tie (as late in a long run)."""
    rng = random.Random(seed)
    return "".join(chr(rng.randrange(33, 127)) for _ in range(n))


@pytest.mark.parametrize("top_k", [0, 3, 40])
@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_thousands_of_tied_pairs_give_the_textbooks_records(tie_break, top_k):
    """A record names the first ties_kept(top_k) tied pairs and counts them all, as the textbook does."""
    text = scattered_text(1500, seed=len(tie_break) + top_k)
    options = dict(vocab_size=256 + 150, pattern="none", tie_break=tie_break, top_k=top_k)
    fast = train_steps(text, **options)
    textbook = train_steps(text, **options, method="textbook")
    steps = list(fast)
    assert records(steps) == records(textbook)
    assert max(s.tie_count for s in steps) > 1000  # the case this is about
    for s in steps:
        assert len(s.ties) == min(s.tie_count, ties_kept(top_k)) and s.ties[0] == s.rule_pair
        assert s.tied == (s.tie_count > 1)
    for k in (1, 60, len(steps)):  # the ties lead the whole table, and tie_count counts them
        table, step = fast.pair_table(k), steps[k - 1]
        assert [row.pair for row in table if row.count == step.count] == [row.pair for row in table][
            : step.tie_count
        ]
        assert tuple(row.pair for row in table[: len(step.ties)]) == step.ties
