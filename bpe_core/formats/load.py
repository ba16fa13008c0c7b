"""Reading a tokenizer from a directory or a file, whatever its format.

The split pattern: ``tokenizer.json`` and minbpe files record it; for
``vocab.json`` + ``merges.txt`` and ``.tiktoken`` files, which do not, it is
``pattern=``, or else what ``encoding.json`` beside them says (see
:mod:`.encoding_config`; it also gives a ``.tiktoken`` file its special
tokens), or else :data:`DEFAULT_PATTERN`, with a note saying it was assumed.
A ``pattern=`` given always wins.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal, overload

from ..pretokenizer import resolve_pattern
from ..tokenizer import SchemeTokenizer, Tokenizer
from .data import TokenizerData
from .detect import detect_format
from .encoding_config import ENCODING_JSON, NEEDS_CONFIG, EncodingConfig, read_encoding_json_text
from .gpt2 import read_gpt2
from .hf_json import read_hf_json_text
from .hf_pipeline import UnsupportedStageError, read_pipeline_json_text
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
    "sentencepiece": "SentencePiece",
}
SCHEME_READERS: dict[str, Callable[..., SchemeTokenizer]] = {
    "bert-vocab": read_bert_vocab,
    "wordpiece-json": read_wordpiece_json,
    "unigram-json": lambda path, *, max_bytes: read_unigram_json_text(
        read_text(path, max_bytes=max_bytes), path
    ),
    "sentencepiece": read_sentencepiece_model,
}


class OwnStagesError(ValueError):
    """A split pattern or special tokens given for a ``tokenizer.json`` read stage by stage, which records
    its own (a caller that chose them for any file may load it again without them)."""


PIPELINE_FORMATS = ("hf-json", "wordpiece-json", "unigram-json")
"""The ``tokenizer.json`` formats: one its own reader refuses (a normalizer, Llama-2's BPE over characters...)
is read stage by stage (:mod:`.hf_pipeline`) when ``any_scheme``."""


@overload
def load_tokenizer(
    path: str | os.PathLike[str],
    *,
    pattern: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    notes: list[str] | None = None,
    any_scheme: Literal[False] = False,
) -> Tokenizer: ...


@overload
def load_tokenizer(
    path: str | os.PathLike[str],
    *,
    pattern: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    notes: list[str] | None = None,
    any_scheme: bool,
) -> Tokenizer | SchemeTokenizer: ...


def load_tokenizer(
    path: str | os.PathLike[str],
    *,
    pattern: str | None = None,
    special_tokens: Mapping[str, int] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    notes: list[str] | None = None,
    any_scheme: bool = False,
) -> Tokenizer | SchemeTokenizer:
    """A :class:`~bpe_core.tokenizer.Tokenizer` from a directory or one file (see the module docstring).

    A ``tokenizer.json`` its own reader refuses is read stage by stage with ``any_scheme=True``
    (:data:`PIPELINE_FORMATS`: a :class:`~bpe_core.pipeline.PipelineTokenizer`).
    A WordPiece or Unigram file (:data:`SCHEME_READERS`) gives that scheme's tokenizer with
    ``any_scheme=True``, and is a TokenizerFileError saying what it holds otherwise (callers that
    only know byte-level BPE, such as the app's upload, keep getting a BPE :class:`Tokenizer`).

    ``special_tokens`` (``{string: id}``) is only for ``.tiktoken`` files,
    which do not list them; the other formats do.  What the loader had to
    assume (files that do not record the pattern or the special tokens, with
    no ``encoding.json`` beside them) is appended to ``notes`` when given.
    """
    fmt, files = detect_format(path, max_bytes=max_bytes)
    if any_scheme and fmt in PIPELINE_FORMATS:
        try:
            return _load_detected(fmt, files, path, pattern, special_tokens, max_bytes, notes, any_scheme)
        except TokenizerFileError as classic:
            try:
                staged = read_pipeline_json_text(read_text(files[0], max_bytes=max_bytes), files[0])
            except UnsupportedStageError:
                raise  # a stage neither reader runs: named
            except TokenizerFileError:
                if classic.where.startswith("key 'model"):
                    raise classic from None  # a damaged model: its own reader says best where
                raise
            if pattern is not None or special_tokens:
                raise OwnStagesError(
                    f"pattern= and special_tokens= are for byte-level BPE files; {files[0]} is read stage by "
                    "stage and records its own: leave them out"
                ) from None
            return staged
    return _load_detected(fmt, files, path, pattern, special_tokens, max_bytes, notes, any_scheme)


def _load_detected(
    fmt: str,
    files: list[Path],
    path: str | os.PathLike[str],
    pattern: str | None,
    special_tokens: Mapping[str, int] | None,
    max_bytes: int,
    notes: list[str] | None,
    any_scheme: bool,
) -> Tokenizer | SchemeTokenizer:
    """:func:`load_tokenizer` once the format is known, by the format's own reader."""
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
    data, source = read_tokenizer_data(
        path, special_tokens=special_tokens, max_bytes=max_bytes, pattern_given=pattern is not None
    )
    chosen = pattern if pattern is not None else data.pattern if data.pattern is not None else DEFAULT_PATTERN
    if notes is not None:
        notes.extend(data.notes)
    resolve_pattern(chosen)
    try:
        return tokenizer_from(data, pattern=chosen)
    except ValueError as exc:
        if isinstance(exc, TokenizerFileError):
            raise
        raise TokenizerFileError(source, "", str(exc)) from None


def tokenizer_from(data: TokenizerData, *, pattern: str) -> Tokenizer:
    """The :class:`Tokenizer` of a reader's ``data`` with the split ``pattern`` (a name or a regex).

    A reader that checked it all itself and knows the id each merge makes (``data.merge_ids``: a
    ``.tiktoken`` file) gives a tokenizer built without checking every merge again, half a second
    of an 800,000-token file; any other reader's data goes through the constructor's checks.

    >>> import base64
    >>> from bpe_core.formats.tiktoken import read_tiktoken_text
    >>> lines = [base64.b64encode(bytes([b])) + b" %d" % b for b in range(256)] + [b"YWI= 256"]
    >>> data = read_tiktoken_text(b"\\n".join(lines), "x.tiktoken")
    >>> data.merge_ids, tokenizer_from(data, pattern="gpt2").encode("abc")
    ([256], [256, 99])
    """
    if data.merge_ids is None:
        return Tokenizer(data.vocab, data.merges, special_tokens=data.special_tokens, pattern=pattern)
    resolve_pattern(pattern)
    return Tokenizer._from_checked(
        data.vocab, data.merges, data.merge_ids, special_tokens=data.special_tokens, pattern=pattern
    )


def read_tokenizer_data(
    path: str | os.PathLike[str],
    *,
    special_tokens: Mapping[str, int] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
    pattern_given: bool = False,
) -> tuple[TokenizerData, Path]:
    """The :class:`TokenizerData` of a directory or file, and the file it mainly came from.

    Its ``notes`` say what files without ``encoding.json`` leave unknown (not the pattern when
    ``pattern_given``: the caller sets it).
    """
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
    config_path = files[0].with_name(ENCODING_JSON)
    config = None
    if fmt in NEEDS_CONFIG and config_path.is_file():
        config = read_encoding_json_text(read_text(config_path, max_bytes=max_bytes), config_path)
    if fmt == "gpt2":
        vocab, merges = files[0], files[1]
        special_map = files[2] if len(files) > 2 else None
        data = read_gpt2(vocab, merges, special_map, max_bytes=max_bytes)
        label = f"{vocab.name} + {merges.name}"
        _apply_config(data, config, label, pattern=not pattern_given, specials=False)
        return data, vocab
    if fmt == "tiktoken":
        given = bool(special_tokens)
        if not given and config is not None and config.special_tokens is not None:
            special_tokens = config.special_tokens
        data = read_tiktoken(files[0], special_tokens=special_tokens, max_bytes=max_bytes)
        _apply_config(data, config, files[0].name, pattern=not pattern_given, specials=not given)
        return data, files[0]
    return read_minbpe(files[0], max_bytes=max_bytes), files[0]


def _apply_config(
    data: TokenizerData, config: EncodingConfig | None, files: str, *, pattern: bool, specials: bool
) -> None:
    """Take the pattern from ``encoding.json``, or note what is assumed without it (``pattern``,
    ``specials``: the caller did not give them either)."""
    if config is not None and config.pattern is not None:
        data.pattern = config.pattern
    elif pattern:
        where = f"no {ENCODING_JSON} beside" if config is None else f"{ENCODING_JSON} does not name it"
        data.notes.append(
            f"{files}: the split pattern is not recorded ({where}), so {DEFAULT_PATTERN} is assumed; "
            "choose the pattern it was trained with if it was another"
        )
    if specials and (config is None or config.special_tokens is None):
        data.notes.append(
            f"{files}: special tokens are not recorded (no {ENCODING_JSON} beside), so none are assumed; "
            "give them with their ids if it has some"
        )
