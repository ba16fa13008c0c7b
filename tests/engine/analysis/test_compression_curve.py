"""The one-pass curve must equal encoding with ``with_merges(k)``, token for token."""

from __future__ import annotations

import random

import pytest

import bpe_core
from bpe_core import Tokenizer, TrainOptions
from bpe_core.analysis import curves as cc
from bpe_core.analysis.scripts import SPECIAL, text_categories
from bpe_core.training import STOP_NO_PAIRS_IN_CHUNKS

WORDS = [
    "the",
    "lighthouse",
    "keeper",
    "walked",
    "down",
    "to",
    "the",
    "harbour",
    "every",
    "evening",
    "and",
    "counted",
    "the",
    "boats",
    "that",
    "came",
    "back",
    "lower",
    "lowest",
    "newest",
    "widest",
    "2024",
    "1999",
    "3.14159",
    "don't",
    "it's",
    "we'll",
]
ZH = "机器学习是人工智能的一个分支它让计算机从数据中学习规律"
RU = ["машинное", "обучение", "это", "раздел", "искусственного", "интеллекта"]
EMOJI = ["😀", "👍🏽", "👨‍👩‍👧", "🚀"]


def make_text(seed: int, n: int = 400, *, specials: tuple[str, ...] = ()) -> str:
    """A mixed-script text, different for each seed (no data files needed)."""
    rng = random.Random(seed)
    parts: list[str] = []
    for _ in range(n):
        roll = rng.random()
        if roll < 0.6:
            parts.append(rng.choice(WORDS))
        elif roll < 0.72:
            start = rng.randrange(len(ZH) - 4)
            parts.append(ZH[start : start + rng.randint(2, 6)])
        elif roll < 0.82:
            parts.append(rng.choice(RU))
        elif roll < 0.87:
            parts.append(rng.choice(EMOJI))
        elif roll < 0.93:
            parts.append(rng.choice([",", ".", "!", "?", "\n", "\n\n", "  ", "\t"]))
        elif specials:
            parts.append(rng.choice(specials))
        else:
            parts.append("aaaa" * rng.randint(1, 3))  # overlapping pairs
    return " ".join(parts)


CASES = [
    ("none", ()),
    ("whitespace", ()),
    ("gpt2", ()),
    ("gpt4", ()),
    ("gpt2", ("<|endoftext|>", "<|pad|>")),
    ("none", ("<|endoftext|>",)),
]


@pytest.mark.parametrize(("pattern", "specials"), CASES)
def test_curve_equals_direct_encoding(pattern: str, specials: tuple[str, ...]) -> None:
    train_text = make_text(1, specials=specials)
    held = make_text(2, n=150, specials=specials)
    tok = bpe_core.train(
        train_text, vocab_size=256 + len(specials) + 150, pattern=pattern, special_tokens=specials
    )
    K = len(tok.merges)
    assert K > 100
    curve = cc.text_curve(tok, held, by_script=True)
    assert len(curve.tokens) == K + 1
    categories = text_categories(held, pattern=pattern, special_tokens=specials)
    for k in sorted({0, 1, 2, 5, 17, K // 3, K // 2, K - 1, K}):
        small = tok.with_merges(k)
        assert curve.tokens[k] == len(small.encode(held)), f"k={k}"
        # per script: each token goes to the category of its first character
        expected: dict[str, int] = {}
        for span in small.token_spans(held):
            cat = SPECIAL if span.id in small.special_tokens.values() else categories[span.start]
            expected[cat] = expected.get(cat, 0) + 1
        got = {cat: counts[k] for cat, counts in curve.script_tokens.items() if counts[k]}
        assert got == expected, f"k={k}"
    assert curve.bytes == len(held.encode())
    assert sum(curve.script_bytes.values()) == curve.bytes
    assert sum(curve.script_chars.values()) == curve.chars == len(held)
    assert all(a >= b for a, b in zip(curve.tokens, curve.tokens[1:]))


@pytest.mark.parametrize("pattern", ["none", "gpt2"])
def test_heap_pass_equals_rescan_pass(pattern: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = make_text(3)
    tok = bpe_core.train(text, vocab_size=400, pattern=pattern)
    held = make_text(4, n=200)
    monkeypatch.setattr(cc, "LONG_CHUNK", 0)  # every chunk through the heap
    heap = cc.text_curve(tok, held, by_script=True)
    monkeypatch.setattr(cc, "LONG_CHUNK", 10**9)  # every chunk through the rescan
    scan = cc.text_curve(tok, held, by_script=True)
    assert heap == scan
    assert heap.tokens[-1] == len(tok.encode(held))


def test_training_run_curves() -> None:
    specials = ("<|endoftext|>",)
    train_text = make_text(5, specials=specials)
    held = {"mixed": make_text(6, n=100, specials=specials), "chinese": ZH * 3}
    seen: list[float] = []
    run = cc.compression_curve(
        train_text,
        TrainOptions(vocab_size=600, pattern="gpt4", special_tokens=specials),
        heldout=held,
        by_script=True,
        progress=lambda f, m: seen.append(f),
    )
    tok = run.tokenizer
    assert run.base_vocab == 257 and run.merges == len(tok.merges) == len(run.gains)
    assert run.train.tokens == cc.text_curve(tok, train_text).tokens
    assert [a - b for a, b in zip(run.train.tokens, run.train.tokens[1:])] == list(run.gains)
    assert all(g >= 1 for g in run.gains) and all(c >= g for c, g in zip(run.counts, run.gains))
    assert [c.name for c in run.heldout] == ["mixed", "chinese"]
    for curve, text in zip(run.heldout, held.values()):
        for k in (0, run.merges // 2, run.merges):
            assert curve.tokens[k] == len(tok.with_merges(k).encode(text))
    assert set(run.heldout[1].script_tokens) == {"Han"}
    assert seen and seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen)
    assert run.train.bytes_per_token(run.merges) > run.train.bytes_per_token(0)


def test_stops_early_and_caps_k() -> None:
    run = cc.compression_curve("ab ab ab", TrainOptions(vocab_size=5000, pattern="gpt2"))
    assert run.stop_reason == STOP_NO_PAIRS_IN_CHUNKS  # "ab" and " ab" are chunks: never merged across
    assert run.merges == 2 and run.merges_for(4096) == 2 and run.merges_for(257) == 1
    assert run.train.at(10_000) == run.train.tokens[-1] == 3  # ab, ␣ab, ␣ab
    with pytest.raises(ValueError, match="vocab size"):
        run.merges_for(10)


def test_empty_and_bad_inputs() -> None:
    tok = bpe_core.train("hello hello", vocab_size=260)
    assert cc.text_curve(tok, "").tokens == (0,) * (len(tok.merges) + 1)
    options = bpe_core.TrainOptions(vocab_size=258, pattern="none")
    with pytest.raises(ValueError, match="not one string"):
        cc.compression_curve("hello", options, heldout="hello")
    with pytest.raises(ValueError, match="must be a str"):
        cc.compression_curve("hello", options, heldout=[b"bytes"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="lone surrogate"):
        cc.text_curve(tok, "a\ud800b")
    with pytest.raises(ValueError, match=r"bpe_core\.Tokenizer"):
        cc.text_curve("not a tokenizer", "x")  # type: ignore[arg-type]


def test_rejects_merges_out_of_prefix_order() -> None:
    vocab = {i: bytes([i]) for i in range(256)}
    vocab[256], vocab[257] = b"ab", b"abc"
    tok = Tokenizer(vocab, [(256, ord("c")), (ord("a"), ord("b"))], pattern="none")
    with pytest.raises(ValueError, match="prefix order"):
        cc.text_curve(tok, "abc")


def test_heap_pass_skips_stale_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    """``(a, b)`` is queued, then ``b`` merges with its right neighbour first: the queued entry is stale and
    must not merge ``a`` with the new token ahead of a lower-ranked merge on ``a``'s left."""
    vocab = {i: bytes([i]) for i in range(256)}
    p, a, b, c = (ord(x) for x in "pabc")
    vocab.update({256: b"bc", 257: b"ab", 258: b"pa", 259: b"abc"})
    tok = Tokenizer(vocab, [(b, c), (a, b), (p, a), (a, 256)], pattern="none")
    monkeypatch.setattr(cc, "LONG_CHUNK", 0)
    curve = cc.text_curve(tok, "pabc pabc")
    assert curve.tokens == tuple(len(tok.with_merges(k).encode("pabc pabc")) for k in range(5))
