"""The plain data every tokenizer file holds, and the checks shared by all formats.

A format reader returns a :class:`TokenizerData`; :mod:`.load` turns
it into a :class:`~bpe_core.tokenizer.Tokenizer`.  Writers accept anything with
the same four attributes (:class:`TokenizerLike`: a ``Tokenizer``, or a
``TokenizerData`` whose pattern is known).

>>> data = TokenizerData({**{b: bytes([b]) for b in range(256)}, 256: b"ab"}, [(97, 98)], {}, "gpt2")
>>> merge_results(data)
[256]
>>> first_missing_id(data.vocab, data.special_tokens) is None
True
>>> first_missing_id({0: b"a", 2: b"b"}, {})
1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


@runtime_checkable
class TokenizerLike(Protocol):
    """What a writer reads: a :class:`~bpe_core.tokenizer.Tokenizer` (or a :class:`TokenizerData`
    whose ``pattern`` is not None: a file is written with its pattern).

    Read-only (properties), so a ``Tokenizer``'s ``dict`` and ``list`` attributes
    match the ``Mapping`` and ``Sequence`` asked for.
    """

    @property
    def vocab(self) -> Mapping[int, bytes]: ...
    @property
    def merges(self) -> Sequence[tuple[int, int]]: ...
    @property
    def special_tokens(self) -> Mapping[str, int]: ...
    @property
    def pattern(self) -> str: ...


@dataclass(slots=True)
class TokenizerData:
    """What a tokenizer file says.

    ``vocab`` maps every id to its bytes, special tokens included (as their
    UTF-8); ``merges`` in priority order, as id pairs; ``special_tokens`` maps
    each special string to its id; ``pattern`` is the split pattern (a name
    from :data:`bpe_core.pretokenizer.PATTERNS` or a regex), or ``None`` when
    the file does not record one; ``notes`` say what the loader had to assume.

    ``merge_ids`` is the id each merge makes, set only by a reader that checked
    everything a :class:`~bpe_core.tokenizer.Tokenizer` checks and built the
    merges from the tokens themselves (a ``.tiktoken`` file: each merge's two
    parts joined are the token of its rank), so the tokenizer is built without
    joining and looking up every merge again (:func:`.load.tokenizer_from`);
    ``None`` for every other reader.
    """

    vocab: dict[int, bytes]
    merges: list[tuple[int, int]]
    special_tokens: dict[str, int] = field(default_factory=dict)
    pattern: str | None = None
    notes: list[str] = field(default_factory=list)
    merge_ids: list[int] | None = None


def ordinary_ids(tok: TokenizerLike) -> dict[bytes, int]:
    """bytes -> id for the tokens that are not special."""
    special = set(tok.special_tokens.values())
    return {t: i for i, t in tok.vocab.items() if i not in special}


def merge_results(tok: TokenizerLike) -> list[int]:
    """The id each merge makes (``vocab[a] + vocab[b]`` looked up among ordinary tokens)."""
    merge_ids = getattr(tok, "merge_ids", None)
    if merge_ids is not None and len(merge_ids) == len(tok.merges):
        return list(merge_ids)
    by_bytes = ordinary_ids(tok)
    out = []
    for k, (a, b) in enumerate(tok.merges):
        new_id = by_bytes.get(tok.vocab[a] + tok.vocab[b])
        if new_id is None:
            raise ValueError(
                f"merge {k + 1} ({a}, {b}) makes a token that is not in the vocab; add it to the vocab"
            )
        out.append(new_id)
    return out


def first_missing_id(vocab: Mapping[int, bytes], special_tokens: Mapping[str, int]) -> int | None:
    """The first unused id below the largest ordinary id, or None.

    Ids must run 0..N-1; only special tokens may sit above the ordinary
    tokens with a gap (cl100k's do, and so do GPT-2's ``<|endoftext|>`` after
    :meth:`~bpe_core.tokenizer.Tokenizer.with_merges`).
    """
    special = set(special_tokens.values())
    ordinary = [i for i in vocab if i not in special]
    if not ordinary:
        return None
    used = set(vocab) | special
    return next((i for i in range(max(ordinary) + 1) if i not in used), None)
