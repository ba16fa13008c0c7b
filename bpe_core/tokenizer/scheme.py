"""What every tokenizer scheme offers, so analysis and the app compare them without knowing which is which.

Four schemes cut text into tokens here: characters (:class:`~.char_baseline.CharTokenizer`), byte-level BPE
(:class:`~.bpe.Tokenizer`), WordPiece and Unigram.  Each tokenizer has a ``scheme`` name and these methods:

- ``encode(text) -> list[int]`` and ``decode(ids) -> str``; ``decode(encode(x)) == x`` holds for byte-level
  BPE always; WordPiece (``[UNK]``, spaces) and Unigram (normalization) may lose text, and say what in
  ``lost(text)``;
- ``token_spans(text) -> list[TokenSpan]``: each token over the input, with character and byte offsets;
- ``piece(token_id) -> str``: the token as its vocabulary writes it (``##ing``, ``▁the``, ``Ġthe``);
- ``vocab_size``: how many ids there are.

>>> from bpe_core.tokenizer.bpe import Tokenizer
>>> isinstance(Tokenizer(vocab={i: bytes([i]) for i in range(256)}, merges={}), SchemeTokenizer)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from .bpe import TokenSpan

SCHEMES = ("char", "bpe", "wordpiece", "unigram")


@runtime_checkable
class SchemeTokenizer(Protocol):
    """The interface the four schemes share (see the module's docstring)."""

    scheme: str

    @property
    def vocab_size(self) -> int: ...

    def encode(self, text: str) -> list[int]: ...

    def decode(self, ids: Iterable[int]) -> str: ...

    def token_spans(self, text: str) -> list[TokenSpan]: ...

    def piece(self, token_id: int) -> str: ...
