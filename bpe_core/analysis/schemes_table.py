"""The four schemes side by side on one text: the article's table, computed.

:func:`compare_schemes` trains each scheme (:func:`~bpe_core.training.schemes.train_scheme`) on a
text to one vocabulary size, then measures it on that text and on a held-out text, through the
interface they share only (``encode``, ``decode``, ``lost``), so it does not know which is which:

- ``vocab_size``: the vocabulary actually reached (a scheme may stop early, and the character
  scheme has the text's characters, whatever was asked);
- ``tokens``, ``bytes_per_token``, ``chars_per_token``: compression;
- ``oov_rate``: the share of tokens that are an unknown token (WordPiece's ``[UNK]``, a character
  unseen in training for the character scheme, Unigram's ``<unk>``; always 0 for byte-level BPE),
  and ``unknown_chars``, the characters of the text they swallowed;
- ``round_trip_rate``: the share of the text's non-empty lines that ``decode(encode(line))`` gives
  back exactly; ``spacing`` and ``changed``: how many places lost their white space, how many
  characters normalization changed (see :class:`~bpe_core.tokenizer.scheme.Loss`); ``example``:
  the first line that did not come back, and what came back instead;
- ``train_seconds``: the training time.

>>> text = "the cat sat on the mat. the cat ate the rat.\\n" * 20
>>> held_out = "the bat sat on the hat!\\n"
>>> rows = compare_schemes(text, held_out=held_out, vocab_size=280)
>>> [(r.model, r.vocab_size, r.held_out.tokens, round(r.held_out.oov_rate, 2)) for r in rows]
[('bpe', 272, 12, 0.0), ('wordpiece', 31, 7, 0.43), ('unigram', 55, 12, 0.17), ('char', 14, 24, 0.08)]
>>> for r in rows[1:]:
...     print(r.model, r.held_out.round_trip_rate, r.held_out.example)
wordpiece 0.0 ('the bat sat on the hat!', 'the [UNK] sat on the [UNK] [UNK]')
unigram 0.0 ('the bat sat on the hat!', 'the  ⁇ at sat on the hat ⁇ ')
char 0.0 ('the bat sat on the hat!', 'the [UNK]at sat on the hat[UNK]')
>>> [(r.model, r.text.spacing) for r in rows]  # WordPiece gives each newline back as a space
[('bpe', 0), ('wordpiece', 20), ('unigram', 0), ('char', 0)]
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..tokenizer.scheme import SchemeTokenizer, lost
from ..training.schemes import MODELS, train_scheme


@dataclass(frozen=True, slots=True)
class TextFigures:
    """What one tokenizer does to one text (see the module docstring)."""

    chars: int
    bytes: int
    tokens: int
    bytes_per_token: float
    chars_per_token: float
    oov_rate: float
    unknown_chars: int
    lines: int
    round_trip_rate: float
    spacing: int
    changed: int
    example: tuple[str, str] | None  # (a line that did not come back, what came back)


@dataclass(frozen=True, slots=True)
class SchemeRow:
    """One scheme's row: its training and its figures on the text and the held-out text.

    ``error`` says why a scheme could not train (e.g. BPE below 256 ids); its figures are then None.
    """

    model: str
    vocab_size_asked: int
    vocab_size: int
    train_seconds: float
    text: TextFigures | None
    held_out: TextFigures | None
    error: str | None = None


def measure(tok: SchemeTokenizer, text: str) -> TextFigures:
    """The figures of ``tok`` on ``text``."""
    ids = tok.encode(text)
    loss = lost(tok, text)
    n_bytes = len(text.encode("utf-8"))
    lines = [line for line in text.split("\n") if line]
    back = 0
    spacing = changed = 0
    example = None
    for line in lines:
        line_loss = lost(tok, line)
        if line_loss.round_trip:
            back += 1
        elif example is None:
            example = (line, line_loss.decoded)
    spacing, changed = loss.spacing, loss.changed
    tokens = len(ids)
    return TextFigures(
        chars=len(text),
        bytes=n_bytes,
        tokens=tokens,
        bytes_per_token=n_bytes / tokens if tokens else 0.0,
        chars_per_token=len(text) / tokens if tokens else 0.0,
        oov_rate=len(loss.unknown) / tokens if tokens else 0.0,
        unknown_chars=loss.unknown_chars,
        lines=len(lines),
        round_trip_rate=back / len(lines) if lines else 1.0,
        spacing=spacing,
        changed=changed,
        example=example,
    )


def compare_schemes(
    text: str,
    *,
    vocab_size: int,
    held_out: str | None = None,
    models: Iterable[str] = MODELS,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[SchemeRow]:
    """Train each of ``models`` on ``text`` to ``vocab_size`` and measure it (see the module
    docstring); ``options`` gives a scheme its own options (``{"bpe": {"pattern": "gpt4"}}``)."""
    options = options or {}
    rows = []
    for model in models:
        start = time.perf_counter()
        try:
            tok = train_scheme(text, model=model, vocab_size=vocab_size, **options.get(model, {}))
        except ValueError as exc:
            if not text or model not in MODELS:
                raise
            rows.append(SchemeRow(model, vocab_size, 0, 0.0, None, None, str(exc)))
            continue
        seconds = time.perf_counter() - start
        rows.append(
            SchemeRow(
                model,
                vocab_size,
                tok.vocab_size,
                seconds,
                measure(tok, text),
                measure(tok, held_out) if held_out is not None else None,
            )
        )
    return rows
