"""The Tokenize page with the tokenizers people name first (issue 41): an HF ``tokenizer.json`` read stage
by stage (Llama-2's BPE over characters with byte fallback, an uncased BERT) and a SentencePiece BPE
``.model``, built in the test with the real libraries, uploaded, and checked against the engine reading
the same bytes: the pieces shown, their count, a byte-fallback piece's details, the round trip.  The
text holds markup: nothing of it reaches the page unescaped."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from bpe_core import PieceBpeTokenizer, PipelineTokenizer
from bpe_core.tokenizer.scheme import lost
from mergescope_ui.shared.inputs.tokenizer_files import load_uploaded_any
from mergescope_ui.tokenize.piece_html import marked
from tests.engine.pipeline.support import bert, llama2, sentencepiece_model
from tests.ui.tokenize.test_page import main_html, main_spans, tokens_metric
from tests.ui.tokenize.test_scheme_files import _details, no_markup, uploaded

TEXT = "Hello <b>bold</b> 自然语言处理 龘 [x](http://evil.example) ☃"


def _json(build) -> bytes:
    return build().to_str().encode("utf-8")


@pytest.fixture(scope="module")
def files() -> dict[str, tuple[str, bytes]]:
    return {
        "llama": ("tokenizer.json", _json(lambda: llama2(legacy=True))),
        "bert": ("tokenizer.json", _json(lambda: bert(lowercase=True))),
        "sp-bpe": ("tokenizer.model", sentencepiece_model("bpe", vocab_size=800, byte_fallback=True)[0]),
    }


@pytest.mark.parametrize(("kind", "words"), [("llama", "pipeline, vocab 900"), ("bert", "BertNormalizer"),
                                             ("sp-bpe", "SentencePiece BPE")])  # fmt: skip
def test_each_file_shows_its_pieces_as_the_engine_cuts_them(files, kind: str, words: str) -> None:
    name, data = files[kind]
    tok = load_uploaded_any([(name, data)])
    assert isinstance(tok, PipelineTokenizer | PieceBpeTokenizer)
    at = uploaded(name, data, text=TEXT)
    (success,) = [s.value for s in at.success]
    assert words in success
    ids = tok.encode(TEXT)
    spans = main_spans(at)
    assert tokens_metric(at) == len(ids) and spans.texts == [marked(tok.piece(i)) for i in ids]
    assert [t.split(" ·")[0] for t in spans.titles] == [f"id {i}" for i in ids]
    no_markup(main_html(at))
    no_markup(" ".join(h.value for h in at.html))


@pytest.mark.parametrize("kind", ["llama", "sp-bpe"])
def test_a_byte_fallback_piece_says_so(files, kind: str) -> None:
    name, data = files[kind]
    tok = load_uploaded_any([(name, data)])
    at = uploaded(name, data, text=TEXT)
    ids = tok.encode(TEXT)
    position = next(k for k, i in enumerate(ids) if tok.piece(i).startswith("<0x"))
    facts, page = _details(at, position)
    assert facts["what it is"] == "one byte of a character no piece holds (byte fallback)"
    no_markup(page)


def test_the_round_trip_of_an_uncased_bert_says_what_normalization_changed(files) -> None:
    name, data = files["bert"]
    tok = load_uploaded_any([(name, data)])
    at: AppTest = uploaded(name, data, text="Ünïcode Hello")
    loss = lost(tok, "Ünïcode Hello")
    assert not loss.round_trip and loss.changed == 3
    (expander,) = [e for e in at.expander if e.label.startswith("Decoded back")]
    assert expander.label.startswith("Decoded back: lossy")
    assert "ormalization changed 3 characters" in " ".join(c.value for c in expander.caption)


def test_an_exact_round_trip_of_llama_says_so(files) -> None:
    name, data = files["llama"]
    at = uploaded(name, data, text="A whole 自然 text, 龘 too")
    (expander,) = [e for e in at.expander if e.label.startswith("Decoded back")]
    assert expander.label.startswith("Decoded back: exact")


def test_a_pattern_chosen_for_a_staged_file_is_dropped_with_a_note(files) -> None:
    name, data = files["llama"]
    notes: list[str] = []
    tok = load_uploaded_any([(name, data)], pattern="gpt4", notes=notes)
    assert isinstance(tok, PipelineTokenizer)
    assert notes == [
        "tokenizer.json is read stage by stage (its own normalizer and pre-tokenizer cut the words): "
        "the split pattern chosen (gpt4) is not used"
    ]
