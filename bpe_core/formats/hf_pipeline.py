"""HF ``tokenizer.json`` files read stage by stage into a :class:`~bpe_core.pipeline.PipelineTokenizer`.

The files the other readers refuse (:mod:`.hf_json`: byte-level BPE as MergeScope writes it;
:mod:`.wordpiece_files`, :mod:`.unigram_json`) come here: an uncased BERT (``BertNormalizer``), T5
(``Precompiled`` + ``Metaspace``), Llama-2 (``Prepend``/``Replace`` normalizers, a BPE model over
characters with ``byte_fallback``, a ``ByteFallback``/``Fuse`` decoder), RoBERTa's post-processor...
Each stage's JSON is read by the table for its place (:data:`NORMALIZERS`, :data:`PRE_TOKENIZERS`,
:data:`DECODERS`, :data:`POST_PROCESSORS`); a stage not in the table is an error naming its key and
type, with what is supported.

>>> import json
>>> data = {"model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "hi": 1}, "unk_token": "[UNK]"},
...         "normalizer": {"type": "BertNormalizer", "lowercase": True},
...         "pre_tokenizer": {"type": "BertPreTokenizer"}}
>>> read_pipeline_json_text(json.dumps(data), "tokenizer.json").encode("HI there")
[1, 0]
>>> data["normalizer"] = {"type": "Uppercase"}
>>> read_pipeline_json_text(json.dumps(data), "tokenizer.json")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bpe_core.formats.hf_pipeline.UnsupportedStageError: tokenizer.json, key 'normalizer': the normalizer type...
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Callable
from typing import Any, TypeVar

from ..pipeline import (
    AddedToken,
    PipelineTokenizer,
    decoders,
    models,
    normalizers,
    post_processors,
    pre_tokenizers,
)
from ..pipeline.aligned import BEHAVIORS, Behavior
from .safe_io import TokenizerFileError, parse_json

T = TypeVar("T")
Reader = Callable[[dict[str, Any]], T]


class UnsupportedStageError(TokenizerFileError):
    """A ``tokenizer.json`` whose stage (a type, BPE dropout) the pipeline does not run."""


class _Bad(ValueError):
    """A stage that cannot be read: where (a key below the stage) and what; ``unsupported``: a stage the
    pipeline does not run (else the file is wrong)."""

    def __init__(self, where: str, problem: str, *, unsupported: bool = False) -> None:
        super().__init__(problem)
        self.where = where
        self.problem = problem
        self.unsupported = unsupported


def _get(d: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if key not in d or d[key] is None:
        if default is ...:
            raise _Bad(key, f"is missing; a {d.get('type')} stage needs it")
        return default
    value = d[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int, float))):
        raise _Bad(key, f"is {value!r}; expected a {getattr(kind, '__name__', 'value')}")
    return value


def _pattern(d: dict[str, Any]) -> tuple[str, bool]:
    """A ``{"String": s}`` or ``{"Regex": r}`` pattern, as (source, is a regex)."""
    p = _get(d, "pattern", dict)
    if isinstance(p.get("String"), str):
        return p["String"], False
    if isinstance(p.get("Regex"), str):
        return p["Regex"], True
    raise _Bad("pattern", 'must be {"String": ...} or {"Regex": ...}')


def _behavior(d: dict[str, Any], default: Behavior) -> Behavior:
    raw = _get(d, "behavior", str, default)
    snake = "".join("_" + c.lower() if c.isupper() else c for c in raw).lstrip("_")
    for b in BEHAVIORS:
        if b == snake:
            return b
    raise _Bad(
        "behavior", f"is {raw!r}; use Removed, Isolated, MergedWithPrevious, MergedWithNext or Contiguous"
    )


def _prepend_scheme(d: dict[str, Any]) -> pre_tokenizers.PrependScheme:
    scheme = d.get("prepend_scheme")
    if scheme is None:
        return "always" if d.get("add_prefix_space", True) else "never"
    if scheme not in ("always", "first", "never"):
        raise _Bad("prepend_scheme", f"is {scheme!r}; use always, first or never")
    if d.get("add_prefix_space") is False and scheme != "never":
        raise _Bad("add_prefix_space", "is false but prepend_scheme is not 'never'; make them agree")
    result: pre_tokenizers.PrependScheme = scheme
    return result


def _charsmap(d: dict[str, Any]) -> bytes:
    raw = d.get("precompiled_charsmap")
    if raw is None or raw == "":
        return b""
    if not isinstance(raw, str):
        raise _Bad("precompiled_charsmap", "must be a base64 string")
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        raise _Bad("precompiled_charsmap", "is not valid base64") from None


def _normalizer_sequence(d: dict[str, Any]) -> normalizers.Normalizer:
    return normalizers.Sequence(
        tuple(_each(_get(d, "normalizers", list), NORMALIZERS, "normalizer", "normalizers"))
    )


NORMALIZERS: dict[str, Reader[normalizers.Normalizer]] = {
    "NFC": lambda d: normalizers.NFC(),
    "NFD": lambda d: normalizers.NFD(),
    "NFKC": lambda d: normalizers.NFKC(),
    "NFKD": lambda d: normalizers.NFKD(),
    "Lowercase": lambda d: normalizers.Lowercase(),
    "StripAccents": lambda d: normalizers.StripAccents(),
    "Nmt": lambda d: normalizers.Nmt(),
    "Strip": lambda d: normalizers.Strip(
        left=bool(_get(d, "strip_left", bool, True)), right=bool(_get(d, "strip_right", bool, True))
    ),
    "Prepend": lambda d: normalizers.Prepend(_get(d, "prepend", str)),
    "Replace": lambda d: normalizers.Replace(
        *_pattern(d)[:1], _get(d, "content", str), is_regex=_pattern(d)[1]
    ),
    "BertNormalizer": lambda d: normalizers.BertNormalizer(
        clean_text=bool(_get(d, "clean_text", bool, True)),
        handle_chinese_chars=bool(_get(d, "handle_chinese_chars", bool, True)),
        strip_accents=_get(d, "strip_accents", bool, None),
        lowercase=bool(_get(d, "lowercase", bool, True)),
    ),
    "Precompiled": lambda d: normalizers.Precompiled(_charsmap(d)),
    "Sequence": _normalizer_sequence,
}
"""A normalizer's ``type`` -> how its JSON becomes the stage."""


def _pre_sequence(d: dict[str, Any]) -> pre_tokenizers.PreTokenizer:
    items = _get(d, "pretokenizers", list)
    return pre_tokenizers.Sequence(tuple(_each(items, PRE_TOKENIZERS, "pre-tokenizer", "pretokenizers")))


PRE_TOKENIZERS: dict[str, Reader[pre_tokenizers.PreTokenizer]] = {
    "BertPreTokenizer": lambda d: pre_tokenizers.BertPreTokenizer(),
    "Whitespace": lambda d: pre_tokenizers.Whitespace(),
    "WhitespaceSplit": lambda d: pre_tokenizers.WhitespaceSplit(),
    "Metaspace": lambda d: pre_tokenizers.Metaspace(
        replacement=_get(d, "replacement", str, "▁"),
        prepend_scheme=_prepend_scheme(d),
        split=bool(_get(d, "split", bool, True)),
    ),
    "ByteLevel": lambda d: pre_tokenizers.ByteLevel(
        add_prefix_space=bool(_get(d, "add_prefix_space", bool, True)),
        use_regex=bool(_get(d, "use_regex", bool, True)),
    ),
    "Split": lambda d: pre_tokenizers.Split(
        _pattern(d)[0],
        _behavior(d, "isolated"),
        invert=bool(_get(d, "invert", bool, False)),
        is_regex=_pattern(d)[1],
    ),
    "Punctuation": lambda d: pre_tokenizers.Punctuation(_behavior(d, "isolated")),
    "Digits": lambda d: pre_tokenizers.Digits(
        individual_digits=bool(_get(d, "individual_digits", bool, False))
    ),
    "Sequence": _pre_sequence,
}
"""A pre-tokenizer's ``type`` -> how its JSON becomes the stage."""


def _decoder_sequence(d: dict[str, Any]) -> decoders.Decoder:
    return decoders.Sequence(tuple(_each(_get(d, "decoders", list), DECODERS, "decoder", "decoders")))


DECODERS: dict[str, Reader[decoders.Decoder]] = {
    "ByteLevel": lambda d: decoders.ByteLevel(),
    "WordPiece": lambda d: decoders.WordPiece(
        prefix=_get(d, "prefix", str, "##"), cleanup=bool(_get(d, "cleanup", bool, True))
    ),
    "Metaspace": lambda d: decoders.Metaspace(
        replacement=_get(d, "replacement", str, "▁"),
        prepend_scheme=_prepend_scheme(d),
        split=bool(_get(d, "split", bool, True)),
    ),
    "ByteFallback": lambda d: decoders.ByteFallback(),
    "Fuse": lambda d: decoders.Fuse(),
    "Strip": lambda d: decoders.Strip(
        content=_get(d, "content", str, " "), start=_get(d, "start", int, 0), stop=_get(d, "stop", int, 0)
    ),
    "Replace": lambda d: _decoder_replace(d),
    "Sequence": _decoder_sequence,
}
"""A decoder's ``type`` -> how its JSON becomes the stage."""


def _decoder_replace(d: dict[str, Any]) -> decoders.Decoder:
    source, is_regex = _pattern(d)
    if is_regex:
        raise _Bad("pattern", "a Replace decoder with a regex is not supported; use a String pattern")
    return decoders.Replace(source, _get(d, "content", str))


def _special(d: dict[str, Any], key: str) -> tuple[str, int]:
    pair = _get(d, key, list)
    if len(pair) != 2 or not isinstance(pair[0], str) or not isinstance(pair[1], int):
        raise _Bad(key, 'must be ["token", id]')
    return pair[0], pair[1]


def _template(d: dict[str, Any]) -> post_processors.PostProcessor:
    specials = _get(d, "special_tokens", dict, {})
    items: list[tuple[str, int | None]] = []
    for k, piece in enumerate(_get(d, "single", list)):
        if isinstance(piece, dict) and isinstance(piece.get("Sequence"), dict):
            items.append(("$A", None))
        elif isinstance(piece, dict) and isinstance(piece.get("SpecialToken"), dict):
            name = piece["SpecialToken"].get("id")
            entry = specials.get(name)
            if not isinstance(entry, dict) or not isinstance(entry.get("ids"), list):
                raise _Bad(
                    f"single[{k}]", f"names the special token {name!r}, which special_tokens does not list"
                )
            items.extend((name, int(i)) for i in entry["ids"])
        else:
            raise _Bad(f"single[{k}]", 'must be {"Sequence": ...} or {"SpecialToken": ...}')
    return post_processors.TemplateProcessing(tuple(items))


def _post_sequence(d: dict[str, Any]) -> post_processors.PostProcessor:
    items = _get(d, "processors", list)
    return post_processors.Sequence(tuple(_each(items, POST_PROCESSORS, "post-processor", "processors")))


POST_PROCESSORS: dict[str, Reader[post_processors.PostProcessor]] = {
    "BertProcessing": lambda d: post_processors.BertProcessing(
        sep=_special(d, "sep"), cls=_special(d, "cls")
    ),
    "RobertaProcessing": lambda d: post_processors.RobertaProcessing(
        sep=_special(d, "sep"), cls=_special(d, "cls")
    ),
    "TemplateProcessing": _template,
    "ByteLevel": lambda d: post_processors.ByteLevel(),
    "Sequence": _post_sequence,
}
"""A post-processor's ``type`` -> how its JSON becomes the stage."""


def _one(d: Any, table: dict[str, Reader[T]], what: str) -> T:
    if not isinstance(d, dict):
        raise _Bad("", f"must be an object with a 'type', not {d!r}")
    kind = d.get("type")
    reader = table.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise _Bad(
            "", f"the {what} type {kind!r} is not supported (supported: {', '.join(table)})", unsupported=True
        )
    return reader(d)


def _each(items: list[Any], table: dict[str, Reader[T]], what: str, key: str) -> list[T]:
    out = []
    for k, item in enumerate(items):
        try:
            out.append(_one(item, table, what))
        except _Bad as exc:
            where = f"{key}[{k}]" + (f".{exc.where}" if exc.where else "")
            raise _Bad(where, exc.problem, unsupported=exc.unsupported) from None
    return out


def _model(d: Any) -> models.Model:
    if not isinstance(d, dict):
        raise _Bad("", "must be an object with a 'type'")
    kind = d.get("type")
    if kind is None:  # older files leave the BPE model's type out
        kind = "Unigram" if isinstance(d.get("vocab"), list) else "WordPiece" if "merges" not in d else "BPE"
    if kind == "WordPiece":
        return models.WordPieceModel(
            _get(d, "vocab", dict),
            unk_token=_get(d, "unk_token", str, "[UNK]"),
            continuing_subword_prefix=_get(d, "continuing_subword_prefix", str, "##"),
            max_input_chars_per_word=_get(d, "max_input_chars_per_word", int, 100),
        )
    if kind == "Unigram":
        vocab = _get(d, "vocab", list)
        pairs = []
        for k, entry in enumerate(vocab):
            ok = isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
            if not ok or isinstance(entry[1], bool) or not isinstance(entry[1], int | float):
                raise _Bad(f"vocab[{k}]", "must be [piece, score]")
            pairs.append((entry[0], float(entry[1])))
        unk_id = _get(d, "unk_id", int, None)
        if unk_id is None:
            raise _Bad("unk_id", "is null; MergeScope needs the id of an unknown piece")
        return models.UnigramModel(
            pairs, unk_id=unk_id, byte_fallback=bool(_get(d, "byte_fallback", bool, False))
        )
    if kind == "BPE":
        if d.get("dropout") not in (None, 0, 0.0):
            raise _Bad(
                "dropout",
                "is set; BPE dropout is random, so ids could not be compared: set it to null",
                unsupported=True,
            )
        merges = []
        for k, m in enumerate(_get(d, "merges", list)):
            pair = m.split(" ") if isinstance(m, str) else m
            if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(p, str) for p in pair):
                raise _Bad(f"merges[{k}]", f"{m!r} is not a merge of two pieces")
            merges.append((pair[0], pair[1]))
        return models.BpeModel(
            _get(d, "vocab", dict),
            merges,
            unk_token=_get(d, "unk_token", str, None),
            continuing_subword_prefix=_get(d, "continuing_subword_prefix", str, None),
            end_of_word_suffix=_get(d, "end_of_word_suffix", str, None),
            byte_fallback=bool(_get(d, "byte_fallback", bool, False)),
            fuse_unk=bool(_get(d, "fuse_unk", bool, False)),
            ignore_merges=bool(_get(d, "ignore_merges", bool, False)),
        )
    raise _Bad("type", f"is {kind!r}; the models read are WordPiece, Unigram and BPE", unsupported=True)


def _added(items: Any) -> list[AddedToken]:
    if items is None:
        return []
    if not isinstance(items, list):
        raise _Bad("", "must be a list")
    out = []
    for k, t in enumerate(items):
        if not isinstance(t, dict) or not isinstance(t.get("content"), str) or not t["content"]:
            raise _Bad(f"[{k}]", "must be an object with a non-empty 'content' and an 'id'")
        i = t.get("id")
        if isinstance(i, bool) or not isinstance(i, int) or i < 0:
            raise _Bad(f"[{k}].id", f"is {i!r}; must be a whole number from 0")
        flags = {f: bool(t.get(f, False)) for f in ("single_word", "lstrip", "rstrip", "special")}
        normalized = bool(t.get("normalized", not flags["special"]))
        out.append(AddedToken(t["content"], i, normalized=normalized, **flags))
    return out


def read_pipeline_json_text(text: str, path: str | os.PathLike[str]) -> PipelineTokenizer:
    """The :class:`PipelineTokenizer` of a ``tokenizer.json``'s text; ``path`` names it in errors."""
    data = parse_json(text, path)
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise TokenizerFileError(path, "", 'must be a JSON object with a "model" key (an HF tokenizer.json)')
    parts: dict[str, Any] = {}
    steps: list[tuple[str, Callable[[Any], Any]]] = [
        ("model", _model),
        ("added_tokens", _added),
        ("normalizer", lambda d: None if d is None else _one(d, NORMALIZERS, "normalizer")),
        ("pre_tokenizer", lambda d: None if d is None else _one(d, PRE_TOKENIZERS, "pre-tokenizer")),
        ("post_processor", lambda d: None if d is None else _one(d, POST_PROCESSORS, "post-processor")),
        ("decoder", lambda d: None if d is None else _one(d, DECODERS, "decoder")),
    ]
    for key, read in steps:
        try:
            parts[key] = read(data.get(key))
        except _Bad as exc:
            where = f"{key}.{exc.where}" if exc.where and not exc.where.startswith("[") else key + exc.where
            error = UnsupportedStageError if exc.unsupported else TokenizerFileError
            raise error(path, f"key {where!r}", exc.problem) from None
        except ValueError as exc:
            raise TokenizerFileError(path, f"key {key!r}", str(exc)) from None
    return PipelineTokenizer(**parts)
