"""Save and load tokenizers in every format: the one place that picks the format.

Formats (one module each):

========== ============================================ =========================
name       files                                        module
========== ============================================ =========================
gpt2       vocab.json, merges.txt, special_tokens_map   :mod:`bpe_core.format_gpt2`
hf-json    tokenizer.json (HF ``tokenizers``)           :mod:`bpe_core.format_hf_json`
tiktoken   tokenizer.tiktoken (rank file)               :mod:`bpe_core.format_tiktoken`
minbpe     tokenizer.model (karpathy/minbpe)            :mod:`bpe_core.format_minbpe`
vocab-txt  vocab.txt (human-readable, write only)       :mod:`bpe_core.format_vocab_txt`
========== ============================================ =========================

:func:`save_tokenizer` writes gpt2, hf-json, tiktoken and vocab-txt into a
directory.  :func:`load_tokenizer` takes a directory (``tokenizer.json`` is
preferred, as it records the split pattern; then ``vocab.json`` +
``merges.txt``; then a single ``*.tiktoken`` or ``*.model``) or any one file:
``vocab.json`` or ``merges.txt`` (its partner is found next to it, also as
``gpt2_vocab.json`` / ``gpt2_merges.txt``), ``tokenizer.json``, ``*.tiktoken``,
``*.model``.

The split pattern: ``tokenizer.json`` and minbpe files record it; for
``vocab.json`` + ``merges.txt`` and ``.tiktoken`` files, which do not, it is
``pattern=`` or else :data:`DEFAULT_PATTERN` (``"gpt2"``, right for GPT-2's
files; pass ``"cl100k"`` or ``"o200k"`` for those tiktoken files).  A
``pattern=`` given always wins.  Ids are kept as the files say.

Files above :data:`~bpe_core.file_io.MAX_FILE_BYTES` (128 MiB) are refused
before reading; any bad content is a :class:`TokenizerFileError` naming the
file, the line or key, and the problem.

>>> import tempfile
>>> from bpe_core import train
>>> tok = train("the cat in the hat<|eot|>", vocab_size=262, special_tokens=["<|eot|>"])
>>> with tempfile.TemporaryDirectory() as d:
...     names = sorted(p.name for p in save_tokenizer(tok, d))
...     back = load_tokenizer(d)
...     from_tiktoken = load_tokenizer(f"{d}/tokenizer.tiktoken", special_tokens={"<|eot|>": 256})
>>> names
['merges.txt', 'special_tokens_map.json', 'tokenizer.json', 'tokenizer.tiktoken', 'vocab.json', 'vocab.txt']
>>> back.encode("the hat<|eot|>") == tok.encode("the hat<|eot|>") == from_tiktoken.encode("the hat<|eot|>")
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from .file_io import MAX_FILE_BYTES, TokenizerFileError, parse_json, read_text, write_text
from .format_gpt2 import (
    MERGES_TXT,
    SPECIAL_TOKENS_MAP_JSON,
    VOCAB_JSON,
    merges_txt,
    read_gpt2,
    special_tokens_map_json,
    vocab_json,
)
from .format_hf_json import TOKENIZER_JSON, read_hf_json_text, tokenizer_json
from .format_minbpe import minbpe_model, read_minbpe
from .format_tiktoken import TOKENIZER_TIKTOKEN, read_tiktoken, tiktoken_text
from .format_vocab_txt import VOCAB_TXT, vocab_txt
from .pretokenizer import resolve_pattern
from .tokenizer import Tokenizer
from .tokenizer_data import TokenizerData, TokenizerLike

__all__ = [
    "DEFAULT_PATTERN",
    "FORMATS",
    "MAX_FILE_BYTES",
    "SAVE_FORMATS",
    "TokenizerFileError",
    "detect_format",
    "load_tokenizer",
    "read_tokenizer_data",
    "save_tokenizer",
    "write_format",
]

DEFAULT_PATTERN = "gpt2"
MINBPE_MODEL = "tokenizer.model"

# format name -> the files it writes: (file name, text maker)
_WRITERS: dict[str, list[tuple[str, Callable[[TokenizerLike], str]]]] = {
    "gpt2": [
        (VOCAB_JSON, vocab_json),
        (MERGES_TXT, merges_txt),
        (SPECIAL_TOKENS_MAP_JSON, special_tokens_map_json),
    ],
    "hf-json": [(TOKENIZER_JSON, tokenizer_json)],
    "tiktoken": [(TOKENIZER_TIKTOKEN, tiktoken_text)],
    "minbpe": [(MINBPE_MODEL, minbpe_model)],
    "vocab-txt": [(VOCAB_TXT, vocab_txt)],
}
FORMATS: tuple[str, ...] = tuple(_WRITERS)
SAVE_FORMATS: tuple[str, ...] = ("gpt2", "hf-json", "tiktoken", "vocab-txt")


# ----- saving -----
def save_tokenizer(
    tok: TokenizerLike, directory: str | os.PathLike[str], *, formats: Iterable[str] = SAVE_FORMATS
) -> list[Path]:
    """Write ``tok`` into ``directory`` (created if needed) in each of ``formats``; returns the paths.

    Every text is made before any file is written, so a tokenizer that one
    format cannot hold (a ValueError saying why) leaves the directory as it was.
    """
    texts = _texts(tok, formats)
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    return [write_text(out / name, text) for name, text in texts]


def write_format(
    tok: TokenizerLike, fmt: str, out: str | os.PathLike[str], *, renumber: bool = False
) -> list[Path]:
    """Write one format: ``gpt2`` into the directory ``out``, the others to the file ``out``
    (or their usual name inside ``out`` when it is a directory).  ``fmt="all"`` is :func:`save_tokenizer`.

    ``renumber`` lets minbpe renumber ids to its layout (see :mod:`bpe_core.format_minbpe`).
    """
    if fmt == "all":
        return save_tokenizer(tok, out)
    _check_formats([fmt])
    path = Path(out)
    if fmt == "gpt2":
        return save_tokenizer(tok, path, formats=["gpt2"])
    ((default_name, maker),) = _WRITERS[fmt]
    text = minbpe_model(tok, renumber=renumber) if fmt == "minbpe" else maker(tok)
    if path.is_dir():
        path = path / default_name
    path.parent.mkdir(parents=True, exist_ok=True)
    return [write_text(path, text)]


def _check_formats(formats: Iterable[str]) -> list[str]:
    formats = list(formats)
    for f in formats:
        if f not in _WRITERS:
            raise ValueError(f"unknown format {f!r}; choose from {', '.join(FORMATS)}")
    return formats


def _texts(tok: TokenizerLike, formats: Iterable[str]) -> list[tuple[str, str]]:
    texts = []
    for fmt in _check_formats(formats):
        for name, maker in _WRITERS[fmt]:
            try:
                texts.append((name, maker(tok)))
            except ValueError as exc:
                raise ValueError(
                    f"cannot write {name} ({fmt}): {exc}; leave {fmt!r} out of formats= to save the rest"
                ) from None
    return texts


# ----- loading -----
def load_tokenizer(
    path: str | os.PathLike[str],
    *,
    pattern: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
) -> Tokenizer:
    """A :class:`~bpe_core.tokenizer.Tokenizer` from a directory or one file (see the module docstring).

    ``special_tokens`` (``{string: id}``) is only for ``.tiktoken`` files,
    which do not list them; the other formats do.
    """
    data, source = read_tokenizer_data(path, special_tokens=special_tokens, max_bytes=max_bytes)
    chosen = pattern if pattern is not None else data.pattern if data.pattern is not None else DEFAULT_PATTERN
    resolve_pattern(chosen)
    try:
        return Tokenizer(data.vocab, data.merges, special_tokens=data.special_tokens, pattern=chosen)
    except ValueError as exc:
        if isinstance(exc, TokenizerFileError):
            raise
        raise TokenizerFileError(source, "", str(exc)) from None


def read_tokenizer_data(
    path: str | os.PathLike[str],
    *,
    special_tokens: Mapping[str, int] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
) -> tuple[TokenizerData, Path]:
    """The :class:`TokenizerData` of a directory or file, and the file it mainly came from."""
    fmt, files = detect_format(path, max_bytes=max_bytes)
    if special_tokens and fmt != "tiktoken":
        raise ValueError(
            f"special_tokens= is only for .tiktoken files; {files[0]} lists its own special tokens"
        )
    if fmt == "hf-json":
        return read_hf_json_text(read_text(files[0], max_bytes=max_bytes), files[0]), files[0]
    if fmt == "gpt2":
        vocab, merges = files[0], files[1]
        special_map = files[2] if len(files) > 2 else None
        return read_gpt2(vocab, merges, special_map, max_bytes=max_bytes), vocab
    if fmt == "tiktoken":
        return read_tiktoken(files[0], special_tokens=special_tokens, max_bytes=max_bytes), files[0]
    return read_minbpe(files[0], max_bytes=max_bytes), files[0]


def detect_format(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> tuple[str, list[Path]]:
    """``(format, files to read)`` for a directory or a file; an unknown one is a TokenizerFileError."""
    p = Path(path)
    if p.is_dir():
        return _detect_in_directory(p)
    if not p.exists():
        raise TokenizerFileError(p, "", "does not exist; pass a tokenizer directory or file")
    name = p.name.lower()
    if name.endswith(".tiktoken"):
        return "tiktoken", [p]
    if name.endswith(".model"):
        return "minbpe", [p]
    if name.endswith("special_tokens_map.json"):
        raise TokenizerFileError(
            p, "", "only names the special tokens; load the directory, or vocab.json, instead"
        )
    if name == VOCAB_TXT:
        raise TokenizerFileError(
            p,
            "",
            "is MergeScope's human-readable listing, which cannot be loaded; load the directory instead",
        )
    if name.endswith(TOKENIZER_JSON):
        return "hf-json", [p]
    if name.endswith(".json"):
        if _is_hf_json(p, max_bytes):
            return "hf-json", [p]
        return "gpt2", _gpt2_files(vocab=p)
    if name.endswith(".txt"):
        return "gpt2", _gpt2_files(merges=p)
    head = _head(p).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"minbpe v1"):
        return "minbpe", [p]
    if head.startswith(b"{"):
        return ("hf-json", [p]) if _is_hf_json(p, max_bytes) else ("gpt2", _gpt2_files(vocab=p))
    if _TIKTOKEN_LINE.match(head):
        return "tiktoken", [p]
    raise TokenizerFileError(
        p,
        "",
        "is not a tokenizer file MergeScope knows (tokenizer.json, vocab.json + merges.txt, *.tiktoken, minbpe *.model)",
    )


_TIKTOKEN_LINE = re.compile(rb"[A-Za-z0-9+/]+=*[ \t]+[0-9]+\s")


def _head(p: Path, n: int = 64) -> bytes:
    try:
        with open(p, "rb") as f:
            return f.read(n)
    except OSError as exc:
        raise TokenizerFileError(p, "", f"cannot read it ({exc.strerror or exc})") from None


def _is_hf_json(p: Path, max_bytes: int) -> bool:
    data = parse_json(read_text(p, max_bytes=max_bytes), p)
    return isinstance(data, dict) and isinstance(data.get("model"), dict)


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
        return "hf-json", [d / TOKENIZER_JSON]
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
        return "minbpe", models
    found = [p.name for p in pairs + tiktoken_files + models]
    if found:
        raise TokenizerFileError(d, "", f"holds several tokenizers ({', '.join(found)}); pass one file")
    raise TokenizerFileError(
        d, "", "holds no tokenizer files (tokenizer.json, vocab.json + merges.txt, *.tiktoken or *.model)"
    )
