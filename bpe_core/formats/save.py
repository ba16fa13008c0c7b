"""Writing a tokenizer's files: every format's text is made first, then the files are written.

:func:`save_tokenizer` writes :data:`SAVE_FORMATS` into a directory;
:func:`write_format` writes one format where you say.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from pathlib import Path

from ..tokenizer import SchemeTokenizer, UnigramTokenizer, WordPieceTokenizer
from .data import TokenizerLike
from .encoding_config import ENCODING_JSON, encoding_json
from .gpt2 import (
    MERGES_TXT,
    SPECIAL_TOKENS_MAP_JSON,
    VOCAB_JSON,
    merges_txt,
    special_tokens_map_json,
    vocab_json,
)
from .hf_json import TOKENIZER_JSON, tokenizer_json
from .minbpe import MINBPE_MODEL, minbpe_model
from .safe_io import write_text
from .tiktoken import TOKENIZER_TIKTOKEN, tiktoken_text
from .unigram_json import unigram_tokenizer_json
from .vocab_txt import VOCAB_TXT, vocab_txt
from .wordpiece_files import BERT_VOCAB_TXT, bert_vocab_txt, wordpiece_tokenizer_json

# What the writers take: byte-level BPE's (a Tokenizer, or TokenizerData whose pattern is known), or a
# tokenizer of another scheme (WordPiece's and Unigram's have formats; the character baseline has none).
WritableTokenizer = TokenizerLike | SchemeTokenizer
# The files of one format: (file name, the text of that file for one tokenizer)
Files = list[tuple[str, Callable[[], str]]]

# byte-level BPE's formats -> the files each writes: (file name, text maker)
_WRITERS: dict[str, list[tuple[str, Callable[[TokenizerLike], str]]]] = {
    "gpt2": [
        (VOCAB_JSON, vocab_json),
        (MERGES_TXT, merges_txt),
        (SPECIAL_TOKENS_MAP_JSON, special_tokens_map_json),
        (ENCODING_JSON, encoding_json),
    ],
    "hf-json": [(TOKENIZER_JSON, tokenizer_json)],
    "tiktoken": [(TOKENIZER_TIKTOKEN, tiktoken_text), (ENCODING_JSON, encoding_json)],
    "minbpe": [(MINBPE_MODEL, minbpe_model)],
    "vocab-txt": [(VOCAB_TXT, vocab_txt)],
}
FORMATS: tuple[str, ...] = tuple(_WRITERS)  # byte-level BPE's
ALL_FORMATS: tuple[str, ...] = FORMATS + ("bert-vocab",)  # and the other schemes' (tokenizer.json is hf-json)
SAVE_FORMATS: tuple[str, ...] = ("gpt2", "hf-json", "tiktoken", "vocab-txt")


def _writers(tok: WritableTokenizer, *, renumber: bool = False) -> dict[str, Files]:
    """The formats ``tok`` can be written in, each with its files' text makers bound to ``tok``
    (``renumber``: minbpe's, see :mod:`.minbpe`)."""
    if isinstance(tok, WordPieceTokenizer):
        return {
            "hf-json": [(TOKENIZER_JSON, partial(wordpiece_tokenizer_json, tok))],
            "bert-vocab": [(BERT_VOCAB_TXT, partial(bert_vocab_txt, tok))],
        }
    if isinstance(tok, UnigramTokenizer) and tok.scheme == "unigram":
        return {"hf-json": [(TOKENIZER_JSON, partial(unigram_tokenizer_json, tok))]}
    if _scheme(tok) != "bpe" or not isinstance(tok, TokenizerLike):
        return {}  # a scheme no format holds (the character baseline)
    writers: dict[str, Files] = {
        fmt: [(name, partial(make, tok)) for name, make in files] for fmt, files in _WRITERS.items()
    }
    writers["minbpe"] = [(MINBPE_MODEL, partial(minbpe_model, tok, renumber=renumber))]
    return writers


def _scheme(tok: WritableTokenizer) -> str:
    """``tok``'s scheme: what it says, or byte-level BPE (TokenizerData says none)."""
    return tok.scheme if isinstance(tok, SchemeTokenizer) else "bpe"


def save_tokenizer(
    tok: WritableTokenizer, directory: str | os.PathLike[str], *, formats: Iterable[str] | None = None
) -> list[Path]:
    """Write ``tok`` into ``directory`` (created if needed) in each of ``formats``; returns the paths.
    By default: :data:`SAVE_FORMATS` for byte-level BPE, every format of its scheme for WordPiece
    (``tokenizer.json`` and BERT's ``vocab.txt``) and Unigram (``tokenizer.json``).

    Every text is made before any file is written, so a tokenizer that one
    format cannot hold (a ValueError saying why) leaves the directory as it was.
    """
    writers = _writers(tok)
    if not writers:
        raise _no_format(tok)
    if formats is None:
        formats = SAVE_FORMATS if _scheme(tok) == "bpe" else tuple(writers)
    texts = _texts(tok, writers, formats)
    out = _check_out(directory)
    out.mkdir(parents=True, exist_ok=True)
    return [write_text(out / name, text) for name, text in texts]


def write_format(
    tok: WritableTokenizer, fmt: str, out: str | os.PathLike[str], *, renumber: bool = False
) -> list[Path]:
    """Write one format: ``gpt2`` into the directory ``out``, the others to the file ``out``
    (or their usual name inside ``out`` when it is a directory).  ``fmt="all"`` is :func:`save_tokenizer`.
    A ``.tiktoken`` file gets ``encoding.json`` beside it (its pattern and special tokens).

    ``renumber`` lets minbpe renumber ids to its layout (see :mod:`.minbpe`).
    """
    if fmt == "all":
        return save_tokenizer(tok, out)
    writers = _writers(tok, renumber=renumber)
    _check_formats([fmt], tok, writers)
    path = _check_out(out)
    if fmt == "gpt2":
        return save_tokenizer(tok, path, formats=["gpt2"])
    (default_name, make), *beside = writers[fmt]
    text = make()
    if path.is_dir():
        path = path / default_name
    others = [(path.with_name(name), make_other()) for name, make_other in beside]
    path.parent.mkdir(parents=True, exist_ok=True)
    return [write_text(path, text)] + [write_text(p, t) for p, t in others]


def _check_out(out: str | os.PathLike[str]) -> Path:
    """``out`` as a Path; an empty name (which Python reads as the current directory) is a ValueError."""
    if not os.fspath(out).strip():
        raise ValueError("the output path is empty; name a directory or file ('.' for the current directory)")
    return Path(out)


def _check_formats(formats: Iterable[str], tok: WritableTokenizer, writers: Mapping[str, Files]) -> list[str]:
    formats = list(formats)
    for f in formats:
        if f not in writers:
            if not writers:
                raise _no_format(tok)
            if f in ALL_FORMATS:
                raise ValueError(
                    f"format {f!r} cannot hold a {_scheme(tok)} tokenizer; choose from {', '.join(writers)}"
                )
            raise ValueError(f"unknown format {f!r}; choose from {', '.join(writers)}")
    return formats


def _no_format(tok: WritableTokenizer) -> ValueError:
    """The error for a tokenizer no format here can write (one read stage by stage, SentencePiece's BPE)."""
    return ValueError(
        f"a {_scheme(tok)} tokenizer read from its file has no format to be written in yet; "
        "keep the file it was read from (tokenizer.json or .model), which loads as it is"
    )


def _texts(
    tok: WritableTokenizer, writers: Mapping[str, Files], formats: Iterable[str]
) -> list[tuple[str, str]]:
    texts = []
    names: set[str] = set()
    for fmt in _check_formats(formats, tok, writers):
        for name, make in writers[fmt]:
            if name in names:  # encoding.json serves gpt2 and tiktoken alike
                continue
            names.add(name)
            try:
                texts.append((name, make()))
            except ValueError as exc:
                raise ValueError(
                    f"cannot write {name} ({fmt}): {exc}; leave {fmt!r} out of formats= to save the rest"
                ) from None
    return texts
