"""Reading a tokenizer from a directory or a file, whatever its format.

The split pattern: ``tokenizer.json`` and minbpe files record it; for
``vocab.json`` + ``merges.txt`` and ``.tiktoken`` files, which do not, it is
``pattern=`` or else :data:`DEFAULT_PATTERN`.  A ``pattern=`` given always wins.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from ..pretokenizer import resolve_pattern
from ..tokenizer import SchemeTokenizer, Tokenizer
from .data import TokenizerData
from .detect import detect_format
from .gpt2 import read_gpt2
from .hf_json import read_hf_json_text
from .minbpe import read_minbpe
from .safe_io import MAX_FILE_BYTES, TokenizerFileError, read_text
from .sentencepiece_model import read_sentencepiece_model
from .tiktoken import read_tiktoken
from .unigram_json import read_unigram_json_text
from .wordpiece_files import read_bert_vocab, read_wordpiece_json

DEFAULT_PATTERN = "gpt2"

# format -> reader, for the schemes that are not byte-level BPE (WordPiece, Unigram), and their names
SCHEME_NAMES = {
    "bert-vocab": "WordPiece (BERT's vocab.txt)",
    "wordpiece-json": "WordPiece",
    "unigram-json": "Unigram",
    "sentencepiece": "Unigram (SentencePiece)",
}
SCHEME_READERS: dict[str, Callable[..., SchemeTokenizer]] = {
    "bert-vocab": read_bert_vocab,
    "wordpiece-json": read_wordpiece_json,
    "unigram-json": lambda path, *, max_bytes: read_unigram_json_text(
        read_text(path, max_bytes=max_bytes), path
    ),
    "sentencepiece": read_sentencepiece_model,
}


def load_tokenizer(
    path: str | os.PathLike[str],
    *,
    pattern: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    any_scheme: bool = False,
) -> Tokenizer | SchemeTokenizer:
    """A :class:`~bpe_core.tokenizer.Tokenizer` from a directory or one file (see the module docstring).

    A WordPiece or Unigram file (:data:`SCHEME_READERS`) gives that scheme's tokenizer with
    ``any_scheme=True``, and is a TokenizerFileError saying what it holds otherwise (callers that
    only know byte-level BPE, such as the app's upload, keep getting a BPE :class:`Tokenizer`).

    ``special_tokens`` (``{string: id}``) is only for ``.tiktoken`` files,
    which do not list them; the other formats do.
    """
    fmt, files = detect_format(path, max_bytes=max_bytes)
    if fmt in SCHEME_READERS:
        if not any_scheme:
            raise TokenizerFileError(
                files[0],
                "key 'model.type'" if fmt.endswith("-json") else "",
                f"holds a {SCHEME_NAMES[fmt]} tokenizer; only byte-level BPE tokenizers load here",
            )
        if pattern is not None or special_tokens:
            raise ValueError(
                f"pattern= and special_tokens= are for byte-level BPE files; {files[0]} holds a {fmt} "
                "tokenizer, which records its own: leave them out"
            )
        return SCHEME_READERS[fmt](files[0], max_bytes=max_bytes)
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
    if fmt in SCHEME_READERS:
        raise TokenizerFileError(
            files[0],
            "",
            f"holds a {SCHEME_NAMES[fmt]} tokenizer, not byte-level BPE; load it with "
            "load_tokenizer(..., any_scheme=True)",
        )
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
