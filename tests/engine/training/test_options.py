"""Options are checked with clear messages; stop reasons are reported."""

import pytest

from bpe_core import TIE_BREAKS, train, train_steps
from bpe_core.training import STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_VOCAB_SIZE


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"vocab_size": 100}, "at least 256"),
        ({"vocab_size": 256, "special_tokens": ["<s>"]}, "at least 257"),
        ({"vocab_size": 10**9}, "out of range"),
        ({"vocab_size": "300"}, "whole number"),
        ({"vocab_size": 300, "tie_break": "random"}, "lexicographic"),
        ({"vocab_size": 300, "pattern": "("}, "not a valid regex"),
        ({"vocab_size": 300, "pattern": ""}, "empty"),
        ({"vocab_size": 300, "min_frequency": 0}, "min_frequency"),
        ({"vocab_size": 300, "special_tokens": [""]}, "non-empty"),
        ({"vocab_size": 300, "special_tokens": "<s>"}, "list of strings"),
        ({"vocab_size": 300, "special_tokens": ["<s>", "<s>"]}, "twice"),
    ],
)
def test_bad_options_are_clear_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        train_steps("hello world", **kwargs)


def test_lone_surrogate_is_a_clear_error():
    with pytest.raises(ValueError, match=r"lone surrogate U\+D800 at character 2"):
        train("ab\ud800cd", vocab_size=300)


def test_stop_reasons():
    full = train_steps("abab abab", vocab_size=257, pattern="none")
    assert len(list(full)) == 1 and full.stop_reason == STOP_VOCAB_SIZE
    empty = train_steps("", vocab_size=300)
    assert list(empty) == [] and empty.stop_reason == STOP_NO_PAIRS and empty.initial_tokens == 0
    one = train_steps("x", vocab_size=300)
    assert list(one) == [] and one.stop_reason == STOP_NO_PAIRS and one.initial_tokens == 1
    rare = train_steps("ab ab cd", vocab_size=300, pattern="whitespace", min_frequency=2)
    assert [s.token for s in rare] == [b"ab"] and rare.stop_reason == STOP_MIN_FREQUENCY
    trainer = train_steps("abcabc", vocab_size=1000, pattern="none")
    steps = list(trainer)
    assert trainer.stop_reason == STOP_NO_PAIRS and steps[-1].tokens_after == 1
    assert trainer.finished and list(trainer) == []


def test_special_tokens_are_never_merged_or_counted():
    text = "ab<|eot|>ab<|eot|>ab"
    steps = train_steps(text, vocab_size=300, pattern="none", special_tokens=["<|eot|>"])
    made = [s.token for s in steps]
    assert made == [b"ab"]  # nothing may join a special token or cross one
    assert steps.special_tokens == {"<|eot|>": 256}
    assert steps.initial_tokens == 6 + 2  # six bytes + two special tokens
    tok = steps.tokenizer()
    assert tok.encode(text) == [257, 256, 257, 256, 257]


def test_vocab_size_counts_bytes_specials_and_merges():
    tok = train("the theme then there " * 5, vocab_size=262, special_tokens=["<a>", "<b>"])
    assert len(tok.vocab) == 262 and len(tok.merges) == 4


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_every_tie_rule_trains(tie_break):
    tok = train("abc abd abe bcd", vocab_size=262, tie_break=tie_break, pattern="none")
    assert tok.decode(tok.encode("abcde")) == "abcde"


def test_lexicographic_prefers_greater_bytes_and_longer_prefix():
    # (b, a) and (a, b) tie; "b" > "a" wins.
    assert next(iter(train_steps("ab ba", vocab_size=257, pattern="whitespace"))).token == b"ba"
    # ("ab","c") vs ("ab","") cannot tie, but ("a","bc")/("a","b") style prefixes: b"bc" > b"b".
    steps = list(train_steps("xbc xb", vocab_size=258, pattern="none", tie_break="lexicographic"))
    assert steps[0].token == b"xb"


def test_first_seen_takes_the_earliest_pair():
    steps = list(train_steps("cd ab ab cd", vocab_size=257, pattern="whitespace", tie_break="first-seen"))
    assert steps[0].token == b"cd"
    steps = list(train_steps("ab cd ab cd", vocab_size=257, pattern="whitespace", tie_break="first-seen"))
    assert steps[0].token == b"ab"


def test_hf_rule_ranks_bytes_by_their_gpt2_character():
    # ' ' is 'Ġ' (U+0120) in GPT-2's alphabet, so it ranks after every letter: (x, y) beats (' ', x).
    steps = list(train_steps(" xy", vocab_size=257, pattern="none", tie_break="hf"))
    assert steps[0].token == b"xy"
    steps = list(train_steps(" xy", vocab_size=257, pattern="none", tie_break="lowest-id"))
    assert steps[0].token == b" x"


def test_parallel_pretokenization_counts_the_same_chunks(monkeypatch):
    from bpe_core.pretokenizer import pretokenizer

    text = ("It's 2024.\nThe  cat sat; 机器学习!\n\n  indented\tline\r\n" * 300) + "<|endoftext|>tail"
    monkeypatch.setattr(pretokenizer, "PARALLEL_MIN_CHARS", 1000)
    for pattern in ("gpt2", "gpt4", "whitespace"):
        pre = pretokenizer.PreTokenizer(pattern, special_tokens=["<|endoftext|>"])
        serial = pre.count_chunks(text, workers=1)
        parallel = pre.count_chunks(text, workers=2)
        assert parallel == serial
        assert list(parallel[0]) == list(serial[0])  # first-occurrence order kept (first-seen rule)


# ----- the preview: the sequence a student watches -----
@pytest.mark.parametrize("pattern", ["none", "whitespace", "gpt2"])
def test_preview_of_a_long_text_is_its_start_and_each_step_is_its_encoding(pattern: str) -> None:
    text = "the cat sat on the mat, then the cat ran. " * 200 + "<|endoftext|>" + "and again " * 50
    trainer = train_steps(
        text, vocab_size=300, pattern=pattern, special_tokens=["<|endoftext|>"], preview_chars=500
    )
    # never empty (pattern "none" makes the whole text one chunk, longer than any window)
    assert 480 <= len(trainer.preview_text) <= 520
    assert text.startswith(trainer.preview_text)
    for step in trainer:
        tokenizer = trainer.tokenizer()
        assert tokenizer.decode(step.sequence) == trainer.preview_text
        # the same ids as encoding the preview text with the merges so far
        assert list(step.sequence) == tokenizer.encode(trainer.preview_text)


def test_preview_with_pattern_none_is_cut_at_the_window() -> None:
    text = "abc" * 2000
    trainer = train_steps(text, vocab_size=260, pattern="none", preview_chars=100)
    assert trainer.preview_text == text[:100]
    assert trainer.initial_sequence == tuple(text[:100].encode())
