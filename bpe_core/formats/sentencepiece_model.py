"""SentencePiece ``.model`` files (Unigram and BPE), read through ``sentencepiece``'s ``ModelProto``.

A ``.model`` file is a protocol buffer; we parse it with the field's own library (``sentencepiece``, pinned
in requirements.txt, with its ``protobuf`` dependency), never by hand.  What we take from it:

- the pieces, their scores and types (normal, unknown, control, user-defined, unused, byte);
- the normalizer: ``precompiled_charsmap`` (``nmt_nfkc``, ``nfkc``, ... or none for ``identity``),
  ``add_dummy_prefix``, ``remove_extra_whitespaces``, ``escape_whitespaces``; ``byte_fallback`` and
  ``unk_surface`` from the trainer spec.

Supported: Unigram models (``model_type: UNIGRAM``) and BPE models (``model_type: BPE``, Llama-2's, with
``<0xNN>`` byte pieces: :class:`~bpe_core.tokenizer.piece_bpe.PieceBpeTokenizer`) with whitespace as a prefix
(the default).  Refused, with a message saying so: word/char models, ``treat_whitespace_as_suffix``, a
``denormalizer_spec`` with rules
(decoding through it is not done).  The tokenizer encodes to exactly the pieces ``sentencepiece`` gives.

>>> is_sentencepiece_model_bytes(b"minbpe v1\\n")
False
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Protocol

from ..tokenizer.piece_bpe import PieceBpeTokenizer
from ..tokenizer.unigram import UnigramTokenizer
from ..tokenizer.unigram_normalizer import SentencePieceNormalizer
from .safe_io import MAX_FILE_BYTES, TokenizerFileError, read_bytes

# ModelProto.SentencePiece.Type numbers -> our kinds
_TYPES = {1: "normal", 2: "unknown", 3: "control", 4: "user_defined", 5: "unused", 6: "byte"}
_UNIGRAM = 1
_BPE = 2


# The fields of sentencepiece's generated ModelProto that we read, typed: the package ships no stubs for
# sentencepiece_model_pb2 (protobuf's builder makes its classes at import), so _parse gives this view.
class _Piece(Protocol):
    piece: str
    score: float
    type: int


class _TrainerSpec(Protocol):
    model_type: int
    treat_whitespace_as_suffix: bool
    byte_fallback: bool
    unk_surface: str

    def HasField(self, field_name: str) -> bool: ...


class _NormalizerSpec(Protocol):
    name: str
    precompiled_charsmap: bytes
    add_dummy_prefix: bool
    remove_extra_whitespaces: bool
    escape_whitespaces: bool


class _ModelProto(Protocol):
    pieces: Sequence[_Piece]
    trainer_spec: _TrainerSpec
    normalizer_spec: _NormalizerSpec
    denormalizer_spec: _NormalizerSpec

    def HasField(self, field_name: str) -> bool: ...

    def ParseFromString(self, serialized: bytes) -> int | None: ...


def is_sentencepiece_model_bytes(data: bytes) -> bool:
    """Whether ``data`` parses as a SentencePiece ModelProto with at least one piece."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"minbpe v1"):
        return False
    try:
        proto = _parse(data)
    except ValueError:
        return False
    return len(proto.pieces) > 0


def is_sentencepiece_model(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> bool:
    """Whether the file at ``path`` is a SentencePiece ``.model`` (for :mod:`.detect`)."""
    try:
        return is_sentencepiece_model_bytes(read_bytes(path, max_bytes=max_bytes))
    except (OSError, ValueError):
        return False


def read_sentencepiece_model(
    path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES
) -> UnigramTokenizer:
    """The tokenizer of a SentencePiece ``.model`` file: a
    :class:`~bpe_core.tokenizer.unigram.UnigramTokenizer`, or a
    :class:`~bpe_core.tokenizer.piece_bpe.PieceBpeTokenizer` for a BPE model."""
    return sentencepiece_from_bytes(read_bytes(path, max_bytes=max_bytes), path)


def sentencepiece_from_bytes(data: bytes, path: str | os.PathLike[str] = "<bytes>") -> UnigramTokenizer:
    """The tokenizer of a ``.model`` file's bytes; ``path`` names it in errors."""
    try:
        proto = _parse(data)
    except ValueError as exc:
        raise TokenizerFileError(
            path, "", f"is not a SentencePiece model ({exc}); pass the .model file sentencepiece wrote"
        ) from None
    if not proto.pieces:
        raise TokenizerFileError(
            path,
            "",
            "is not a SentencePiece model (it lists no pieces); pass the .model file sentencepiece wrote",
        )
    trainer, norm = proto.trainer_spec, proto.normalizer_spec
    if trainer.model_type not in (_UNIGRAM, _BPE):
        model_type = {3: "word", 4: "char"}.get(trainer.model_type, str(trainer.model_type))
        raise TokenizerFileError(
            path,
            "trainer_spec.model_type",
            f"is {model_type}; Unigram and BPE models are read, train with model_type=unigram or bpe",
        )
    if trainer.treat_whitespace_as_suffix:
        raise TokenizerFileError(
            path,
            "trainer_spec.treat_whitespace_as_suffix",
            "is set; only ▁ as a prefix (the default) is supported",
        )
    if proto.HasField("denormalizer_spec") and proto.denormalizer_spec.precompiled_charsmap:
        raise TokenizerFileError(
            path, "denormalizer_spec", "has rules; models with a denormalizer are not supported"
        )
    pieces, kinds = [], []
    unk_id = None
    for i, p in enumerate(proto.pieces):
        kind = _TYPES.get(p.type)
        if kind is None:
            raise TokenizerFileError(
                path, f"pieces[{i}]", f"has type {p.type}, which SentencePiece does not define"
            )
        if kind == "unknown":
            unk_id = i
        pieces.append((p.piece, p.score))
        kinds.append(kind)
    if unk_id is None:
        raise TokenizerFileError(path, "pieces", "has no unknown piece (<unk>); SentencePiece needs one")
    user_defined = tuple(p for (p, _), k in zip(pieces, kinds) if k == "user_defined")
    normalizer = SentencePieceNormalizer(
        charsmap=bytes(norm.precompiled_charsmap),
        add_dummy_prefix=norm.add_dummy_prefix,
        remove_extra_whitespaces=norm.remove_extra_whitespaces,
        escape_whitespaces=norm.escape_whitespaces,
        user_defined=user_defined,
        name=norm.name or "identity",
    )
    unk_surface = trainer.unk_surface if trainer.HasField("unk_surface") else " \u2047 "
    try:
        if trainer.model_type == _BPE:
            return PieceBpeTokenizer(
                pieces,
                unk_id=unk_id,
                kinds=kinds,
                normalizer=normalizer,
                byte_fallback=trainer.byte_fallback,
                unk_surface=unk_surface,
            )
        return UnigramTokenizer(
            pieces,
            unk_id=unk_id,
            kinds=kinds,
            normalizer=normalizer,
            byte_fallback=trainer.byte_fallback,
            float32=True,
            unk_surface=unk_surface,
        )
    except ValueError as exc:
        raise TokenizerFileError(path, "pieces", str(exc)) from None


def _parse(data: bytes) -> _ModelProto:
    from google.protobuf.message import DecodeError
    from sentencepiece import sentencepiece_model_pb2

    proto: _ModelProto = sentencepiece_model_pb2.ModelProto()  # type: ignore[attr-defined]  # no stubs ship
    try:
        proto.ParseFromString(data)
    except DecodeError as exc:
        raise ValueError(str(exc) or "the protocol buffer does not parse") from None
    except RuntimeError as exc:
        raise ValueError(str(exc)) from None
    return proto
