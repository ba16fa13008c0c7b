"""Unigram training: fast loss increases equal the textbook's, the rounds keep their promises, bad input."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.tokenizer.unigram_lattice import lattice, viterbi
from bpe_core.training.unigram import (
    UnigramTrainer,
    expected_counts,
    scores_from_counts,
    seed_pieces,
    text_words,
    train_unigram,
    unigram_steps,
)
from bpe_core.training.unigram_loss import best_cut, word_edges
from bpe_core.training.unigram_records import UnigramOptions

texts = st.text(alphabet="ab c\nd", min_size=1, max_size=60).filter(lambda t: t.strip())


def _rounds(text: str, vocab_size: int, method: str, **options):
    trainer = unigram_steps(text, vocab_size=vocab_size, method=method, **options)
    return trainer.seed, list(trainer), trainer.tokenizer().pieces


@settings(max_examples=40, deadline=None)
@given(texts, st.integers(0, 30), st.sampled_from([0.5, 0.75, 0.9]), st.integers(0, 2))
def test_fast_rounds_equal_textbook_rounds(text, extra, shrinking, em):
    alphabet = len(set("".join(text_words(text))))
    vocab = alphabet + 1 + extra
    fast = _rounds(text, vocab, "fast", shrinking_factor=shrinking, em_iterations=em, max_piece_length=6)
    textbook = _rounds(
        text, vocab, "textbook", shrinking_factor=shrinking, em_iterations=em, max_piece_length=6
    )
    assert fast == textbook  # every figure of every round, to the bit


@settings(max_examples=40, deadline=None)
@given(texts, st.integers(0, 30))
def test_rounds_prune_the_smallest_increases_down_to_the_target(text, extra):
    words = text_words(text)
    chars = set("".join(words))
    vocab = len(chars) + 1 + extra
    trainer = unigram_steps(text, vocab_size=vocab, max_piece_length=6, top_k=1000)
    size = len(trainer.seed.pieces) + 1
    for r in trainer:
        assert r.vocab_size_before == size and r.vocab_size < size and r.vocab_size >= vocab
        assert r.vocab_size_before - r.vocab_size == len(r.pruned)
        assert r.vocab_size >= min(size, max(vocab, int(0.75 * size)))
        assert not any(len(p.piece) == 1 for p in r.pruned + r.closest_kept)
        if r.pruned and r.closest_kept:
            worst = max((p.increase, p.score, p.piece) for p in r.pruned)
            assert worst <= min((p.increase, p.score, p.piece) for p in r.closest_kept)
        assert all(p.increase >= 0 for p in r.pruned)
        size = r.vocab_size
    assert trainer.vocab_size == min(vocab, len(trainer.seed.pieces) + 1)
    assert chars <= set(trainer.scores)
    tok = trainer.tokenizer()
    assert tok.vocab_size == trainer.vocab_size
    assert tok.decode(tok.encode(text)) == text  # every character was seen


@settings(max_examples=30, deadline=None)
@given(texts)
def test_increase_is_the_loss_without_the_piece_minus_the_loss(text):
    """Brute force: remove the piece, cut every word again, compare the losses."""
    trainer = unigram_steps(text, vocab_size=len(set(text)) + 2, max_piece_length=5)
    candidates = [p for p in trainer.scores if len(p) > 1]
    got = trainer.loss_increases(candidates)
    for piece in candidates:
        without = {p: s for p, s in trainer.scores.items() if p != piece}
        loss = sum(-n * viterbi(w, trainer.scores).score for w, n in trainer.words.items())
        loss_without = sum(-n * viterbi(w, without).score for w, n in trainer.words.items())
        assert got[piece] == pytest.approx(loss_without - loss, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abc", min_size=1, max_size=7), st.randoms(use_true_random=False))
def test_lattice_lists_every_segmentation_and_viterbi_is_its_best(word, rnd):
    pieces = {"".join(p) for n in (1, 2, 3) for p in itertools.product("abc", repeat=n) if rnd.random() < 0.6}
    pieces |= set("abc")
    scores = {p: -rnd.choice([1.0, 2.0, 3.0, 0.5]) for p in pieces}
    lat = lattice(word, scores)
    every = set()
    for cuts in itertools.product([0, 1], repeat=len(word) - 1):
        parts, start = [], 0
        for i, cut in enumerate(cuts, 1):
            if cut:
                parts.append(word[start:i])
                start = i
        parts.append(word[start:])
        if all(p in scores for p in parts):
            every.add(tuple(parts))
    assert {s.pieces for s in lat.segmentations} == every and lat.complete
    for s in lat.segmentations:
        assert s.score == pytest.approx(sum(scores[p] for p in s.pieces))
    assert lat.best.score == max(s.score for s in lat.segmentations)
    assert lat.segmentations[0] == lat.best
    # the tie rule: among the best, the longest last piece, then leftwards
    tied = [s.pieces for s in lat.segmentations if s.score == lat.best.score]
    assert lat.best.pieces == min(tied, key=lambda ps: [-len(p) for p in reversed(ps)])


def test_em_expected_counts_sum_over_all_segmentations():
    """'ab' with pieces a, b, ab: two cuts; the expected count of 'ab' is P(ab) / (P(ab) + P(a)P(b))."""
    scores = {"a": math.log(0.2), "b": math.log(0.3), "ab": math.log(0.5)}
    counts, objective = expected_counts({"ab": 4}, scores, 2)
    z = 0.5 + 0.2 * 0.3
    assert counts["ab"] == pytest.approx(4 * 0.5 / z)
    assert counts["a"] == pytest.approx(4 * 0.06 / z) == pytest.approx(counts["b"])
    assert objective == pytest.approx(-4 * math.log(z))
    new = scores_from_counts(counts)
    assert math.fsum(math.exp(s) for s in new.values()) == pytest.approx(1.0)


def test_em_lowers_its_objective():
    text = "the quick brown fox jumps over the lazy dog and the dog sleeps " * 5
    trainer = unigram_steps(text, vocab_size=40, em_iterations=4)
    losses = trainer.seed.em_losses
    assert all(b <= a + 1e-9 for a, b in itertools.pairwise(losses)) and losses[0] > losses[-1]


def test_seed_rule_and_its_bound():
    words = {"▁hug": 10, "▁hugs": 5, "▁pug": 1}
    seed, candidates, chars = seed_pieces(words, UnigramOptions(vocab_size=10, seed_size=9))
    assert chars == 6 and [p for p, _ in seed[:6]] == [
        "g",
        "u",
        "▁",
        "h",
        "s",
        "p",
    ]  # by count, then code point
    # ten substrings are seen twice or more (▁h ▁hu ▁hug ▁hugs hu hug hugs ug ugs gs), ranked by
    # count x length: ▁hug 15x4, then hug and ▁hu 15x3 (a tie: code-point order); seed_size=9 keeps
    # three after the 6 characters
    assert candidates == 10
    assert [p for p, _ in seed[6:]] == ["▁hug", "hug", "▁hu"]
    assert "ug" not in dict(seed)  # cut by seed_size
    assert "▁p" not in dict(seed_pieces(words, UnigramOptions(vocab_size=10))[0])  # seen once


def test_best_cut_without_a_piece_ignores_only_that_piece():
    scores = {"a": -1.0, "b": -1.0, "ab": -0.5}
    edges = word_edges("ab", scores, 2)
    assert best_cut(2, edges, scores, "ab") == (-2.0, 2)
    assert best_cut(2, edges, scores, "a") == (-0.5, 1)
    assert best_cut(2, edges, scores) == (-0.5, 1)


@pytest.mark.parametrize("score", [-1.0, -70.0])  # products as they are, and in logs (a long word)
def test_expected_counts_are_the_posteriors_of_every_segmentation(score):
    word = "abcabcabca"
    pieces = {
        "a": score,
        "b": score * 1.1,
        "c": score * 0.9,
        "ab": score * 1.5,
        "bc": score * 1.2,
        "abc": score * 2,
    }
    counts, objective = expected_counts({word: 3}, pieces, 3)
    every = [s for s in lattice(word, pieces, limit=10_000).segmentations]
    top = max(s.score for s in every)
    z = math.fsum(math.exp(s.score - top) for s in every)
    for piece in pieces:
        want = 3 * math.fsum(math.exp(s.score - top) * s.pieces.count(piece) for s in every) / z
        assert counts[piece] == pytest.approx(want, rel=1e-9)
    assert objective == pytest.approx(-3 * (top + math.log(z)), rel=1e-12)


def test_words_keep_spaces_and_newlines():
    words = text_words("a  b\n\nc")
    assert words == {"▁a": 1, "▁": 1, "▁b": 1, "\n\n": 1, "c": 1}


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_empty_text_is_refused(text):
    with pytest.raises(ValueError, match="empty; give some text"):
        unigram_steps(text, vocab_size=10)


def test_vocab_smaller_than_the_alphabet_is_refused():
    with pytest.raises(
        ValueError, match=r"smaller than the text's 5 characters \+ <unk>; ask for at least 6"
    ):
        unigram_steps("abcd", vocab_size=5)  # ▁ a b c d
    assert unigram_steps("abcd", vocab_size=6).run().vocab_size == 6


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"vocab_size": 10, "shrinking_factor": 0}, "between 0 and 1"),
        ({"vocab_size": 10, "shrinking_factor": 1.5}, "between 0 and 1"),
        ({"vocab_size": 1}, "out of range 2"),
        ({"vocab_size": 10, "max_piece_length": 0}, "max_piece_length is 0"),
        ({"vocab_size": 10, "em_iterations": -1}, "em_iterations is -1"),
        ({"vocab_size": "10"}, "whole number"),
        ({"vocab_size": 10, "unk_piece": ""}, "unk_piece"),
    ],
)
def test_bad_options_say_how_to_fix_them(options, message):
    with pytest.raises(ValueError, match=message):
        UnigramOptions(**options)


def test_method_must_be_known():
    with pytest.raises(ValueError, match="use one of fast, textbook"):
        UnigramTrainer({"▁a": 1}, UnigramOptions(vocab_size=3), method="quick")


def test_trained_tokenizer_round_trips_and_keeps_the_vocab_size():
    text = "low lower lowest newer newest wider widest\n" * 10 + "  spaced   out\ttabs\n"
    tok = train_unigram(text, vocab_size=30)
    assert tok.vocab_size == 30 and tok.piece(0) == "<unk>"
    assert tok.decode(tok.encode(text)) == text
    assert tok.lost(text).round_trip and not tok.lost(text).unknown
    lost = tok.lost("lowz")
    assert lost.unknown == ((3, 4),) and not lost.round_trip and lost.decoded == "low \u2047 "


def test_a_long_words_lattice_is_bounded():
    scores = {"a": -1.0, "aa": -1.5, "aaa": -2.0}
    lat = lattice("a" * 40, scores)
    assert len(lat.segmentations) == 200 and not lat.complete
    assert (
        lat.segmentations[0] == lat.best and lat.best.pieces == ("a",) + ("aaa",) * 13
    )  # ties: the longest last piece
    with pytest.raises(ValueError, match="at most 64, so ask for a shorter one"):
        lattice("a" * 65, scores)
    with pytest.raises(ValueError, match="ask for 1 to 10000"):
        lattice("aa", scores, limit=0)


def test_a_text_without_spaces_is_cut_into_words_for_training():
    text = "机器学习是人工智能的一个分支它使计算机能够从数据中学习" * 30  # one 'word' of 780 characters
    words = text_words(text, max_word_length=32)
    assert max(map(len, words)) == 32 and sum(len(w) * n for w, n in words.items()) == len(text) + 1
    tok = train_unigram(text, vocab_size=len(set(text)) + 20)
    assert tok.decode(tok.encode(text)) == text


def test_a_seed_smaller_than_the_vocab_size_stops_at_once_and_says_why():
    trainer = unigram_steps("ab ab", vocab_size=50)
    assert list(trainer) == [] and trainer.vocab_size == len(trainer.seed.pieces) + 1 < 50
    assert trainer.stop_reason.startswith("the seed has no more pieces than the vocab size")
    assert (
        unigram_steps("ab ab", vocab_size=trainer.vocab_size).stop_reason
        == "reached the requested vocab size"
    )


@settings(max_examples=30, deadline=None)
@given(texts, st.integers(0, 20), st.sampled_from([0.5, 0.75]))
def test_the_trainers_cuts_are_viterbis_at_every_round(text, extra, shrinking):
    """The cuts kept while the loss is computed are what Viterbi gives every word (ties included), at the
    seed and after each round; a round leaves the dict it replaced as it was."""
    vocab = len(set("".join(text_words(text)))) + 1 + extra
    trainer = unigram_steps(text, vocab_size=vocab, shrinking_factor=shrinking, max_piece_length=6)
    while True:
        cuts = trainer.cuts
        assert set(cuts) == set(trainer.words)
        for word, (score, pieces) in cuts.items():
            best = viterbi(word, trainer.scores, trainer.longest)
            assert best is not None and (score, pieces) == (best.score, best.pieces), word
        kept = dict(cuts)
        if next(trainer, None) is None:
            break
        assert cuts == kept


def test_progress_rises_to_the_end_of_the_seed_and_of_each_round():
    seen: list[tuple[int, int]] = []
    text = " ".join(f"w{i % 97}x{i % 13}" for i in range(3000))  # more words than a tick's TICK_EVERY
    trainer = unigram_steps(text, vocab_size=40, progress=lambda done, total: seen.append((done, total)))
    assert seen and all(total == 1000 for _, total in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1][0] > 700
    seen.clear()
    next(trainer)
    done = [d for d, _ in seen]
    assert done and done == sorted(done) and done[0] == 0 and done[-1] > 700
