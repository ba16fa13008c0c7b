"""HF `tokenizers`' ``tokenizer.json`` for byte-level BPE.

Written as: no normalizer; pre-tokenizer ``Split`` with the tokenizer's regex
(behavior ``Isolated``) followed by ``ByteLevel(add_prefix_space=false,
use_regex=false)``, so HF cuts text exactly where MergeScope does (for
pattern ``none``, the ``ByteLevel`` step alone); a ``BPE`` model whose vocab
and merges are in GPT-2's byte-to-unicode alphabet; a ``ByteLevel`` decoder;
every special token as an added token (``special: true``), also in the vocab.

Read: the same shapes, plus HF's own ``ByteLevel(use_regex=true)`` (its GPT-2
regex, :data:`HF_BYTELEVEL_PATTERN`), merges as ``"a b"`` strings or ``["a",
"b"]`` pairs, and any post-processor (it only adds special tokens around the
ids, so compare with HF's ``encode(..., add_special_tokens=False)``).  Anything
that would make HF's ids differ from ours (a normalizer, ``add_prefix_space``,
``ignore_merges``, an added token with ``lstrip``...) is refused with the key
that says it.

>>> vocab = {b: bytes([b]) for b in range(256)} | {256: b"<|endoftext|>", 257: b"ab"}
>>> text = tokenizer_json(TokenizerData(vocab, [(97, 98)], {"<|endoftext|>": 256}, "none"))
>>> d = json.loads(text)
>>> d["pre_tokenizer"]["type"], d["model"]["merges"], d["added_tokens"][0]["id"]
('ByteLevel', ['a b'], 256)
>>> back = read_hf_json_text(text, "tokenizer.json")
>>> back.pattern, back.merges, back.special_tokens
('none', [(97, 98)], {'<|endoftext|>': 256})
"""

from __future__ import annotations

import json
import os
from typing import Any

import regex

from ..byte_level import to_unicode_string
from ..pretokenizer import PATTERNS, excerpt, pattern_name, resolve_pattern
from .data import TokenizerData, TokenizerLike, merge_results
from .gpt2 import MergeLine, build_byte_level, check_vocab_ids, check_writable, token_strings
from .safe_io import TokenizerFileError, expect_int, parse_json

TOKENIZER_JSON = "tokenizer.json"

HF_BYTELEVEL_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
"""The regex HF's ``ByteLevel(use_regex=true)`` splits with (GPT-2's original form)."""

# HF compiles regexes with Oniguruma, where ``{1,3}+`` is not possessive but
# "repeat the group"; these named patterns are written in a form both engines
# read the same way (a top-level alternative never backtracks into itself, so
# dropping the possessive ``+`` there changes nothing in ``regex``).
_HF_FORMS: dict[str, str] = {
    name: source.replace(r"\p{N}{1,3}+", r"\p{N}{1,3}")
    for name, source in PATTERNS.items()
    if source is not None and name != "cl100k"
}


def to_hf_regex(pattern: str) -> str | None:
    """The regex to write in a ``Split`` for ``pattern`` (None for ``none``).

    >>> to_hf_regex("gpt4").count("{1,3}+"), to_hf_regex("none")
    (0, None)
    """
    source = resolve_pattern(pattern)
    if source is None:
        return None
    return _HF_FORMS.get(pattern_name(source), source)


def from_hf_regex(source: str) -> str:
    """The pattern (a name when it is one of ours) for a ``Split`` regex read from a file.

    >>> from_hf_regex(to_hf_regex("gpt4")), from_hf_regex(r"\\w+")
    ('gpt4', '\\\\w+')
    """
    for name, form in _HF_FORMS.items():
        if form == source:
            return name
    name = pattern_name(source)
    return name if name != "custom" else source


# ----- reading -----
def read_hf_json_text(text: str, path: str | os.PathLike[str]) -> TokenizerData:
    """Read a byte-level BPE ``tokenizer.json`` from the file's text (``path`` labels errors)."""
    data = parse_json(text, path)
    if not isinstance(data, dict):
        raise TokenizerFileError(path, "", 'must be a JSON object with a "model" key (an HF tokenizer.json)')
    pattern = layout_pattern(data, path)
    model = data["model"]
    raw_vocab = model.get("vocab")
    if not isinstance(raw_vocab, dict) or not raw_vocab:
        raise TokenizerFileError(path, "key 'model.vocab'", "must be a non-empty object {token: id}")
    vocab = check_vocab_ids(raw_vocab, path, "model.vocab key")
    merges = _merge_lines(model.get("merges"), path)
    named = _added_tokens(data.get("added_tokens", []), vocab, path)
    out = build_byte_level(
        vocab, merges, named, vocab_path=path, merges_path=path, vocab_where="model.vocab key"
    )
    out.pattern = pattern
    return out


def layout_pattern(data: dict[str, Any], path: str | os.PathLike[str]) -> str:
    """Check everything of a parsed ``tokenizer.json`` but the model's vocab and merges, as
    :func:`read_hf_json_text` does, and return its split pattern.

    For telling, without reading a large vocab, whether a file is byte-level BPE: pass the top
    level with ``model`` holding only its small keys (``type``, ``byte_fallback``...).

    >>> layout_pattern({"model": {"type": "WordPiece"}}, "bert/tokenizer.json")
    Traceback (most recent call last):
    ...
    bpe_core.formats.safe_io.TokenizerFileError: bert/tokenizer.json, key 'model.type': is 'WordPiece'; \
only byte-level BPE models can be read
    """
    model = data.get("model")
    if not isinstance(model, dict):
        raise TokenizerFileError(
            path, "key 'model'", "is missing or not an object; is this an HF tokenizer.json?"
        )
    _check_model(model, path)
    _check_normalizer(data.get("normalizer"), path)
    pattern = _pattern_of(data.get("pre_tokenizer"), path, "pre_tokenizer")
    _check_decoder(data.get("decoder"), path)
    return pattern


def _where(key: str) -> str:
    return f"key {excerpt(key)}"


def _check_model(model: dict[str, Any], path: str | os.PathLike[str]) -> None:
    kind = model.get("type", "BPE")
    if kind != "BPE":
        raise TokenizerFileError(
            path, _where("model.type"), f"is {excerpt(kind)}; only byte-level BPE models can be read"
        )
    for key, allowed in (
        ("dropout", (None, 0, 0.0)),
        ("continuing_subword_prefix", (None, "")),
        ("end_of_word_suffix", (None, "")),
        ("byte_fallback", (None, False)),
    ):
        value = model.get(key)
        if value not in allowed:
            raise TokenizerFileError(
                path,
                _where(f"model.{key}"),
                f"is {excerpt(value)}; byte-level BPE as MergeScope encodes it needs {allowed[0]!r}",
            )
    if model.get("ignore_merges") not in (None, False):
        raise TokenizerFileError(
            path,
            _where("model.ignore_merges"),
            "is true: HF then takes a whole word from the vocab before merging, which MergeScope does not "
            "do, "
            "so ids could differ; set it to false to load the file",
        )


def _check_normalizer(normalizer: Any, path: str | os.PathLike[str]) -> None:
    if normalizer is None:
        return
    if (
        isinstance(normalizer, dict)
        and normalizer.get("type") == "Sequence"
        and normalizer.get("normalizers") == []
    ):
        return
    kind = normalizer.get("type") if isinstance(normalizer, dict) else normalizer
    raise TokenizerFileError(
        path,
        _where("normalizer"),
        f"is {excerpt(kind)}; MergeScope does not normalize text, so only null can be read",
    )


def _check_bytelevel(step: dict[str, Any], path: str | os.PathLike[str], where: str) -> bool:
    """Checks a ByteLevel pre-tokenizer; returns its ``use_regex``."""
    if step.get("add_prefix_space", True) is not False:
        raise TokenizerFileError(
            path,
            _where(f"{where}.add_prefix_space"),
            "is true: HF then adds a space before the text, which MergeScope does not do; set it to false "
            "to load the file",
        )
    use_regex = step.get("use_regex", True)
    if not isinstance(use_regex, bool):
        raise TokenizerFileError(
            path, _where(f"{where}.use_regex"), f"must be true or false, not {excerpt(use_regex)}"
        )
    return use_regex


def _pattern_of(pre: Any, path: str | os.PathLike[str], where: str) -> str:
    if not isinstance(pre, dict):
        raise TokenizerFileError(
            path,
            _where(where),
            "must be a ByteLevel pre-tokenizer (optionally after a Split); this is not a byte-level BPE file",
        )
    kind = pre.get("type")
    if kind == "ByteLevel":
        return HF_BYTELEVEL_PATTERN if _check_bytelevel(pre, path, where) else "none"
    if kind == "Sequence":
        steps = pre.get("pretokenizers")
        if not isinstance(steps, list) or not steps:
            raise TokenizerFileError(path, _where(f"{where}.pretokenizers"), "must be a non-empty list")
        if len(steps) == 1:
            return _pattern_of(steps[0], path, f"{where}.pretokenizers[0]")
        if len(steps) == 2 and isinstance(steps[0], dict) and steps[0].get("type") == "Split":
            source = _split_regex(steps[0], path, f"{where}.pretokenizers[0]")
            last = steps[1]
            if not isinstance(last, dict) or last.get("type") != "ByteLevel":
                raise TokenizerFileError(
                    path, _where(f"{where}.pretokenizers[1]"), "must be a ByteLevel pre-tokenizer"
                )
            if _check_bytelevel(last, path, f"{where}.pretokenizers[1]"):
                raise TokenizerFileError(
                    path,
                    _where(f"{where}.pretokenizers[1].use_regex"),
                    "is true after a Split, so HF splits twice; MergeScope splits once (set it to false)",
                )
            return from_hf_regex(source)
    raise TokenizerFileError(
        path,
        _where(where),
        f"is {excerpt(kind)} with a shape MergeScope cannot reproduce; expected ByteLevel, "
        "or a Sequence of Split (behavior Isolated) then ByteLevel(use_regex=false)",
    )


def _split_regex(split: dict[str, Any], path: str | os.PathLike[str], where: str) -> str:
    pattern = split.get("pattern")
    source: str
    if isinstance(pattern, dict) and isinstance(pattern.get("Regex"), str) and pattern["Regex"]:
        source = pattern["Regex"]
    elif isinstance(pattern, dict) and isinstance(pattern.get("String"), str) and pattern["String"]:
        source = regex.escape(pattern["String"])
    else:
        raise TokenizerFileError(
            path, _where(f"{where}.pattern"), 'must be {"Regex": "..."} or {"String": "..."}'
        )
    if split.get("behavior") != "Isolated" or split.get("invert", False) is not False:
        raise TokenizerFileError(
            path,
            _where(f"{where}.behavior"),
            f"is {excerpt(split.get('behavior'))} (invert {excerpt(split.get('invert'))}); only Isolated "
            "without invert "
            "cuts text as MergeScope does",
        )
    try:
        resolve_pattern(source)
    except ValueError as exc:
        raise TokenizerFileError(path, _where(f"{where}.pattern"), str(exc)) from None
    return source


def _check_decoder(decoder: Any, path: str | os.PathLike[str]) -> None:
    if decoder is None or (isinstance(decoder, dict) and decoder.get("type") == "ByteLevel"):
        return
    kind = decoder.get("type") if isinstance(decoder, dict) else decoder
    raise TokenizerFileError(
        path,
        _where("decoder"),
        f"is {excerpt(kind)}; a byte-level BPE file has a ByteLevel decoder (or null)",
    )


def _merge_lines(merges: Any, path: str | os.PathLike[str]) -> list[MergeLine]:
    if merges is None:
        merges = []
    if not isinstance(merges, list):
        raise TokenizerFileError(path, _where("model.merges"), "must be a list of merges")
    out = []
    for k, m in enumerate(merges):
        where = f"key 'model.merges[{k}]'"
        if isinstance(m, str):
            parts = m.split(" ")
        elif isinstance(m, list) and all(isinstance(p, str) for p in m):
            parts = m
        else:
            raise TokenizerFileError(
                path, where, f'{excerpt(m)} is not a merge: expected "a b" or ["a", "b"]'
            )
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise TokenizerFileError(path, where, f"{excerpt(m)} is not a merge: expected two tokens")
        out.append(MergeLine(parts[0], parts[1], where))
    return out


def _added_tokens(added: Any, vocab: dict[str, int], path: str | os.PathLike[str]) -> dict[str, int]:
    """Added tokens become special tokens (HF cuts every added token out before the model)."""
    if added is None:
        return {}
    if not isinstance(added, list):
        raise TokenizerFileError(path, _where("added_tokens"), "must be a list")
    named: dict[str, int] = {}
    owner = {i: s for s, i in vocab.items()}
    for k, entry in enumerate(added):
        where = f"added_tokens[{k}]"
        if not isinstance(entry, dict):
            raise TokenizerFileError(path, _where(where), "must be an object with id and content")
        content = entry.get("content")
        if not isinstance(content, str) or not content:
            raise TokenizerFileError(path, _where(f"{where}.content"), "must be a non-empty string")
        i = expect_int(entry.get("id"), path, _where(f"{where}.id"))
        for flag in ("lstrip", "rstrip", "single_word"):
            if entry.get(flag, False) is not False:
                raise TokenizerFileError(
                    path,
                    _where(f"{where}.{flag}"),
                    f"is true for {excerpt(content)}; MergeScope matches special tokens exactly, so ids "
                    "could "
                    "differ (set it to false)",
                )
        if content in named:
            raise TokenizerFileError(path, _where(f"{where}.content"), f"{excerpt(content)} is added twice")
        if content in vocab and vocab[content] != i:
            raise TokenizerFileError(
                path,
                _where(f"{where}.id"),
                f"{excerpt(content)} has id {i} here but {vocab[content]} in model.vocab",
            )
        if content not in vocab:
            if i in owner:
                raise TokenizerFileError(
                    path,
                    _where(f"{where}.id"),
                    f"id {i} of {excerpt(content)} is already used by {excerpt(owner[i])}",
                )
            vocab[content] = i
            owner[i] = content
        named[content] = i
    return named


# ----- writing -----
def tokenizer_json(tok: TokenizerLike) -> str:
    """The ``tokenizer.json`` text (2-space indented, keys in HF's order)."""
    check_writable(tok)
    merge_results(tok)
    strings = token_strings(tok)
    bytelevel = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
    hf_regex = to_hf_regex(tok.pattern)
    pre: dict[str, Any] = (
        bytelevel
        if hf_regex is None
        else {
            "type": "Sequence",
            "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": hf_regex}, "behavior": "Isolated", "invert": False},
                bytelevel,
            ],
        }
    )
    data = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {
                "id": i,
                "content": s,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
            for s, i in sorted(tok.special_tokens.items(), key=lambda kv: kv[1])
        ],
        "normalizer": None,
        "pre_tokenizer": pre,
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": {s: i for i, s in strings.items()},
            "merges": [
                f"{to_unicode_string(tok.vocab[a])} {to_unicode_string(tok.vocab[b])}" for a, b in tok.merges
            ],
        },
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
