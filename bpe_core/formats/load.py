"""Reading a tokenizer from a directory or a file, whatever its format.

The split pattern: ``tokenizer.json`` and minbpe files record it; for
``vocab.json`` + ``merges.txt`` and ``.tiktoken`` files, which do not, it is
``pattern=`` or else :data:`DEFAULT_PATTERN`.  A ``pattern=`` given always wins.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ..pretokenizer import resolve_pattern
from ..tokenizer import Tokenizer
from .data import TokenizerData
from .detect import detect_format
from .gpt2 import read_gpt2
from .hf_json import read_hf_json_text
from .minbpe import read_minbpe
from .safe_io import MAX_FILE_BYTES, TokenizerFileError, read_text
from .tiktoken import read_tiktoken

DEFAULT_PATTERN = "gpt2"


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
