"""Unreachable Unigram pieces against ``sentencepiece`` itself: a model trained here with
``SentencePieceTrainer``, read with our loader, has as unreachable exactly the pieces that
``sentencepiece``, encoding each piece's own text, cuts otherwise."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

spm = pytest.importorskip("sentencepiece")
pb = pytest.importorskip("sentencepiece.sentencepiece_model_pb2")

from bpe_core.analysis.health import check_health  # noqa: E402
from bpe_core.formats import load_tokenizer  # noqa: E402

CORPORA = Path(__file__).resolve().parents[3] / "corpora"
TEXT = "".join(
    (CORPORA / name).read_text(encoding="utf-8") for name in ("lighthouse_story.txt", "mixed_scripts.txt")
)


def train_model(rule: str) -> bytes:
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(TEXT.splitlines()),
        model_writer=model,
        vocab_size=300,
        hard_vocab_limit=False,
        model_type="unigram",
        normalization_rule_name=rule,
        minloglevel=2,
        num_threads=1,
    )
    return model.getvalue()


def sentencepiece_unreachable(data: bytes) -> list[int]:
    """The normal pieces whose own text ``sentencepiece`` does not encode as that one piece: the text
    as the model sees it, so no ``▁`` added in front and no white space removed (a piece is a stretch
    of the normalized text)."""
    proto = pb.ModelProto()
    proto.ParseFromString(data)
    proto.normalizer_spec.add_dummy_prefix = False
    proto.normalizer_spec.remove_extra_whitespaces = False
    sp = spm.SentencePieceProcessor(model_proto=proto.SerializeToString())
    normal = pb.ModelProto.SentencePiece.NORMAL
    return [i for i, p in enumerate(proto.pieces) if p.type == normal and sp.encode(p.piece) != [i]]


def lowered(data: bytes) -> bytes:
    """The model with every fifth piece of several characters scored below all others, so that
    Viterbi prefers its parts (unreachable pieces, as a vocabulary edited by hand has)."""
    proto = pb.ModelProto()
    proto.ParseFromString(data)
    lowest = min(p.score for p in proto.pieces if p.type == pb.ModelProto.SentencePiece.NORMAL)
    long = [p for p in proto.pieces if p.type == pb.ModelProto.SentencePiece.NORMAL and len(p.piece) > 2]
    for p in long[::5]:
        p.score = lowest - 20.0
    return proto.SerializeToString()


@pytest.mark.parametrize("rule", ["identity", "nmt_nfkc"])
def test_unreachable_pieces_are_the_ones_sentencepiece_cuts_otherwise(rule, tmp_path):
    data = train_model(rule)
    for name, model in (("trained", data), ("lowered", lowered(data))):
        path = tmp_path / f"{name}.model"
        path.write_bytes(model)
        report = check_health(load_tokenizer(path, any_scheme=True))
        expected = sentencepiece_unreachable(model)
        assert report.ids()["unreachable"] == expected, name
        if name == "lowered":
            assert len(expected) > 5
            assert all(f.why.startswith("Viterbi cuts its text as") for f in report.unreachable)
