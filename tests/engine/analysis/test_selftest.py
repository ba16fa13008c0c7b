"""The self-test (bpe_core/analysis/selftest.py): every case round-trips through byte-level BPE, and
WordPiece's and Unigram's failures say what was lost and why."""

from pathlib import Path

import pytest

from bpe_core import train, train_scheme
from bpe_core.analysis.selftest import (
    COLUMNS,
    RANDOM_CHARS,
    SEED_001,
    cases,
    random_text,
    replace_surrogates,
    self_test,
)
from bpe_core.tokenizer import Tokenizer

CORPORA = Path(__file__).resolve().parents[3] / "corpora"
TEXT = (CORPORA / "lighthouse_story.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def bpe() -> Tokenizer:
    return train(TEXT, vocab_size=400, special_tokens=["<|endoftext|>", "<|pad|>"])


def test_byte_level_bpe_passes_every_case_with_the_random_text_in_one_piece(bpe):
    report = self_test(bpe)
    assert report.byte_level and report.failed == ()
    texts = [c.text for c in cases(bpe)]
    assert texts[: len(SEED_001)] == list(SEED_001)
    (random_case,) = [r for r in report.results if "random" in r.name]
    assert random_case.chars == RANDOM_CHARS and random_case.tokens >= RANDOM_CHARS
    assert random_text(RANDOM_CHARS) in texts  # one piece, not characters one at a time
    names = [r.name for r in report.results]
    assert "special token '<|endoftext|>'" in names and "special token '<|pad|>' between words" in names
    assert all(len(row) == len(COLUMNS) and row[3] == "pass" for row in report.rows())


def test_a_byte_level_tokenizer_that_loses_text_fails_and_says_where(bpe, monkeypatch):
    monkeypatch.setattr(Tokenizer, "decode", lambda self, ids: self.decode_bytes(ids).decode()[:-1] + "?")
    report = self_test(bpe, random_chars=10)
    assert report.byte_level and report.failed == report.results  # each text comes back with a "?"
    hello = next(r for r in report.results if r.name == "'hello world hello'")
    assert not hello.passed and hello.lost == "the decoded text differs from character 16 on"


def test_wordpiece_says_unk_long_words_and_white_space():
    tok = train_scheme(TEXT, model="wordpiece", vocab_size=300)
    report = {r.name: r for r in self_test(tok, random_chars=100).results}
    assert not self_test(tok, random_chars=100).byte_level
    assert report["'。'"].lost == "1 character in 1 place became [UNK] (no piece covers them)"
    assert report["'aaa' × 1,000"].lost == "1 word longer than max_word_chars (100) became [UNK]"
    assert report["CRLF line ends"].lost.startswith("white space comes back otherwise at 3 places")
    assert report["'hello world hello'"].passed
    assert report["special token '[CLS]'"].passed


def test_unigram_says_unknown_characters():
    tok = train_scheme(TEXT, model="unigram", vocab_size=300)
    report = {r.name: r for r in self_test(tok, random_chars=100).results}
    assert report["'霰龘'"].lost == "2 characters in 1 place became the unknown token (no piece covers them)"
    assert report["'hello world hello'"].passed


def test_the_random_text_and_the_surrogates():
    text = random_text(2000, seed=5)
    assert len(text) == 2000 and text == random_text(2000, seed=5) and text != random_text(2000)
    assert replace_surrogates(text) == text  # it holds none
    assert replace_surrogates("a\ud800b\udfff") == "a\ufffdb\ufffd"
    with pytest.raises(ValueError, match="random_chars"):
        self_test(train(TEXT, vocab_size=260), random_chars=-1)
