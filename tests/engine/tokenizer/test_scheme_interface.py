"""Every scheme's tokenizer has the whole SchemeTokenizer interface, and says whether it is BPE."""

from __future__ import annotations

import pytest

from bpe_core.pipeline import PipelineTokenizer
from bpe_core.pipeline.models import WordPieceModel
from bpe_core.tokenizer import (
    CharTokenizer,
    PieceBpeTokenizer,
    SchemeTokenizer,
    Tokenizer,
    UnigramTokenizer,
    WordPieceTokenizer,
)
from bpe_core.tokenizer.scheme import SCHEMES

BPE = Tokenizer({i: bytes([i]) for i in range(256)}, [], special_tokens={"<|x|>": 256})
TOKENIZERS = {
    "char": CharTokenizer("hello"),
    "bpe": BPE,
    "wordpiece": WordPieceTokenizer(["[UNK]", "[SEP]", "hug", "##s"]),
    "unigram": UnigramTokenizer([("<unk>", 0.0), ("▁hug", -1.0), ("s", -2.0)]),
    "piece-bpe": PieceBpeTokenizer([("<unk>", 0.0), ("▁", -1.0), ("h", -1.0), ("u", -1.0), ("g", -1.0)]),
    "pipeline": PipelineTokenizer(model=WordPieceModel({"[UNK]": 0, "hug": 1, "##s": 2})),
}


def test_one_tokenizer_per_scheme() -> None:
    assert sorted(TOKENIZERS) == sorted(SCHEMES)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_each_has_the_interface(scheme: str) -> None:
    tok = TOKENIZERS[scheme]
    assert isinstance(tok, SchemeTokenizer) and tok.scheme == scheme
    assert (tok.as_bpe() is tok) == (scheme == "bpe")
    assert all(0 <= i < tok.vocab_size for i in tok.special_ids)


def test_special_ids_are_the_ids_a_special_token_encodes_to() -> None:
    assert BPE.special_ids == {256} and BPE.encode("<|x|>") == [256]
    wp = TOKENIZERS["wordpiece"]
    assert wp.special_ids == {0, 1} and wp.encode("hugs [SEP]") == [2, 3, 1]
