"""The numpy lattices (the ``[fast]`` extra) give the textbook's numbers to the bit, and the trainer
gives the same rounds with them, without them (pure Python) and as the textbook."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.training import unigram
from bpe_core.training.unigram import (
    UnigramTrainer,
    expected_counts,
    scores_from_counts,
    seed_pieces,
    text_words,
)
from bpe_core.training.unigram_fast import loss_increases_fast
from bpe_core.training.unigram_loss import corpus_cuts, word_edges
from bpe_core.training.unigram_numpy import EdgeTable
from bpe_core.training.unigram_records import SENTENCEPIECE_OPTIONS, UnigramOptions

texts = st.text(alphabet="ab c\nd,1", min_size=1, max_size=80).filter(lambda t: t.strip())


def _model(
    text: str, longest: int, spread: float, rnd: random.Random
) -> tuple[dict[str, int], dict[str, float]]:
    """The text's words and seed scores, each scaled at random (sums whose order matters); ``spread``
    widens them (far apart: long words underflow and take the log-space path)."""
    words = text_words(text, max_word_length=40)
    seed, _, _ = seed_pieces(words, UnigramOptions(vocab_size=2, max_piece_length=longest))
    scores = scores_from_counts(dict(seed))
    return words, {p: s * spread * rnd.uniform(0.3, 3.0) for p, s in scores.items()}


@settings(max_examples=80, deadline=None)
@given(texts, st.integers(1, 6), st.sampled_from([1.0, 3.0, 40.0]), st.randoms(use_true_random=False))
def test_the_table_gives_the_textbooks_e_step_cuts_and_increases_to_the_bit(text, longest, spread, rnd):
    words, scores = _model(text, longest, spread, rnd)
    table = EdgeTable.build(words, scores, longest)
    edges = {w: word_edges(w, scores, longest) for w in words}
    assert table.edge_lists() == edges
    assert table.expected_counts(scores) == expected_counts(words, scores, longest, edges)
    cuts = corpus_cuts(words, scores, longest, edges)
    assert table.corpus_cuts(scores) == cuts
    candidates = [p for p in scores if len(p) > 1]
    assert table.loss_increases(scores, candidates, cuts[2]) == loss_increases_fast(
        words, scores, candidates, longest, edges, cuts=cuts[2]
    )
    gone = set(candidates[::2])
    table.drop(gone)
    kept = {p: s for p, s in scores.items() if p not in gone}
    assert table.edge_lists() == {w: [e for e in cut if e[2] not in gone] for w, cut in edges.items()}
    assert table.expected_counts(kept) == expected_counts(words, kept, longest)
    assert table.corpus_cuts(kept) == corpus_cuts(words, kept, longest)


PIECES = ["a", "b", "c", "ab", "bc", "ca", "ba", "abc", "cab", "bca", "abca"]


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(st.text("abc", min_size=1, max_size=14), st.integers(1, 9), min_size=1, max_size=8),
    st.lists(st.floats(0.1, 9.0), min_size=len(PIECES), max_size=len(PIECES)),
)
def test_rich_lattices_with_any_scores_agree_to_the_bit(words, weights):
    scores = {p: -w for p, w in zip(PIECES, weights)}
    table = EdgeTable.build(words, scores, 4)
    assert table.expected_counts(scores) == expected_counts(words, scores, 4)
    cuts = corpus_cuts(words, scores, 4)
    assert table.corpus_cuts(scores) == cuts
    long = PIECES[3:]
    assert table.loss_increases(scores, long, cuts[2]) == loss_increases_fast(
        words, scores, long, 4, cuts=cuts[2]
    )


def test_long_words_take_the_log_space_path_and_still_agree():
    words = {"▁" + "ab" * 18: 3, "▁ab": 5}
    scores = {"▁": -300.0, "a": -250.0, "b": -260.0, "ab": -1.0, "▁ab": -2.0}
    table = EdgeTable.build(words, scores, 3)
    counts, objective = table.expected_counts(scores)
    assert (counts, objective) == expected_counts(words, scores, 3)
    assert math.isfinite(objective) and counts["ab"] > 0


def _run(text: str, vocab: int, options: dict[str, bool], **how: object):
    words = text_words(text, lines_as_sentences=options.get("lines_as_sentences", False))
    trainer = UnigramTrainer(
        words,
        UnigramOptions(vocab_size=vocab, max_piece_length=6, **options),
        **how,  # type: ignore[arg-type]
    )
    return trainer.seed, list(trainer), trainer.tokenizer().pieces


@settings(max_examples=40, deadline=None)
@given(texts, st.integers(0, 30), st.lists(st.sampled_from(SENTENCEPIECE_OPTIONS), max_size=3))
def test_numpy_pure_python_and_textbook_trainers_give_the_same_rounds(text, extra, names):
    options = dict.fromkeys(names, True)
    words = text_words(text, lines_as_sentences=options.get("lines_as_sentences", False))
    vocab = len(set("".join(words))) + 1 + extra
    with_numpy = _run(text, vocab, options, use_numpy=True)
    assert with_numpy == _run(text, vocab, options, use_numpy=False)
    assert with_numpy == _run(text, vocab, options, method="textbook")


def test_without_numpy_the_fast_trainer_is_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(unigram, "NUMPY", False)
    trainer = UnigramTrainer({"▁hug": 3, "▁pug": 2}, UnigramOptions(vocab_size=6))
    assert trainer._table is None and trainer._edges
    monkeypatch.setattr(unigram, "NUMPY", True)
    trainer = UnigramTrainer({"▁hug": 3, "▁pug": 2}, UnigramOptions(vocab_size=6))
    assert trainer._table is not None and not trainer._edges
