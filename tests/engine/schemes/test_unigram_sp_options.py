"""SentencePiece's Unigram choices as options of our trainer: each does what it says, alone, and the
textbook and fast trainers stay equal with them on."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.training.unigram import seed_pieces, text_words, train_unigram, unigram_steps
from bpe_core.training.unigram_loss import corpus_cuts
from bpe_core.training.unigram_records import SENTENCEPIECE_OPTIONS, TRAIN_DEFAULTS, UnigramOptions
from bpe_core.training.unigram_sp import (
    FINAL_MARGIN,
    alternative_losses,
    bayesian_scores,
    digamma,
    script_class,
    valid_piece,
)

TEXT = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5 + "the, cat. 12 ab1\n" * 3
texts = st.text(alphabet="ab c\nd,1", min_size=1, max_size=60).filter(lambda t: t.strip())


@settings(max_examples=30, deadline=None)
@given(texts, st.integers(0, 30), st.lists(st.sampled_from(SENTENCEPIECE_OPTIONS), max_size=3))
def test_fast_rounds_equal_textbook_rounds_with_the_options(text, extra, names):
    options = dict.fromkeys(names, True)
    words = text_words(text, lines_as_sentences=options.get("lines_as_sentences", False))
    vocab = len(set("".join(words))) + 1 + extra

    def run(method):
        trainer = unigram_steps(text, vocab_size=vocab, method=method, max_piece_length=6, **options)
        return trainer.seed, list(trainer), trainer.tokenizer().pieces

    fast, textbook = run("fast"), run("textbook")
    assert fast == textbook
    assert len(fast[2]) <= vocab
    for r in fast[1]:  # every piece that went is told: pruned by the round or dropped by its EM
        assert r.vocab_size_before - len(r.pruned) - len(r.dropped) == r.vocab_size >= vocab


def test_lines_as_sentences_gives_each_line_its_space():
    assert text_words("a b\nb a") == {"▁a": 2, "▁b": 1, "\n": 1, "b": 1}
    assert text_words("a b\nb a", lines_as_sentences=True) == {"▁a": 2, "▁b": 2, "\n": 1}
    tok = unigram_steps("lowest\n" * 30, vocab_size=12, lines_as_sentences=True).run().tokenizer()
    assert "▁lowest" in tok.pieces
    assert tok.decode(tok.encode("lowest\nlowest")) == "lowest\nlowest"


def test_script_classes_and_valid_pieces():
    assert script_class("a") == script_class("ß") == "Latin"
    assert script_class("中") == script_class("の") == script_class("カ") == "Han"
    assert script_class("3") == "number" and script_class(",") == "common"
    assert script_class("\u0301") == "inherited"  # a combining accent takes its neighbour's class
    assert [valid_piece(p) for p in ["▁the", "e\u0301t", "the,", "a1", "12", "▁,,", "a▁b", "Дa"]] == [
        True,
        True,
        False,
        False,
        True,
        True,
        False,
        False,
    ]


def test_split_by_script_keeps_mixed_pieces_out_of_the_seed():
    words = text_words(TEXT)
    plain = {p for p, _ in seed_pieces(words, UnigramOptions(vocab_size=50))[0]}
    split = {p for p, _ in seed_pieces(words, UnigramOptions(vocab_size=50, split_by_script=True))[0]}
    assert {"e,", "t.", "b1"} <= plain
    assert not {"e,", "t.", "b1"} & split
    assert all(valid_piece(p) for p in split) and {"▁hug", "12", "the"} <= split


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.text("abc▁", min_size=1, max_size=9), st.integers(1, 4), min_size=1, max_size=8))
def test_the_branching_seed_keeps_the_substrings_followed_by_two_things_or_more(words):
    longest = 4
    followers: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for word, n in words.items():
        for i in range(len(word)):
            for j in range(i + 2, min(len(word), i + longest) + 1):
                sub = word[i:j]
                counts[sub] = counts.get(sub, 0) + n
                followers.setdefault(sub, set()).add(word[j] if j < len(word) else "end")
    expected = {s for s, n in counts.items() if n >= 2 and len(followers[s]) >= 2}
    every = {s for s, n in counts.items() if n >= 2}
    chars = len({c for w in words for c in w})
    options = UnigramOptions(vocab_size=2, max_piece_length=longest, seed_by_branching=True)
    seed = {p for p, _ in seed_pieces(words, options)[0] if len(p) > 1}
    assert seed == (expected if chars + len(expected) >= 2 else every)  # too few to reach 2: all of them
    plain = {p for p, _ in seed_pieces(words, options.replace(seed_by_branching=False))[0] if len(p) > 1}
    assert plain == every


def test_the_branching_seed_leaves_out_what_always_goes_on_alike():
    words = {"▁the": 5, "▁then": 2, "▁other": 3, "▁lowest": 4}
    seed = {p for p, _ in seed_pieces(words, UnigramOptions(vocab_size=2, seed_by_branching=True))[0]}
    assert {"the", "▁the", "he"} <= seed  # the: ▁the's end, n, r
    assert not {"th", "▁th", "▁lowes", "owe", "▁lowest"} & seed  # always followed by e, t, s, the end
    assert {"th", "▁lowest"} <= {p for p, _ in seed_pieces(words, UnigramOptions(vocab_size=2))[0]}


def test_the_branching_seed_gives_way_when_it_cannot_reach_the_vocabulary():
    words = {"▁the": 5, "▁then": 2, "▁other": 3, "▁lowest": 4}
    chars = len({c for w in words for c in w})
    branching = seed_pieces(words, UnigramOptions(vocab_size=2, seed_by_branching=True))[0]
    plain = seed_pieces(words, UnigramOptions(vocab_size=2))[0]
    assert chars < len(branching) < len(plain)
    for vocab_size in (len(branching) + 1, len(plain) + 5):  # the branching seed alone is too small
        options = UnigramOptions(vocab_size=vocab_size, seed_by_branching=True)
        assert seed_pieces(words, options)[0] == plain
    enough = UnigramOptions(vocab_size=len(branching), seed_by_branching=True)
    assert seed_pieces(words, enough)[0] == branching


def test_a_short_text_reaches_its_vocabulary_with_the_one_shot_trainer():
    text = "low lower lowest newer newest wider widest " * 10
    for vocab_size in (20, 30, 40):
        tok = train_unigram(text, vocab_size=vocab_size)
        assert tok.vocab_size == vocab_size
        assert tok.decode(tok.encode(text)) == text


def test_seed_by_coverage_weighs_each_piece_by_its_length():
    plain = unigram_steps(TEXT, vocab_size=30, em_iterations=0)
    covered = unigram_steps(TEXT, vocab_size=30, em_iterations=0, seed_by_coverage=True)
    counts = dict(plain.seed.pieces)
    assert plain.scores["hug"] - plain.scores["h"] == pytest.approx(math.log(counts["hug"] / counts["h"]))
    assert covered.scores["hug"] - covered.scores["h"] == pytest.approx(
        math.log(3 * counts["hug"] / counts["h"])
    )


def test_digamma_is_the_digamma_function():
    gamma = 0.5772156649015329
    assert digamma(1.0) == pytest.approx(-gamma, abs=1e-9)
    assert digamma(0.5) == pytest.approx(-gamma - 2 * math.log(2), abs=1e-9)
    assert digamma(100.0) == pytest.approx(4.600161852738087, abs=1e-9)


def test_bayesian_m_step_drops_rare_pieces_but_no_character_nor_below_the_size():
    counts = {"a": 3.0, "b": 0.1, "ab": 0.2, "ba": 0.4, "aa": 5.0}
    scores, dropped = bayesian_scores(counts, frozenset("ab"), 2)
    assert dropped == ["ab", "ba"] and set(scores) == {"a", "b", "aa"}
    assert scores["aa"] == pytest.approx(digamma(5.0) - digamma(3.0 + 0.5 + 5.0))
    scores, dropped = bayesian_scores(counts, frozenset("ab"), 4)  # one may go: the rarest
    assert dropped == ["ab"]
    trainer = unigram_steps(TEXT, vocab_size=30, bayesian_em=True)
    assert trainer.seed.dropped and not set(trainer.seed.dropped) & trainer._characters
    assert not set(trainer.seed.dropped) & set(trainer.scores)
    assert unigram_steps(TEXT, vocab_size=30).seed.dropped == ()


def test_alternative_loss_by_hand():
    scores = {"a": math.log(0.2), "b": math.log(0.3), "ab": math.log(0.5)}
    words = {"ab": 2, "ba": 1}
    _, _, cuts = corpus_cuts(words, scores, 2)
    losses, outright = alternative_losses(words, scores, ["ab"], 2, cuts)
    # Viterbi counts: ab 2, a 1, b 1 (total 4); without ab its 2 go to a and b (total 6);
    # 2 of 3 words use it: 2/3 x (log 2/4 - 2 log 3/6)
    assert losses["ab"] == pytest.approx(2 / 3 * (math.log(0.5) - 2 * math.log(0.5)))
    assert outright == set()
    worse = dict(scores, ab=math.log(0.01))  # its own best cut is a, b: dropped outright
    _, _, cuts = corpus_cuts(words, worse, 2)
    assert alternative_losses(words, worse, ["ab"], 2, cuts) == ({"ab": 0.0}, {"ab"})


def test_prune_by_alternative_prunes_the_outright_first():
    trainer = unigram_steps(TEXT, vocab_size=26, prune_by_alternative=True)
    first = next(trainer)
    plain = next(unigram_steps(TEXT, vocab_size=26))
    assert first.pruned != plain.pruned
    assert first.vocab_size >= 26
    assert all(p.increase == 0.0 for p in first.pruned[:5])


def test_final_by_score_prunes_by_loss_to_the_margin_then_by_probability():
    rounds = list(unigram_steps(TEXT, vocab_size=25, final_by_score=True))
    assert [r.by_score for r in rounds] == [False] * (len(rounds) - 1) + [True]
    assert rounds[-2].vocab_size >= int(FINAL_MARGIN * 25) and rounds[-1].vocab_size == 25
    last = rounds[-1]
    assert max(p.score for p in last.pruned) <= min(p.score for p in last.closest_kept)
    assert not any(r.by_score for r in unigram_steps(TEXT, vocab_size=25))


def test_options_must_be_true_or_false():
    with pytest.raises(ValueError, match="bayesian_em is 1; give True or False"):
        UnigramOptions(vocab_size=10, bayesian_em=1)  # type: ignore[arg-type]


def test_train_unigram_adds_the_seed_the_bayesian_m_step_and_the_final_pass_to_the_textbook():
    assert TRAIN_DEFAULTS == {"seed_by_branching": True, "bayesian_em": True, "final_by_score": True}
    steps = unigram_steps(TEXT, vocab_size=30, **TRAIN_DEFAULTS).run()
    assert train_unigram(TEXT, vocab_size=30).pieces == steps.tokenizer().pieces
    textbook = train_unigram(TEXT, vocab_size=30, **dict.fromkeys(TRAIN_DEFAULTS, False))
    assert textbook.pieces == unigram_steps(TEXT, vocab_size=30).run().tokenizer().pieces
    assert UnigramOptions(vocab_size=30).bayesian_em is False  # the stage's rounds stay the textbook's
