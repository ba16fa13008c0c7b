"""HF ``tokenizer.json`` files whose model is Unigram: read into, and written from, a Unigram tokenizer.

Supported, as HF ``tokenizers`` runs it: ``model`` ``{"type": "Unigram", "unk_id", "vocab": [[piece,
score], ...], "byte_fallback"}``; ``normalizer`` null or ``Precompiled`` (a SentencePiece charsmap);
``pre_tokenizer`` ``Metaspace`` with ``split`` true, ``replacement`` ``▁`` and ``prepend_scheme``
``always`` or ``never`` (or the older ``add_prefix_space``); ``decoder`` ``Metaspace`` or null.  Anything
else is a :class:`~.safe_io.TokenizerFileError` saying what is not supported.  Scores are 64-bit and words
are cut at each ``▁`` (``Metaspace``'s split), as HF does.  With ``byte_fallback`` the ``<0xNN>`` pieces
stand for bytes only (HF also matches them as text, which no real text contains).

>>> from bpe_core.tokenizer.unigram import UnigramTokenizer
>>> keep_spaces = SentencePieceNormalizer(remove_extra_whitespaces=False)
>>> pieces = [("<unk>", 0.0), ("▁a", -1.0), ("b", -2.0), ("▁", -3.0), ("a", -3.0)]
>>> tok = UnigramTokenizer(pieces, normalizer=keep_spaces)
>>> back = read_unigram_json_text(unigram_tokenizer_json(tok), "tokenizer.json")
>>> back.encode_pieces("ab  a") == tok.encode_pieces("ab  a") == ['▁a', 'b', '▁', '▁a']
True
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from typing import Any

from ..tokenizer.unigram import UnigramTokenizer
from ..tokenizer.unigram_normalizer import SPACE, SentencePieceNormalizer
from .safe_io import TokenizerFileError, parse_json


def is_unigram_json(data: Any) -> bool:
    """Whether a parsed ``tokenizer.json`` has a Unigram model (for :mod:`.load`'s dispatch)."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("model"), dict)
        and data["model"].get("type") == "Unigram"
    )


def read_unigram_json_text(text: str, path: str | os.PathLike[str]) -> UnigramTokenizer:
    """The tokenizer of a ``tokenizer.json``'s text with a Unigram model; ``path`` names it in errors."""
    data = parse_json(text, path)
    if not is_unigram_json(data):
        raise TokenizerFileError(path, "model.type", 'is not "Unigram"; this reader is for Unigram models')
    model = data["model"]
    vocab = model.get("vocab")
    if not isinstance(vocab, list) or not vocab:
        raise TokenizerFileError(path, "model.vocab", "must be a non-empty list of [piece, score] pairs")
    pieces = []
    for i, entry in enumerate(vocab):
        ok = isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and entry[0]
        if not ok or isinstance(entry[1], bool) or not isinstance(entry[1], int | float):
            raise TokenizerFileError(
                path, f"model.vocab[{i}]", "must be [piece, score], a non-empty string and a number"
            )
        pieces.append((entry[0], float(entry[1])))
    unk_id = model.get("unk_id")
    if isinstance(unk_id, bool) or not isinstance(unk_id, int) or not 0 <= unk_id < len(pieces):
        raise TokenizerFileError(
            path,
            "model.unk_id",
            f"is {unk_id!r}; MergeScope needs the id of an unknown piece (0..{len(pieces) - 1})",
        )
    byte_fallback = bool(model.get("byte_fallback", False))
    kinds = ["normal"] * len(pieces)
    if byte_fallback:
        for i, (p, _) in enumerate(pieces):
            if len(p) == 6 and p.startswith("<0x") and p.endswith(">"):
                kinds[i] = "byte"
    for j, added in enumerate(data.get("added_tokens") or []):
        if isinstance(added, dict) and added.get("special") and isinstance(added.get("id"), int):
            k = added["id"]
            if 0 <= k < len(kinds) and k != unk_id and kinds[k] == "normal":
                kinds[k] = "control"
        elif not isinstance(added, dict):
            raise TokenizerFileError(path, f"added_tokens[{j}]", "must be an object")
    charsmap, prepend = _normalizer(data.get("normalizer"), path)
    prefix = _metaspace(data.get("pre_tokenizer"), path)
    if prepend and prefix:
        raise TokenizerFileError(
            path, "pre_tokenizer", "prepends ▁ and so does the normalizer; keep one (prepend_scheme 'never')"
        )
    normalizer = SentencePieceNormalizer(
        charsmap=charsmap,
        add_dummy_prefix=prepend or prefix,
        remove_extra_whitespaces=False,
        escape_whitespaces=True,
        name="precompiled" if charsmap else "identity",
        prefix_only_if_missing=prefix,
    )
    try:
        return UnigramTokenizer(
            pieces,
            unk_id=unk_id,
            kinds=kinds,
            normalizer=normalizer,
            byte_fallback=byte_fallback,
            unk_surface="",
        )
    except ValueError as exc:
        raise TokenizerFileError(path, "model.vocab", str(exc)) from None


def unigram_tokenizer_json(tok: UnigramTokenizer) -> str:
    """``tok`` as an HF ``tokenizer.json`` (the layout :func:`read_unigram_json_text` reads)."""
    norm = tok.normalizer
    if norm.remove_extra_whitespaces or not norm.escape_whitespaces or norm.user_defined:
        raise ValueError(
            "this tokenizer squeezes spaces or keeps user-defined symbols, which tokenizer.json's Metaspace "
            "cannot say; save it as a SentencePiece .model instead"
        )
    steps = []
    if norm.charsmap:
        steps.append(
            {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(norm.charsmap).decode()}
        )
    # SentencePiece's dummy prefix is always there (HF's Prepend); HF's Metaspace 'always' only when missing
    if norm.add_dummy_prefix and not norm.prefix_only_if_missing:
        steps.append({"type": "Prepend", "prepend": SPACE})
    normalizer = (
        None if not steps else steps[0] if len(steps) == 1 else {"type": "Sequence", "normalizers": steps}
    )
    scheme = "always" if norm.add_dummy_prefix and norm.prefix_only_if_missing else "never"
    metaspace = {"type": "Metaspace", "replacement": SPACE, "prepend_scheme": scheme, "split": True}
    decoder = {**metaspace, "prepend_scheme": "always" if norm.add_dummy_prefix else "never"}
    special = [
        {
            "id": i,
            "content": p,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for i, (p, k) in enumerate(zip(tok.pieces, tok.kinds))
        if k in ("unknown", "control")
    ]
    data = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": special,
        "normalizer": normalizer,
        "pre_tokenizer": metaspace,
        "post_processor": None,
        "decoder": decoder,
        "model": {
            "type": "Unigram",
            "unk_id": tok.unk_id,
            "vocab": [[p, s] for p, s in zip(tok.pieces, tok.scores)],
            "byte_fallback": tok.byte_fallback,
        },
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _normalizer(normalizer: Any, path: str | os.PathLike[str]) -> tuple[bytes, bool]:
    """The charsmap of a Precompiled step, and whether a Prepend(▁) step is there."""
    if normalizer is None:
        return b"", False
    steps = (
        normalizer.get("normalizers")
        if isinstance(normalizer, dict) and normalizer.get("type") == "Sequence"
        else [normalizer]
    )
    if not isinstance(steps, list):
        raise TokenizerFileError(path, "normalizer.normalizers", "must be a list")
    charsmap, prepend = b"", False
    for k, step in enumerate(steps):
        kind = step.get("type") if isinstance(step, dict) else type(step).__name__
        if kind == "Precompiled" and not prepend and not charsmap:
            blob = step.get("precompiled_charsmap")
            try:
                charsmap = base64.b64decode(blob, validate=True) if blob else b""
            except (binascii.Error, TypeError, ValueError):
                raise TokenizerFileError(path, "normalizer.precompiled_charsmap", "is not base64") from None
        elif kind == "Prepend" and step.get("prepend") == SPACE and not prepend:
            prepend = True
        else:
            raise TokenizerFileError(
                path,
                f"normalizer[{k}]" if len(steps) > 1 else "normalizer",
                f"is {kind}; for Unigram models MergeScope reads none, Precompiled, then Prepend('▁')",
            )
    return charsmap, prepend


def _metaspace(pre: Any, path: str | os.PathLike[str]) -> bool:
    """Whether the Metaspace pre-tokenizer puts a ▁ in front of the text."""
    if not isinstance(pre, dict) or pre.get("type") != "Metaspace":
        kind = pre.get("type") if isinstance(pre, dict) else pre
        raise TokenizerFileError(
            path, "pre_tokenizer", f"is {kind!r}; for Unigram models MergeScope reads Metaspace (split on ▁)"
        )
    if pre.get("replacement", SPACE) != SPACE or not pre.get("split", True):
        raise TokenizerFileError(path, "pre_tokenizer", "must be Metaspace with replacement ▁ and split true")
    scheme = pre.get("prepend_scheme")
    if scheme is None:
        return bool(pre.get("add_prefix_space", True))
    if not isinstance(scheme, str) or scheme not in ("always", "never"):
        raise TokenizerFileError(
            path, "pre_tokenizer.prepend_scheme", f"is {scheme!r}; MergeScope reads 'always' or 'never'"
        )
    return scheme == "always"
