r"""Encoding a stream of text pieces, with memory bounded by a buffer and the longest uncuttable stretch;
decoding a stream of ids in blocks.

The pieces are gathered into a buffer; once it holds ``buffer_chars``
characters, it is encoded up to its last safe cut (see
:mod:`bpe_core.pretokenizer.cuts`) and the rest waits for more.  So the ids are
exactly those of encoding the joined text, however it was cut into pieces:
lines of a file, blocks of a socket, a special token split in two.

>>> from bpe_core import train
>>> tok = train("Tom sat.\n\n\nThen he ran.<|eot|>", vocab_size=270, special_tokens=["<|eot|>"])
>>> lines = ["Tom sat.\n", "\n", "\n", "Then he ran.<|e", "ot|>"]
>>> list(tok.encode_iterable(lines)) == tok.encode("".join(lines))
True
>>> [tok.decode([i]) for i in tok.encode("\n\n\nThen")]  # what encoding line by line would miss
['\n\n', '\n', 'Then']

Decoding in blocks: ``incremental_decoder()`` (byte-level BPE, WordPiece, Unigram) gives an
:class:`IdsDecoder`, which takes the ids a block at a time as a codec's incremental decoder takes
bytes.  The texts of the blocks, joined, are ``decode`` of all the ids; a character whose bytes two
blocks share comes whole with the second:

>>> ids = tok.encode("Tom sat. 灯")
>>> decoder = tok.incremental_decoder()
>>> [decoder.decode(ids[:-1]), decoder.decode(ids[-1:], final=True)]  # 灯 is 3 byte tokens here
['Tom sat. ', '灯']
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Protocol

from ..pretokenizer import PreTokenizer
from ..pretokenizer.cuts import SafeCuts

BUFFER_CHARS = 1 << 16


def encode_pieces(
    pieces: Iterable[str],
    pretokenizer: PreTokenizer,
    encode: Callable[[str], list[int]],
    *,
    buffer_chars: int = BUFFER_CHARS,
) -> Iterator[int]:
    """The ids of ``encode("".join(pieces))``, yielded as the pieces come (see the module docstring).

    The ids of each encoded stretch are handed on by a C-level ``chain``, not one by one through a generator.
    """
    return chain.from_iterable(_stretches(pieces, pretokenizer, encode, buffer_chars=buffer_chars))


def _stretches(
    pieces: Iterable[str],
    pretokenizer: PreTokenizer,
    encode: Callable[[str], list[int]],
    *,
    buffer_chars: int,
) -> Iterator[list[int]]:
    """The ids of each stretch of the text that ends at a safe cut, one list per stretch."""
    cuts = SafeCuts(pretokenizer)
    parts: list[str] = []
    held = 0  # characters in parts
    wanted = buffer_chars  # grows while the buffer has no safe cut, so each character is searched O(1) times
    offset = 0  # characters encoded so far, for error messages
    for number, piece in enumerate(pieces, 1):
        if not isinstance(piece, str):
            raise ValueError(
                f"piece {number} is a {type(piece).__name__}, not a str; open files in text mode "
                "(encoding='utf-8') or decode bytes first"
            )
        parts.append(piece)
        held += len(piece)
        if held < wanted:
            continue
        text = "".join(parts)
        cut = cuts.last(text)
        if cut <= 0:
            parts, wanted = [text], 2 * held
            continue
        yield _encode_at(encode, text[:cut], offset)
        offset += cut
        parts, held, wanted = [text[cut:]], len(text) - cut, buffer_chars
    if held:
        yield _encode_at(encode, "".join(parts), offset)


def _encode_at(encode: Callable[[str], list[int]], text: str, offset: int) -> list[int]:
    try:
        return encode(text)
    except ValueError as exc:
        if not offset:
            raise
        raise ValueError(f"in the text from character {offset:,} on: {exc}") from None


class IdsDecoder(Protocol):
    """Decodes ids given in blocks (see the module docstring); after a ValueError (an unknown id) it
    is not to be used again."""

    def decode(self, ids: Iterable[int], final: bool = False) -> str: ...


class BytesDecoder:
    """Ids to text through their bytes (byte-level BPE): ``decode_bytes`` of each block, then UTF-8
    with U+FFFD for an invalid sequence, exactly as decoding all the bytes at once; the bytes of a
    character not yet whole wait for the next block (``final=True`` ends them as U+FFFD)."""

    def __init__(self, decode_bytes: Callable[[Iterable[int]], bytes]) -> None:
        self.decode_bytes = decode_bytes
        self.utf8 = codecs.getincrementaldecoder("utf-8")("replace")

    def decode(self, ids: Iterable[int], final: bool = False) -> str:
        return self.utf8.decode(self.decode_bytes(ids), final)
