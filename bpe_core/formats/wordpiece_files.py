"""WordPiece's files: BERT's ``vocab.txt`` and HF's ``tokenizer.json`` with a ``WordPiece`` model.

``vocab.txt`` (BERT's, not MergeScope's listing of the same name, see :mod:`.vocab_txt`) holds one
token per line, the line number (from 0) being its id.  Line ends (``\\n`` or ``\\r\\n``) and white space
at a line's end are not part of the token, as in HF's ``WordPiece.from_file``.  It does not say the
unknown token (``[UNK]`` is assumed), the prefix (``##``) nor the word limit (100); the special tokens
are BERT's that it holds.  An empty line or a token listed twice is an error naming the line.

``tokenizer.json``: written with no normalizer, ``BertPreTokenizer``, the ``WordPiece`` model and
decoder, and the special tokens as added tokens, so HF's ``Tokenizer.from_file`` encodes as we do
(a test checks it).  Read: the same shape (a missing pre-tokenizer is taken as ``BertPreTokenizer``);
a normalizer is refused (we would encode otherwise, e.g. without BERT's lower-casing), a
post-processor is left out (it only adds ``[CLS]``/``[SEP]`` around the ids).

>>> tok = read_bert_vocab_text("[PAD]\\n[UNK]\\nhu\\n##g\\n##gs\\n", "vocab.txt")
>>> tok.encode("hugs hug"), tok.special_tokens
([2, 4, 2, 3], ('[PAD]', '[UNK]'))
>>> bert_vocab_txt(tok) == "[PAD]\\n[UNK]\\nhu\\n##g\\n##gs\\n"
True
>>> read_bert_vocab_text("[UNK]\\nhu\\n\\n##g\\n", "vocab.txt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bpe_core.formats.safe_io.TokenizerFileError: vocab.txt, line 3: the line is empty; ... remove the line...
>>> back = read_wordpiece_json_text(wordpiece_tokenizer_json(tok), "tokenizer.json")
>>> back.vocab == tok.vocab and back.special_tokens == tok.special_tokens
True
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..pretokenizer import excerpt
from ..tokenizer.wordpiece import MAX_WORD_CHARS, PREFIX, UNK_TOKEN, WordPieceTokenizer
from .safe_io import MAX_FILE_BYTES, TokenizerFileError, expect_int, parse_json, read_text, write_text

BERT_VOCAB_TXT = "vocab.txt"
LISTING_HEADER = "# vocab.txt:"  # how MergeScope's human-readable listing begins (:mod:`.vocab_txt`)


def is_bert_vocab(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> bool:
    """Whether a ``vocab.txt`` is BERT's (one token per line), not MergeScope's listing."""
    return not read_text(path, max_bytes=max_bytes).startswith(LISTING_HEADER)


def read_bert_vocab(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> WordPieceTokenizer:
    """A :class:`WordPieceTokenizer` from BERT's ``vocab.txt`` (see the module docstring)."""
    return read_bert_vocab_text(read_text(path, max_bytes=max_bytes), path)


def read_bert_vocab_text(text: str, path: str | os.PathLike[str]) -> WordPieceTokenizer:
    if text.startswith(LISTING_HEADER):
        raise TokenizerFileError(
            path, "", "is MergeScope's human-readable listing, which cannot be loaded; load the directory"
        )
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the last line's end
    first_line: dict[str, int] = {}
    tokens: list[str] = []
    for n, line in enumerate(lines, start=1):
        token = line.rstrip()
        if not token:
            what = "holds only white space" if line else "is empty"
            raise TokenizerFileError(
                path,
                f"line {n}",
                f"the line {what}; a vocab.txt holds one token per line (its id is the line number "
                "from 0): remove the line, and the ids after it move up by one",
            )
        if token in first_line:
            raise TokenizerFileError(
                path,
                f"line {n}",
                f"{excerpt(token)} is already on line {first_line[token]}; each token is listed once: "
                "remove one of the two lines",
            )
        first_line[token] = n
        tokens.append(token)
    if UNK_TOKEN not in first_line:
        raise TokenizerFileError(
            path, "", f"has no {UNK_TOKEN} line; add a line {UNK_TOKEN} (BERT's unknown token) at the end"
        )
    return WordPieceTokenizer(tokens)


def bert_vocab_txt(tok: WordPieceTokenizer) -> str:
    """BERT's ``vocab.txt`` for ``tok``: its tokens in id order, one per line."""
    _check_wordpiece(tok, BERT_VOCAB_TXT)
    ids = sorted(tok.tokens)
    if ids != list(range(len(ids))):
        raise ValueError("the ids do not run 0..N-1 without a gap, which vocab.txt cannot say; renumber them")
    if tok.unk_token != UNK_TOKEN or tok.prefix != PREFIX or tok.max_word_chars != MAX_WORD_CHARS:
        raise ValueError(
            f"vocab.txt cannot record unk_token {tok.unk_token!r}, prefix {tok.prefix!r} or max_word_chars "
            f"{tok.max_word_chars} (readers assume [UNK], ## and 100); save tokenizer.json instead"
        )
    bad = next((t for t in tok.vocab if t != t.strip() or "\n" in t or "\r" in t), None)
    if bad is not None:
        raise ValueError(
            f"token {excerpt(bad)} has white space at an end or a line break; vocab.txt cannot hold it"
        )
    return "".join(tok.tokens[i] + "\n" for i in ids)


def wordpiece_tokenizer_json(tok: WordPieceTokenizer) -> str:
    """HF's ``tokenizer.json`` for ``tok`` (see the module docstring)."""
    _check_wordpiece(tok, "tokenizer.json")
    added = [
        {
            "id": tok.vocab[s],
            "content": s,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for s in sorted(tok.special_tokens, key=tok.vocab.__getitem__)
    ]
    data = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": None,
        "decoder": {"type": "WordPiece", "prefix": tok.prefix, "cleanup": True},
        "model": {
            "type": "WordPiece",
            "unk_token": tok.unk_token,
            "continuing_subword_prefix": tok.prefix,
            "max_input_chars_per_word": tok.max_word_chars,
            "vocab": {tok.tokens[i]: i for i in sorted(tok.tokens)},
        },
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def read_wordpiece_json(
    path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES
) -> WordPieceTokenizer:
    return read_wordpiece_json_text(read_text(path, max_bytes=max_bytes), path)


def read_wordpiece_json_text(text: str, path: str | os.PathLike[str]) -> WordPieceTokenizer:
    """A :class:`WordPieceTokenizer` from a ``tokenizer.json`` whose model is ``WordPiece``."""
    data = parse_json(text, path)
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise TokenizerFileError(path, "", "is not an HF tokenizer.json (no 'model' object)")
    model: dict[str, Any] = data["model"]
    if model.get("type") != "WordPiece":
        raise TokenizerFileError(
            path, "key 'model.type'", f"is {excerpt(model.get('type'))}, not 'WordPiece'"
        )
    if "merges" in model:
        raise TokenizerFileError(
            path,
            "key 'model.type'",
            "is 'WordPiece', but the model has merges, as a BPE model has; fix one of the two",
        )
    if data.get("normalizer") is not None:
        kind = data["normalizer"].get("type") if isinstance(data["normalizer"], dict) else data["normalizer"]
        raise TokenizerFileError(
            path,
            "key 'normalizer'",
            f"a {excerpt(kind)} normalizer (BERT's lower-cases and strips accents) is not applied by "
            "MergeScope's WordPiece, which would then encode otherwise; set it to null, or load vocab.txt",
        )
    pre = data.get("pre_tokenizer")
    if pre is not None and not (isinstance(pre, dict) and pre.get("type") == "BertPreTokenizer"):
        raise TokenizerFileError(
            path,
            "key 'pre_tokenizer'",
            f"is {excerpt(pre)}; MergeScope's WordPiece cuts words as BertPreTokenizer does: set it to "
            '{"type": "BertPreTokenizer"}',
        )
    vocab = model.get("vocab")
    if not isinstance(vocab, dict) or not vocab:
        raise TokenizerFileError(path, "key 'model.vocab'", "must be a non-empty object {token: id}")
    ids = {token: expect_int(i, path, f"key 'model.vocab.{token}'") for token, i in vocab.items()}
    unk = model.get("unk_token", UNK_TOKEN)
    prefix = model.get("continuing_subword_prefix", PREFIX)
    limit = model.get("max_input_chars_per_word", MAX_WORD_CHARS)
    specials = []
    for k, entry in enumerate(data.get("added_tokens") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("content"), str):
            raise TokenizerFileError(
                path, f"key 'added_tokens[{k}]'", "must be an object with a 'content' string"
            )
        if entry.get("special"):
            content = entry["content"]
            if ids.get(content) != entry.get("id"):
                raise TokenizerFileError(
                    path,
                    f"key 'added_tokens[{k}]'",
                    f"{excerpt(content)} has id {entry.get('id')!r} here but {ids.get(content)!r} in the "
                    "vocab; make them agree",
                )
            specials.append(content)
    try:
        return WordPieceTokenizer(
            ids, unk_token=unk, prefix=prefix, max_word_chars=limit, special_tokens=specials
        )
    except ValueError as exc:
        raise TokenizerFileError(path, "key 'model'", str(exc)) from None


def write_wordpiece(tok: WordPieceTokenizer, directory: str | os.PathLike[str]) -> list[Path]:
    """Write ``vocab.txt`` and ``tokenizer.json`` into ``directory`` (made first, then written)."""
    texts = [(BERT_VOCAB_TXT, bert_vocab_txt(tok)), ("tokenizer.json", wordpiece_tokenizer_json(tok))]
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    return [write_text(out / name, text) for name, text in texts]


def _check_wordpiece(tok: object, name: str) -> None:
    if getattr(tok, "scheme", None) != "wordpiece":
        raise ValueError(
            f"{name} with a WordPiece model holds a WordPiece tokenizer, and this one is "
            f"{getattr(tok, 'scheme', 'bpe')}; choose one of its own formats"
        )
