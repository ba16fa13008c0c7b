"""The Tokenize page's hooks: one record per scheme of the engine, chosen by the tokenizer's scheme."""

from __future__ import annotations

import pytest

from bpe_core.pipeline import PipelineTokenizer
from bpe_core.pipeline.decoders import Metaspace
from bpe_core.pipeline.models import UnigramModel
from bpe_core.pipeline.normalizers import Lowercase
from bpe_core.pipeline.pre_tokenizers import Metaspace as MetaspaceCut
from bpe_core.tokenizer import (
    CharTokenizer,
    PieceBpeTokenizer,
    Tokenizer,
    UnigramTokenizer,
    WordPieceTokenizer,
)
from bpe_core.tokenizer.scheme import SCHEMES
from mergescope_ui.tokenize.results import tokenize
from mergescope_ui.tokenize.schemes import HOOKS, hooks_named, hooks_of, shows

TOKENIZERS = {
    "char": CharTokenizer("hugs "),
    "bpe": Tokenizer({i: bytes([i]) for i in range(256)}, [], special_tokens={"<|x|>": 256}),
    "wordpiece": WordPieceTokenizer(["[UNK]", "[SEP]", "hug", "##s"]),
    "unigram": UnigramTokenizer([("<unk>", 0.0), ("▁hug", -1.0), ("s", -2.0)]),
    "piece-bpe": PieceBpeTokenizer(
        [
            ("<unk>", 0.0),
            ("▁", -1.0),
            ("h", -1.0),
            ("u", -1.0),
            ("g", -1.0),
            ("s", -1.0),
            ("hu", -2.0),
            ("hug", -3.0),
            ("▁hug", -4.0),
        ]
    ),
    "pipeline": PipelineTokenizer(
        model=UnigramModel([("<unk>", 0.0), ("▁hug", -1.0), ("s", -2.0)], unk_id=0),
        normalizer=Lowercase(),
        pre_tokenizer=MetaspaceCut(),
        decoder=Metaspace(),
    ),
}


def test_every_scheme_of_the_engine_has_its_record() -> None:
    assert sorted(HOOKS) == sorted(SCHEMES) == sorted(TOKENIZERS)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_tokenizer_gets_its_schemes_record(scheme: str) -> None:
    tok = TOKENIZERS[scheme]
    hooks = hooks_of(tok)
    assert hooks is HOOKS[scheme] and shows(tok)
    result = tokenize(tok, "hugs hugs", label=scheme)
    assert result.ok and result.pieces == (hooks.pieces is not None) == bool(result.cuts)
    assert (hooks.summary is None) == (scheme == "char")  # the baseline is never loaded from files
    assert (hooks.no_files == "") == (tok.as_bpe() is not None)


def test_the_pieces_hooks_read_their_own_tokenizer() -> None:
    wp, uni = TOKENIZERS["wordpiece"], TOKENIZERS["unigram"]
    wp_pieces, uni_pieces = HOOKS["wordpiece"].pieces, HOOKS["unigram"].pieces
    assert wp_pieces is not None and uni_pieces is not None
    assert wp_pieces.starts_word(wp, "hug") and not wp_pieces.starts_word(wp, "##s")
    assert uni_pieces.starts_word(uni, "▁hug") and not uni_pieces.starts_word(uni, "s")
    assert wp_pieces.scores(wp) is None and list(uni_pieces.scores(uni) or []) == [0.0, -1.0, -2.0]
    assert wp_pieces.ranked(wp) == 0 and uni_pieces.ranked(uni) == 2


def test_a_scheme_without_a_record_is_named() -> None:
    with pytest.raises(ValueError, match="cannot show a fancy tokenizer; add its record to HOOKS"):
        hooks_named("fancy")
