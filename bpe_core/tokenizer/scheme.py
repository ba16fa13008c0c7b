"""What every tokenizer scheme offers, so analysis and the app compare them without knowing which is which.

Four schemes cut text into tokens here: characters (:class:`~.char_baseline.CharTokenizer`), byte-level BPE
(:class:`~.bpe.Tokenizer`), WordPiece and Unigram.  Each tokenizer has a ``scheme`` name and these methods:

- ``encode(text) -> list[int]`` and ``decode(ids) -> str``; ``decode(encode(x)) == x`` holds for byte-level
  BPE always; WordPiece (``[UNK]``, spaces) and Unigram (normalization) may lose text, and say what in
  ``lost(text)``;
- ``token_spans(text) -> list[TokenSpan]``: each token over the input, with character and byte offsets;
- ``piece(token_id) -> str``: the token as its vocabulary writes it (``##ing``, ``▁the``, ``Ġthe``);
- ``vocab_size``: how many ids there are;
- ``special_ids``: the ids of the special tokens, which a text holds as written and which encode as
  themselves (byte-level BPE's ``<|endoftext|>``, WordPiece's ``[CLS]``; none for characters and
  Unigram);
- ``as_bpe() -> Tokenizer | None``: the tokenizer as byte-level BPE (itself), with what only BPE has
  (merges, a byte vocabulary, special tokens a text can hold or not: ``encode_ordinary``), or None
  for the other schemes; so a caller asks for BPE instead of testing classes.

:func:`lost` says what ``decode(encode(text))`` loses of a text, as a :class:`Loss`: a scheme that can
lose text has a ``lost(text)`` method (WordPiece, characters with an unknown token, Unigram); for
the others it compares the round trip.

>>> from bpe_core.tokenizer.char_baseline import CharTokenizer
>>> isinstance(Tokenizer(vocab={i: bytes([i]) for i in range(256)}, merges={}), SchemeTokenizer)
True
>>> [tok.as_bpe() is tok for tok in (Tokenizer({i: bytes([i]) for i in range(256)}, []), CharTokenizer("a"))]
[True, False]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .bpe import Tokenizer, TokenSpan

SCHEMES = ("char", "bpe", "wordpiece", "unigram", "piece-bpe", "pipeline")
"""Every scheme name a tokenizer can have: the four trained here, SentencePiece's BPE
(:class:`~.piece_bpe.PieceBpeTokenizer`, read from ``.model`` files) and an HF ``tokenizer.json`` read stage
by stage (:class:`bpe_core.pipeline.PipelineTokenizer`, whose ``family`` is its model's scheme)."""


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

    @property
    def special_ids(self) -> frozenset[int]: ...

    def as_bpe(self) -> Tokenizer | None: ...


@runtime_checkable
class ReportsLoss(Protocol):
    """A tokenizer that says itself what a round trip loses (WordPiece, characters, Unigram)."""

    def lost(self, text: str) -> Loss: ...


@dataclass(frozen=True, slots=True)
class Loss:
    """What ``decode(encode(text))`` loses of ``text``.

    - ``round_trip``: ``decode(encode(text)) == text``; ``decoded`` is what came back;
    - ``unknown``: the ``(start, end)`` character spans of the text that became an unknown token
      (WordPiece's ``[UNK]`` for a word it cannot cut or longer than its limit; a character unseen in
      training for the character scheme): their text is gone;
    - ``spacing``: places where the white space between two tokens came back otherwise (WordPiece
      drops white space and puts one space between words, none before ``.,!?``), the text's start
      and end included;
    - ``changed``: characters changed by normalization (Unigram's NFKC, for instance).
    """

    round_trip: bool
    decoded: str
    unknown: tuple[tuple[int, int], ...] = ()
    spacing: int = 0
    changed: int = 0

    @property
    def unknown_chars(self) -> int:
        """How many characters of the text became unknown tokens."""
        return sum(end - start for start, end in self.unknown)


def lost(tok: SchemeTokenizer, text: str) -> Loss:
    """What ``decode(encode(text))`` loses, for any scheme (see :class:`Loss`).

    >>> from bpe_core.tokenizer.bpe import Tokenizer
    >>> lost(Tokenizer(vocab={i: bytes([i]) for i in range(256)}, merges={}), "héllo")
    Loss(round_trip=True, decoded='héllo', unknown=(), spacing=0, changed=0)
    """
    if isinstance(tok, ReportsLoss):
        return tok.lost(text)
    decoded = tok.decode(tok.encode(text))
    return Loss(decoded == text, decoded)
