"""Which format a directory or a file holds, and which files to read for it.

A file is recognised by what it holds where its name does not say (any ``.txt`` or ``.json``): a
``.txt`` of one token a line with ``[UNK]`` is BERT's vocabulary, one of two tokens a line (after an
optional ``#version`` line) a ``merges.txt``; a ``.json`` with a ``model`` object is a ``tokenizer.json``,
one that maps strings to whole numbers a ``vocab.json``; anything else is named as no tokenizer file.

>>> txt_kind("[PAD]\\n[UNK]\\nthe\\n##s\\n"), txt_kind("#version: 0.2\\nĠ t\\nh e\\n")
('bert-vocab', 'merges')
>>> txt_kind("the cat sat\\n") is None
True
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .encoding_config import ENCODING_JSON
from .gpt2 import MERGES_TXT, VOCAB_JSON
from .hf_json import TOKENIZER_JSON
from .safe_io import MAX_FILE_BYTES, TokenizerFileError, check_regular_file, parse_json, read_text
from .sentencepiece_model import is_sentencepiece_model
from .vocab_txt import VOCAB_TXT
from .wordpiece_files import is_bert_vocab

# tokenizer.json's model.type -> the format name, for the schemes that are not byte-level BPE
MODEL_TYPE_FORMATS = {"WordPiece": "wordpiece-json", "Unigram": "unigram-json"}


def detect_format(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> tuple[str, list[Path]]:
    """``(format, files to read)`` for a directory or a file; an unknown one is a TokenizerFileError."""
    if not isinstance(path, str | os.PathLike):
        raise ValueError(
            f"the tokenizer path must be a directory or a file name (str or Path), not {type(path).__name__}"
        )
    p = Path(path)
    if p.is_dir():
        return _detect_in_directory(p)
    if not p.exists():
        raise TokenizerFileError(p, "", "does not exist; pass a tokenizer directory or file")
    name = p.name.lower()
    if name.endswith(".tiktoken"):
        return "tiktoken", [p]
    if name.endswith(".model"):
        return ("sentencepiece" if is_sentencepiece_model(p, max_bytes=max_bytes) else "minbpe"), [p]
    if name.endswith("special_tokens_map.json"):
        raise TokenizerFileError(
            p, "", "only names the special tokens; load the directory, or vocab.json, instead"
        )
    if name == ENCODING_JSON:
        raise TokenizerFileError(
            p, "", "only holds the split pattern and special tokens; load the directory it is in instead"
        )
    if name == VOCAB_TXT and not is_bert_vocab(p, max_bytes=max_bytes):
        raise TokenizerFileError(
            p,
            "",
            "is MergeScope's human-readable listing, which cannot be loaded; load the directory instead",
        )
    if name.endswith(TOKENIZER_JSON):
        return _json_format(p, max_bytes), [p]
    if name.endswith((CONFIG_JSON, "config.json")):
        raise TokenizerFileError(
            p, "", "only holds the model's settings; load its tokenizer.json or .model file instead"
        )
    if name.endswith(".json"):
        if _is_hf_json(p, max_bytes):
            return _json_format(p, max_bytes), [p]
        _check_vocab_json(p, max_bytes)
        return "gpt2", _gpt2_files(vocab=p)
    if name.endswith(".txt"):
        kind = txt_kind(read_text(p, max_bytes=max_bytes))
        if kind == "bert-vocab":
            return "bert-vocab", [p]
        if kind == "merges":
            return "gpt2", _gpt2_files(merges=p)
        raise TokenizerFileError(
            p,
            "",
            "holds neither BERT's vocabulary (one token a line, with [UNK]) nor BPE merges (two tokens a "
            "line); load a tokenizer's vocab.txt, or merges.txt with its vocab.json",
        )
    head = _head(p).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"minbpe v1"):
        return "minbpe", [p]
    if head.startswith(b"{"):
        if _is_hf_json(p, max_bytes):
            return _json_format(p, max_bytes), [p]
        _check_vocab_json(p, max_bytes)
        return "gpt2", _gpt2_files(vocab=p)
    if _TIKTOKEN_LINE.match(head):
        return "tiktoken", [p]
    raise TokenizerFileError(
        p,
        "",
        UNKNOWN_FILE,
    )


_TIKTOKEN_LINE = re.compile(rb"[A-Za-z0-9+/]+=*[ \t]+[0-9]+\s")
CONFIG_JSON = "tokenizer_config.json"
UNKNOWN_FILE = (
    "is not a tokenizer file MergeScope knows (tokenizer.json, vocab.json + merges.txt, *.tiktoken, "
    "a SentencePiece or minbpe *.model, BERT's vocab.txt)"
)
_SAMPLE_LINES = 200


def txt_kind(text: str) -> str | None:
    """``bert-vocab``, ``merges`` or None: what a ``.txt`` holds, from its first lines (see the module)."""
    lines = [line.rstrip("\r") for line in text.split("\n", _SAMPLE_LINES)[:_SAMPLE_LINES]]
    lines = [line for line in lines if line.strip()]
    if lines and lines[0].startswith("#version"):
        lines = lines[1:]
    if lines and all(len(line.split(" ")) == 2 and all(line.split(" ")) for line in lines):
        return "merges"
    if not lines:
        return "merges" if text.startswith("#version") else None
    if all(" " not in line.strip() for line in lines) and any(
        line.strip() == "[UNK]" for line in text.split("\n")
    ):
        return "bert-vocab"
    return None


def _check_vocab_json(p: Path, max_bytes: int) -> None:
    """A ``.json`` that is no ``tokenizer.json`` must look like a ``vocab.json``: an object whose values
    are mostly whole numbers (a wrong one is then named by the reader, with its key)."""
    data = parse_json(read_text(p, max_bytes=max_bytes), p)
    if isinstance(data, dict) and data:
        values = list(data.values())[:_SAMPLE_LINES]
        if 2 * sum(isinstance(v, int) and not isinstance(v, bool) for v in values) >= len(values):
            return
    raise TokenizerFileError(
        p,
        "",
        'is JSON but no tokenizer: a tokenizer.json has a "model" object, a vocab.json maps each token '
        "to its id; load one of those",
    )


def _head(p: Path, n: int = 64) -> bytes:
    check_regular_file(p)
    try:
        with open(p, "rb") as f:
            return f.read(n)
    except OSError as exc:
        raise TokenizerFileError(p, "", f"cannot read it ({exc.strerror or exc})") from None


def _is_hf_json(p: Path, max_bytes: int) -> bool:
    data = parse_json(read_text(p, max_bytes=max_bytes), p)
    return isinstance(data, dict) and isinstance(data.get("model"), dict)


def _json_format(p: Path, max_bytes: int) -> str:
    """``hf-json`` for byte-level BPE, or the format of the scheme ``model.type`` names."""
    data = parse_json(read_text(p, max_bytes=max_bytes), p)
    model = data.get("model") if isinstance(data, dict) else None
    kind = model.get("type") if isinstance(model, dict) else None
    return MODEL_TYPE_FORMATS.get(kind, "hf-json") if isinstance(kind, str) else "hf-json"


def _gpt2_files(*, vocab: Path | None = None, merges: Path | None = None) -> list[Path]:
    if vocab is not None:
        merges = vocab.with_name(_swap(vocab.name, "vocab", "merges", ".txt"))
        if not merges.is_file():
            raise TokenizerFileError(vocab, "", f"needs its merges file {merges.name} next to it")
    else:
        assert merges is not None
        vocab = merges.with_name(_swap(merges.name, "merges", "vocab", ".json"))
        if not vocab.is_file():
            raise TokenizerFileError(merges, "", f"needs its vocab file {vocab.name} next to it")
    files = [vocab, merges]
    special_map = vocab.with_name(_swap(vocab.name, "vocab", "special_tokens_map", ".json"))
    if special_map.is_file():
        files.append(special_map)
    return files


def _swap(name: str, old: str, new: str, suffix: str) -> str:
    stem = name.rsplit(".", 1)[0]
    return (stem.replace(old, new) if old in stem else new) + suffix


def _detect_in_directory(d: Path) -> tuple[str, list[Path]]:
    if (d / TOKENIZER_JSON).is_file():
        return _json_format(d / TOKENIZER_JSON, MAX_FILE_BYTES), [d / TOKENIZER_JSON]
    if (d / VOCAB_JSON).is_file() and (d / MERGES_TXT).is_file():
        return "gpt2", _gpt2_files(vocab=d / VOCAB_JSON)
    pairs = sorted(
        v for v in d.glob("*vocab*.json") if v.with_name(_swap(v.name, "vocab", "merges", ".txt")).is_file()
    )
    if len(pairs) == 1:
        return "gpt2", _gpt2_files(vocab=pairs[0])
    tiktoken_files = sorted(d.glob("*.tiktoken"))
    models = sorted(d.glob("*.model"))
    if not pairs and len(tiktoken_files) == 1 and not models:
        return "tiktoken", tiktoken_files
    if not pairs and len(models) == 1 and not tiktoken_files:
        return ("sentencepiece" if is_sentencepiece_model(models[0]) else "minbpe"), models
    if not (pairs or tiktoken_files or models) and (d / VOCAB_TXT).is_file() and is_bert_vocab(d / VOCAB_TXT):
        return "bert-vocab", [d / VOCAB_TXT]
    bert_vocabs = [t for t in sorted(d.glob("*.txt")) if txt_kind(read_text(t)) == "bert-vocab"]
    if not (pairs or tiktoken_files or models or list(d.glob("*.json"))) and len(bert_vocabs) == 1:
        return "bert-vocab", bert_vocabs
    if not (pairs or tiktoken_files or models) and (odd_pair := _one_json_one_txt(d)) is not None:
        return "gpt2", odd_pair
    found = [p.name for p in pairs + tiktoken_files + models]
    if found:
        raise TokenizerFileError(d, "", f"holds several tokenizers ({', '.join(found)}); pass one file")
    raise TokenizerFileError(
        d,
        "",
        "holds no tokenizer files (tokenizer.json, vocab.json + merges.txt, *.tiktoken, *.model or BERT's "
        "vocab.txt)",
    )


def _one_json_one_txt(d: Path) -> list[Path] | None:
    """A vocab and a merges file named otherwise (``gpt2_vocab.json`` + ``reference-merges.txt``):
    the directory's one ``.json`` and one ``.txt``, read as a pair (a mismatch is named on reading)."""
    not_vocab = {TOKENIZER_JSON, "tokenizer_config.json", "config.json", ENCODING_JSON}
    jsons = [p for p in d.glob("*.json") if p.name not in not_vocab and "special_tokens_map" not in p.name]
    txts = [p for p in d.glob("*.txt") if p.name != VOCAB_TXT]
    if len(jsons) != 1 or len(txts) != 1:
        return None
    special_map = [p for p in d.glob("*special_tokens_map*.json")]
    return [jsons[0], txts[0], *special_map[:1]]
