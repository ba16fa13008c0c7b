"""Small WordPiece and Unigram tokenizer files for the Tokenize page's tests, built in the test (no network).

Each vocabulary holds hostile pieces (markup, a Markdown link and image, an RTL override, a quote):
a page that renders one of them as markup, or lets Markdown act on it, fails the tests.

- :func:`bert_vocab`: BERT's ``vocab.txt`` (one token a line, ``##`` for continuations);
- :func:`wordpiece_json`, :func:`unigram_json`: HF ``tokenizer.json`` (the engine's own writers);
- :func:`sentencepiece_model`: a ``.model`` trained by the ``sentencepiece`` package (skips without it).
"""

from __future__ import annotations

import io

import pytest

from bpe_core.formats.unigram_json import unigram_tokenizer_json
from bpe_core.formats.wordpiece_files import wordpiece_tokenizer_json
from bpe_core.tokenizer.unigram import UnigramTokenizer
from bpe_core.tokenizer.unigram_normalizer import SentencePieceNormalizer
from bpe_core.tokenizer.wordpiece import WordPieceTokenizer

RTL = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: would flip the page's text around it if it were not marked
HOSTILE = (
    "<script>",
    "[x](http://evil.example)",
    "![i](http://evil.example/i.png)",
    "**b**",
    f"{RTL}ab",
    '"q"',
)
TEXT = f'hugs pugs <script>alert(1)</script> [x](http://evil.example) ☃ "q" {RTL}ab'
"""A text with pieces of every kind: words cut into ``##`` pieces, hostile pieces, a character (☃) no
vocabulary holds."""

WORDPIECE_VOCAB = [
    "[PAD]",
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "[MASK]",
    "hug",
    "pug",
    "##s",
    "##g",
    "h",
    "p",
    "u",
    "##u",
    "<",
    ">",
    "script",
    "alert",
    "(",
    ")",
    "1",
    "/",
    "[",
    "]",
    "x",
    "http",
    ":",
    "evil",
    ".",
    "example",
    '"',
    "q",
    *HOSTILE,
]


def wordpiece() -> WordPieceTokenizer:
    return WordPieceTokenizer(WORDPIECE_VOCAB)


def bert_vocab() -> bytes:
    """BERT's ``vocab.txt`` of :data:`WORDPIECE_VOCAB` (hostile pieces without white space kept)."""
    return "".join(t + "\n" for t in WORDPIECE_VOCAB if t == t.strip()).encode("utf-8")


def bert_tokenizer() -> WordPieceTokenizer:
    """What :func:`bert_vocab` loads as."""
    return WordPieceTokenizer([t for t in WORDPIECE_VOCAB if t == t.strip()])


def wordpiece_json() -> bytes:
    return wordpiece_tokenizer_json(wordpiece()).encode("utf-8")


UNIGRAM_PIECES = [
    ("<unk>", 0.0),
    ("▁hug", -2.0),
    ("▁pug", -2.5),
    ("s", -3.0),
    ("▁", -3.5),
    ("h", -5.0),
    ("u", -5.0),
    ("g", -5.0),
    ("p", -5.0),
    ("<", -6.0),
    (">", -6.0),
    ("script", -4.0),
    ("alert", -4.0),
    ("(", -6.0),
    (")", -6.0),
    ("1", -6.0),
    ("/", -6.0),
    ("[", -6.0),
    ("]", -6.0),
    ("x", -6.0),
    ("http", -4.5),
    (":", -6.0),
    ("evil", -4.5),
    (".", -6.0),
    ("example", -4.5),
    ('"', -6.0),
    ("q", -6.0),
    *((h, -7.0) for h in HOSTILE),
    ("▁<script>", -3.0),
]


def unigram() -> UnigramTokenizer:
    """HF's Unigram: spaces kept as they are (``tokenizer.json``'s Metaspace cannot squeeze them)."""
    return UnigramTokenizer(
        UNIGRAM_PIECES, normalizer=SentencePieceNormalizer(remove_extra_whitespaces=False)
    )


def unigram_json() -> bytes:
    return unigram_tokenizer_json(unigram()).encode("utf-8")


SP_TEXT = (
    "the keeper lit the lamp at dusk and the ships came home. "
    "the lamp burned all night; the keeper watched the sea. "
) * 40


def sentencepiece_model(vocab_size: int = 30) -> bytes:
    """A Unigram ``.model`` trained by the ``sentencepiece`` package on :data:`SP_TEXT` (in memory)."""
    spm = pytest.importorskip("sentencepiece")
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(SP_TEXT.split(". ")),
        model_writer=out,
        vocab_size=vocab_size,
        model_type="unigram",
        character_coverage=1.0,
        minloglevel=2,
    )
    return out.getvalue()
