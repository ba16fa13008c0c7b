"""SentencePiece BPE ``.model`` files (Llama-2's kind: ``model_type=bpe``, ``<0xNN>`` byte pieces) load
through ``load_tokenizer`` with sentencepiece's ids and decoded text on hundreds of strings, and what
normalization loses is said; the textbook and fast merges give the same pieces (hypothesis)."""

from __future__ import annotations

from pathlib import Path

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.formats import load_tokenizer
from bpe_core.tokenizer.piece_bpe import PieceBpeTokenizer

from .support import sentencepiece_model, strings

STRINGS = strings()
OPTIONS = {
    "byte-fallback": {"byte_fallback": True},
    "byte-fallback-nmt-nfkc": {"byte_fallback": True, "normalization_rule_name": "nmt_nfkc"},
    "unk-identity-spaces-kept": {"normalization_rule_name": "identity", "remove_extra_whitespaces": False},
    "user-defined": {"byte_fallback": True, "user_defined_symbols": "<tool>,ight"},
    "no-dummy-prefix": {"byte_fallback": True, "add_dummy_prefix": False},
}


@pytest.fixture(scope="module", params=sorted(OPTIONS))
def pair(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    data, _ = sentencepiece_model("bpe", vocab_size=800, **OPTIONS[request.param])
    path = Path(tmp_path_factory.mktemp(request.param)) / "tokenizer.model"
    path.write_bytes(data)
    return spm.SentencePieceProcessor(model_file=str(path)), load_tokenizer(path, any_scheme=True)


def test_it_loads_as_sentencepiece_bpe(pair) -> None:
    sp, ours = pair
    assert isinstance(ours, PieceBpeTokenizer) and ours.scheme == "piece-bpe"
    assert ours.vocab_size == sp.get_piece_size()


def test_same_ids_and_decoded_text_as_sentencepiece(pair) -> None:
    sp, ours = pair
    wrong = [
        s
        for s in STRINGS
        if ours.encode(s) != sp.encode(s) or ours.decode(sp.encode(s)) != sp.decode(sp.encode(s))
    ]
    assert wrong == []


def test_byte_fallback_pieces_stand_for_the_bytes() -> None:
    data, _ = sentencepiece_model("bpe", vocab_size=800, byte_fallback=True)
    sp = spm.SentencePieceProcessor(model_proto=data)
    from bpe_core.formats.sentencepiece_model import sentencepiece_from_bytes

    ours = sentencepiece_from_bytes(data)
    pieces = ours.encode_pieces("龘")
    assert pieces == ["▁", "<0xE9>", "<0xBE>", "<0x98>"] == [sp.id_to_piece(i) for i in sp.encode("龘")]
    assert ours.decode(ours.encode("龘 x")) == "龘 x"


def test_what_normalization_loses_is_said(pair) -> None:
    _, ours = pair
    for s in ("a  b", " lead", "ﬁne", "tab\there"):
        loss = ours.lost(s)
        assert loss.round_trip == (ours.decode(ours.encode(s)) == s)
        if not loss.round_trip:
            assert loss.spacing + loss.changed + loss.unknown_chars > 0, (s, loss)


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=50))
def test_same_ids_on_hypothesis_text(text: str) -> None:
    data, _ = sentencepiece_model("bpe", vocab_size=800, byte_fallback=True)
    sp = spm.SentencePieceProcessor(model_proto=data)
    from bpe_core.formats.sentencepiece_model import sentencepiece_from_bytes

    ours = sentencepiece_from_bytes(data)
    assert ours.encode(text) == sp.encode(text)
    if "\x00" not in text:
        assert ours.decode(ours.encode(text)) == sp.decode(sp.encode(text))
