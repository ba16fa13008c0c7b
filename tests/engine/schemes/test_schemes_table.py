"""One entry point for the four schemes, and the comparison table computed from it."""

import pytest

from bpe_core.analysis.schemes_table import compare_schemes
from bpe_core.tokenizer.scheme import SchemeTokenizer
from bpe_core.training.schemes import MODELS, options_of, train_scheme

from .support import random_texts, real_text

TEXT = "the cat sat on the mat. the cat ate the rat.\nhe sat, she ate; they sang!\n" * 10


@pytest.mark.parametrize("model", MODELS)
def test_every_scheme_trains_through_one_entry_point(model):
    tok = train_scheme(TEXT, model=model, vocab_size=300)
    assert isinstance(tok, SchemeTokenizer) and tok.scheme == model
    assert tok.vocab_size <= 300
    for text in ["the cat sat.", "the rat"]:
        ids = tok.encode(text)
        assert [s.id for s in tok.token_spans(text)] == ids
        assert tok.decode(ids).replace("▁", " ").strip() == text or model == "wordpiece"


@pytest.mark.parametrize(
    ("model", "options", "message"),
    [
        ("bpe", {"tie_break": "nope"}, "tie_break 'nope' is unknown"),
        (
            "wordpiece",
            {"pattern": "gpt2"},
            "wordpiece has no option 'pattern'; its options are special_tokens",
        ),
        ("char", {"pattern": "gpt2"}, "char has no option 'pattern'; its options are none"),
        ("bpe", {"vocab_size": 100}, "vocab_size is 100, out of range 256"),
        ("wordpiece", {"vocab_size": 10}, "smaller than the 5 special tokens \\+ 19 characters.*at least 24"),
        (
            "char",
            {"vocab_size": 10},
            "smaller than the 18 characters of the text \\+ \\[UNK\\]; ask for at least 19",
        ),
        ("bert", {}, "model 'bert' is unknown; use one of bpe, wordpiece, unigram, char"),
    ],
)
def test_bad_options(model, options, message):
    with pytest.raises(ValueError, match=message):
        train_scheme(TEXT, model=model, **{"vocab_size": 300, **options})


@pytest.mark.parametrize("model", MODELS)
def test_empty_text(model):
    with pytest.raises(ValueError, match="empty"):
        train_scheme("", model=model, vocab_size=300)


def test_options_listed():
    assert "pattern" in options_of("bpe") and "files" not in options_of("bpe")
    assert "tie_break" in options_of("wordpiece")


def test_the_table_measures_what_each_tokenizer_does():
    held_out = "the bat sat on the hat!\nthe cat sat.\n\nthe rat ate ~\n"
    rows = compare_schemes(TEXT, held_out=held_out, vocab_size=300)
    assert [r.model for r in rows] == ["bpe", "wordpiece", "unigram", "char"]
    for row in rows:
        tok = train_scheme(TEXT, model=row.model, vocab_size=300)
        for text, figures in ((TEXT, row.text), (held_out, row.held_out)):
            tokens = len(tok.encode(text))
            assert figures.tokens == tokens
            assert figures.bytes_per_token == len(text.encode()) / tokens
            assert figures.chars_per_token == len(text) / tokens
            assert figures.lines == len([line for line in text.split("\n") if line])
        assert row.vocab_size == tok.vocab_size and row.train_seconds > 0
    bpe, wordpiece, unigram, char = rows
    assert unigram.held_out.unknown_chars >= 2  # 'b' and '~' are unseen
    assert bpe.held_out.oov_rate == 0 and bpe.held_out.round_trip_rate == 1 and bpe.held_out.example is None
    # char: '~' and 'b' are unseen; 'h' is seen: 2 unknown of 46 tokens
    assert char.held_out.unknown_chars == 2 == round(char.held_out.oov_rate * char.held_out.tokens)
    assert char.held_out.round_trip_rate == 1 / 3  # only "the cat sat." comes back
    assert char.held_out.example == ("the bat sat on the hat!", "the [UNK]at sat on the hat!")
    # wordpiece: every line loses its spacing before '.', '!' or '~'... or has an [UNK]
    assert wordpiece.text.oov_rate == 0 and wordpiece.text.spacing > 0
    assert wordpiece.held_out.unknown_chars >= 1 and wordpiece.held_out.round_trip_rate < 1


def test_a_scheme_that_cannot_train_is_a_row_with_its_reason():
    rows = compare_schemes(TEXT, vocab_size=100, models=["bpe", "char"])
    assert rows[0].error.startswith("vocab_size is 100, out of range 256") and rows[0].text is None
    assert rows[1].error is None and rows[1].held_out is None


def test_real_text():
    text = real_text()
    held_out = "\n".join(random_texts(50, seed=3))
    rows = compare_schemes(text, held_out=held_out, vocab_size=1200)
    bpe, wordpiece, unigram, char = rows
    assert unigram.text.chars_per_token > char.text.chars_per_token
    assert bpe.text.chars_per_token > char.text.chars_per_token == 1
    assert wordpiece.text.bytes_per_token > char.text.bytes_per_token
    assert bpe.held_out.oov_rate == 0 < wordpiece.held_out.oov_rate
