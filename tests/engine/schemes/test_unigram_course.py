"""The Hugging Face course's Unigram example (LLM course, chapter 6, section 7), number by number.

Corpus: ``hug`` 10, ``pug`` 5, ``pun`` 12, ``bun`` 4, ``hugs`` 5; the course's seed vocabulary is the
strict substrings of these words with their frequencies (sum 210).  The course prints:

- the probabilities: each frequency over 210 (``u`` 36/210, ``ug`` 20/210, ...);
- ``pug``: ``p u g`` 0.000389 (it writes 5/210 for ``p`` there; ``p`` occurs 17 times, its own table
  says so, so the product is 0.001322), ``p ug`` and ``pu g`` 0.0022676 each written with the same 5
  (0.007710 with 17);
  "which of those is encountered first" decides;
- the best cuts: hug 0.071428, pug 0.007710, pun 0.006168, bun 0.001451, hugs 0.001701, and the loss 169.8;
- removing ``hug``: ``hug`` becomes ``hu g`` (0.006802) and ``hugs`` stays at 0.001701: the loss rises
  by 23.5;
  removing ``pu`` changes nothing (``pug`` keeps the score with ``p ug``).

Several of the course's words have ties (pun: ``pu n`` = ``p un``); the course lists one cut, we check the
score and that our tie rule (the longest last piece) picks the one the course's own ``encode_word`` picks.
"""

from __future__ import annotations

import math

import pytest

from bpe_core.tokenizer.unigram_lattice import lattice, viterbi
from bpe_core.training.unigram import (
    UnigramTrainer,
    scores_from_counts,
)
from bpe_core.training.unigram_fast import loss_increases_fast
from bpe_core.training.unigram_loss import corpus_loss, loss_increases_textbook
from bpe_core.training.unigram_records import UnigramOptions

WORDS = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
SEED = {
    "h": 15, "u": 36, "g": 20, "hu": 15, "ug": 20, "p": 17, "pu": 17, "n": 16,
    "un": 16, "b": 4, "bu": 4, "s": 5, "hug": 15, "gs": 5, "ugs": 5,
}  # fmt: skip
SCORES = scores_from_counts(SEED)


def printed(probability: float, shown: float) -> bool:
    """Whether the course's six decimals show ``probability`` (it cuts some, rounds others: 0.071428 for
    15/210 = 0.0714286, 0.001701 for 0.0017007)."""
    return abs(probability - shown) < 1e-6


def course_encode_word(word: str, model: dict[str, float]) -> list[str]:
    """The course's ``encode_word`` (scores are -log p, smaller is better), written again here."""
    best = [{"start": 0, "score": 1.0}] + [{"start": None, "score": None} for _ in word]
    for start in range(len(word)):
        at_start = best[start]["score"]
        for end in range(start + 1, len(word) + 1):
            token = word[start:end]
            if token in model and at_start is not None:
                score = model[token] + at_start
                if best[end]["score"] is None or best[end]["score"] > score:
                    best[end] = {"start": start, "score": score}
    pieces, end = [], len(word)
    while end > 0:
        start = best[end]["start"]
        pieces.insert(0, word[start:end])
        end = start
    return pieces


def test_initial_probabilities_are_frequency_over_210():
    assert sum(SEED.values()) == 210
    for piece, n in SEED.items():
        assert math.exp(SCORES[piece]) == pytest.approx(n / 210, rel=1e-12)
    assert math.exp(SCORES["ug"]) == pytest.approx(0.0952381, rel=1e-6)


@pytest.mark.parametrize(
    ("word", "probability", "ties"),
    [
        ("hug", 0.071428, [("hug",)]),
        ("pug", 0.007710, [("p", "ug"), ("pu", "g")]),
        ("pun", 0.006168, [("p", "un"), ("pu", "n")]),
        ("bun", 0.001451, [("b", "un"), ("bu", "n")]),
        ("hugs", 0.001701, [("h", "ugs"), ("hu", "gs"), ("hug", "s")]),
    ],
)
def test_best_segmentations_and_their_scores(word, probability, ties):
    best = viterbi(word, SCORES)
    assert printed(math.exp(best.score), probability)
    lat = lattice(word, SCORES)
    top = [s.pieces for s in lat.segmentations if math.isclose(s.score, best.score, rel_tol=1e-12)]
    assert sorted(top) == sorted(ties)
    # our tie rule picks what the course's own code picks
    model = {p: -math.log(n / 210) for p, n in SEED.items()}
    assert list(best.pieces) == course_encode_word(word, model)
    assert lat.best == best and lat.segmentations[0].pieces == best.pieces


def test_pug_every_segmentation():
    segs = {s.pieces: math.exp(s.score) for s in lattice("pug", SCORES).segmentations}
    shown = {("p", "u", "g"): 0.001322, ("p", "ug"): 0.007710, ("pu", "g"): 0.007710}
    assert segs.keys() == shown.keys()
    assert all(printed(segs[k], shown[k]) for k in shown)


def test_loss_is_169_8():
    loss, tokens = corpus_loss(WORDS, SCORES, 3)
    assert round(loss, 1) == 169.8
    assert tokens == 10 + 2 * (5 + 12 + 4 + 5)


@pytest.mark.parametrize("increases", [loss_increases_textbook, loss_increases_fast])
def test_removing_hug_costs_23_5_and_pu_nothing(increases):
    got = increases(WORDS, SCORES, ["hug", "pu"], 3)
    assert round(got["hug"], 1) == 23.5
    expected = 10 * (math.log(15 / 210) - math.log(15 / 210 * 20 / 210))
    assert got["hug"] == pytest.approx(expected, rel=1e-12)
    assert got["pu"] == 0.0
    without_hug = {p: s for p, s in SCORES.items() if p != "hug"}
    for word, shown in [("hug", 0.006802), ("hugs", 0.001701)]:
        assert printed(math.exp(viterbi(word, without_hug).score), shown)


def test_the_courses_training_loop_with_its_seed():
    """The course's loop: no EM (probabilities are the seed counts renormalized), prune by loss increase."""
    trainer = UnigramTrainer(
        WORDS,
        UnigramOptions(vocab_size=9, em_iterations=0, shrinking_factor=0.9),
        seed=SEED,
        method="textbook",
    )
    assert trainer.seed.loss == pytest.approx(169.8, abs=0.05)
    rounds = list(trainer)
    first = rounds[0]
    assert first.loss_before == pytest.approx(169.8, abs=0.05)
    # the course removes 10% a round: 16 pieces (with <unk>) -> 14
    assert (first.vocab_size_before, first.vocab_size) == (16, 14)
    assert all(p.increase == 0.0 for p in first.pruned)
    assert rounds[-1].vocab_size == 9 and trainer.stop_reason
    assert set(trainer.scores) >= set("hugpnbs")  # single characters are never pruned
