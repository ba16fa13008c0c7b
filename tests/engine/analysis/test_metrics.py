"""Metrics, the train/held-out split and the speed lesson, checked against direct computation."""

from __future__ import annotations

import random

import pytest

import bpe_core
from bpe_core import CharTokenizer, Tokenizer, TrainOptions
from bpe_core.analysis import compression_curve
from bpe_core.analysis.curves import text_curve
from bpe_core.analysis.data_split import split_documents, split_fraction
from bpe_core.analysis.metrics import (
    LESSON_SIZES,
    compression_at,
    oov_rate,
    round_trip,
    sample_chars,
    size_table,
)
from bpe_core.analysis.scripts import text_categories
from bpe_core.analysis.speed_lesson import time_trainers

ENGLISH = (
    "The keeper climbed the stairs of the lighthouse every night, lit the lamp, and watched the "
    "boats come home. In 1999 the lamp was replaced; the keeper kept the old one anyway.\n\n"
) * 6
CHINESE = "机器学习是人工智能的一个分支。它让计算机从数据中学习规律，而不是依靠明确的程序。"
MIXED = ENGLISH + "Привет, мир! 😀 " + CHINESE


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return bpe_core.train(MIXED, vocab_size=600, pattern="gpt2")


def test_compression_matches_direct_encoding(tok: Tokenizer) -> None:
    curve = text_curve(tok, MIXED)
    for k in (0, 50, len(tok.merges)):
        c = compression_at(curve, k)
        n = len(tok.with_merges(k).encode(MIXED))
        assert c.tokens == n
        assert c.bytes_per_token == pytest.approx(len(MIXED.encode()) / n)
        assert c.chars_per_token == pytest.approx(len(MIXED) / n)
        assert c.tokens_per_word == pytest.approx(n / len(MIXED.split()))
    assert compression_at(curve, 0).bytes_per_token == 1.0


def test_oov_rates(tok: Tokenizer) -> None:
    chars = CharTokenizer(ENGLISH)
    held = "Hello 世界, naïve!"
    expected = sum(1 for c in held if c not in set(ENGLISH)) / len(held)
    assert expected > 0
    assert oov_rate(chars, held) == pytest.approx(expected)
    assert oov_rate(chars, ENGLISH) == 0.0
    assert oov_rate(tok, held) == 0.0
    assert oov_rate(tok, "") == 0.0

    class MissingByte(Tokenizer):  # a vocab that lost byte 0xE4 (the lead byte of 世)
        def id_of(self, token: bytes) -> int | None:
            return None if token == b"\xe4" else super().id_of(token)

    broken = MissingByte(tok.vocab, tok.merges, pattern="gpt2")
    assert oov_rate(broken, "世a") == 0.5
    with pytest.raises(ValueError, match="Tokenizer or CharTokenizer"):
        oov_rate("nope", "x")  # type: ignore[arg-type]


def test_round_trip_rates(tok: Tokenizer) -> None:
    trip = round_trip(tok, MIXED)  # default: 100,000 samples
    assert trip.samples == 100_000 and trip.rate == 1.0 and trip.failures == ()
    assert round_trip(tok, MIXED, seed=5) == round_trip(tok, MIXED, seed=5)

    chars = CharTokenizer(ENGLISH)
    draws = random.Random(7).choices(MIXED, k=5000)  # what the metric must draw, computed independently
    known = set(ENGLISH)
    expected = sum(1 for c in draws if c in known) / len(draws)
    got = round_trip(chars, MIXED, samples=5000, seed=7)
    assert expected < 1 and got.rate == pytest.approx(expected)
    assert got.failures and all(c not in known for c in got.failures)

    class Lossy(Tokenizer):  # decodes 'e' wrongly
        def decode(self, ids):  # type: ignore[override]
            return super().decode(ids).replace("e", "E")

    lossy = Lossy(tok.vocab, tok.merges, pattern="gpt2")
    drawn = sample_chars(ENGLISH, samples=2000, seed=1)
    assert round_trip(lossy, "", drawn=drawn).rate == pytest.approx(1 - drawn["e"] / 2000)
    with pytest.raises(ValueError, match="samples"):
        sample_chars("abc", samples=0)


def test_per_script_counts_add_up(tok: Tokenizer) -> None:
    curve = text_curve(tok, MIXED, by_script=True)
    for k in (0, 100, len(tok.merges)):
        assert sum(t[min(k, len(t) - 1)] for t in curve.script_tokens.values()) == curve.tokens[k]
    assert sum(curve.script_bytes.values()) == curve.bytes
    assert {"Latin", "Han", "Cyrillic", "emoji"} <= set(curve.script_tokens)
    cats = text_categories(MIXED, pattern="gpt2")
    assert curve.script_bytes["Han"] == sum(len(c.encode()) for c, cat in zip(MIXED, cats) if cat == "Han")
    han = sum(1 for c in CHINESE if "\u4e00" <= c <= "\u9fff")
    assert curve.script_chars["Han"] == cats.count("Han") >= han
    assert not text_curve(tok, MIXED).script_tokens  # counted only when asked for


def test_size_table_rows() -> None:
    options = TrainOptions(vocab_size=700)
    run = compression_curve(ENGLISH, options, heldout={"chinese": CHINESE}, by_script=True)
    texts = {"train": ENGLISH, "chinese": CHINESE}
    sizes = [*LESSON_SIZES, 300]
    rows = size_table(run, sizes, texts, samples=3000)
    bpe = [r for r in rows if r.tokenizer == "byte-level BPE"]
    assert sorted({r.requested_vocab for r in bpe}) == sorted(sizes)
    for r in bpe:
        assert r.oov_rate == 0.0 and r.round_trip_rate == 1.0
        assert r.merges == min(r.requested_vocab - 256, run.merges)
        assert r.compression.tokens == len(run.tokenizer.with_merges(r.merges).encode(texts[r.text]))
        assert r.vocab_size == 256 + r.merges
    base = {r.text: r for r in rows if r.tokenizer == "character baseline"}
    assert base["train"].oov_rate == 0.0 and base["train"].round_trip_rate == 1.0
    punct = sum(1 for c in CHINESE if c in set(ENGLISH))
    assert base["chinese"].oov_rate == pytest.approx(1 - punct / len(CHINESE))
    assert base["chinese"].round_trip_rate < 0.5
    with pytest.raises(ValueError, match="vocab size"):
        size_table(run, [100], texts)


def test_split_documents_is_deterministic_and_complete() -> None:
    docs = [f"document number {i} " + "word " * i for i in range(20)]
    text = "\n\n".join(docs)
    a = split_documents(text, heldout_fraction=0.25, seed=3)
    assert a == split_documents(text, heldout_fraction=0.25, seed=3)
    assert (a.train_parts, a.heldout_parts) == (15, 5)
    got = sorted(a.train.split("\n\n") + a.heldout.split("\n\n"))
    assert got == sorted(docs)
    assert set(a.train.split("\n\n")).isdisjoint(a.heldout.split("\n\n"))
    tail = split_documents(text, heldout_fraction=0.1)
    assert tail.heldout == "\n\n".join(docs[-2:])
    assert split_documents(text, heldout_fraction=0.25, seed=4).heldout != a.heldout
    with pytest.raises(ValueError, match="at least 2"):
        split_documents("one document only", heldout_fraction=0.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        split_documents(text, heldout_fraction=1.5)


def test_split_fraction_cuts_at_a_boundary() -> None:
    s = split_fraction(ENGLISH, heldout_fraction=0.2)
    assert s.train + s.heldout == ENGLISH
    assert abs(len(s.heldout) - 0.2 * len(ENGLISH)) < 200
    assert s.train[-1] in " \n"
    assert split_fraction(ENGLISH, heldout_fraction=0.2) == s
    with pytest.raises(ValueError, match="two words"):
        split_fraction("word", heldout_fraction=0.5)


def test_speed_lesson() -> None:
    lesson = time_trainers(ENGLISH, TrainOptions(vocab_size=256 + 40))
    assert lesson.same_merges and lesson.merges == 40
    assert lesson.textbook_seconds > 0 and lesson.fast_seconds > 0
    est = lesson.extrapolate(target_bytes=lesson.text_bytes * 1000, target_merges=4000)
    assert est.textbook_seconds == pytest.approx(lesson.textbook_seconds * 1000 * 100)
    assert est.fast_seconds == pytest.approx(lesson.fast_seconds * 1000)
    with pytest.raises(ValueError, match="merges"):
        time_trainers(ENGLISH, TrainOptions(vocab_size=256))
