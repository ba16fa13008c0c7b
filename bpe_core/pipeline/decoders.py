"""Decoders, the way back: the pieces of some ids turned into text (HF's ``decoders``).

Each is a small frozen record with ``decode_chain(list[str]) -> list[str]``, pieces in, pieces out; the
text is the last stage's pieces joined.  With no decoder, HF joins the pieces with spaces.

- :class:`ByteLevel`: GPT-2's byte characters back to bytes, then UTF-8 (U+FFFD where it is not);
- :class:`WordPiece`: ``##`` pieces glued to the one before, a space before the others; ``cleanup``
  takes the space off before ``.,!?`` and a few contractions;
- :class:`Metaspace`: ``▁`` back to a space (in the first piece dropped, unless ``prepend_scheme`` is
  ``never``);
- :class:`ByteFallback`: a run of ``<0xNN>`` pieces to the UTF-8 text they spell (one U+FFFD a byte when
  they spell none); :class:`Fuse`: all pieces one; :class:`Strip`: up to ``start`` leading and ``stop``
  trailing ``content`` characters off each piece; :class:`Replace`; :class:`Sequence`.

Llama-2's: ``Sequence(Replace("▁", " "), ByteFallback(), Fuse(), Strip(" ", 1, 0))``.

>>> llama = Sequence((Replace("▁", " "), ByteFallback(), Fuse(), Strip(" ", 1, 0)))
>>> llama.decode(["▁Hello", "▁", "<0xE4>", "<0xBD>", "<0xA0>"])
'Hello 你'
>>> WordPiece().decode(["hug", "##s", "!"])
'hugs!'
"""

from __future__ import annotations

from collections.abc import Sequence as Seq
from dataclasses import dataclass
from typing import ClassVar, Protocol

from ..byte_level import UNICODE_TO_BYTE
from .pre_tokenizers import PrependScheme

_CLEANUP = (
    (" .", "."),
    (" ?", "?"),
    (" !", "!"),
    (" ,", ","),
    (" ' ", "'"),
    (" n't", "n't"),
    (" 'm", "'m"),
    (" do not", " don't"),
    (" 's", "'s"),
    (" 've", "'ve"),
    (" 're", "'re"),
)


class Decoder(Protocol):
    """What every decoder offers."""

    kind: ClassVar[str]

    def decode_chain(self, pieces: list[str]) -> list[str]: ...


class _Decode:
    """``decode``: the chain's pieces joined."""

    __slots__ = ()

    def decode(self: Decoder, pieces: list[str]) -> str:
        return "".join(self.decode_chain(pieces))


@dataclass(frozen=True, slots=True)
class ByteLevel(_Decode):
    """GPT-2's byte characters back to bytes (a piece with another character stays as it is), then UTF-8.

    >>> ByteLevel().decode(["ĠHi", "ĠÃ", "©"])
    ' Hi é'
    """

    kind: ClassVar[str] = "ByteLevel"

    def decode_chain(self, pieces: list[str]) -> list[str]:
        data = bytearray()
        for p in pieces:
            try:
                data.extend(UNICODE_TO_BYTE[c] for c in p)
            except KeyError:
                data.extend(p.encode("utf-8", "surrogatepass"))
        return [bytes(data).decode("utf-8", "replace")]


@dataclass(frozen=True, slots=True)
class WordPiece(_Decode):
    """BERT's way back (see the module docstring)."""

    prefix: str = "##"
    cleanup: bool = True
    kind: ClassVar[str] = "WordPiece"

    def decode_chain(self, pieces: list[str]) -> list[str]:
        out = []
        for i, p in enumerate(pieces):
            if i:
                p = p[len(self.prefix) :] if p.startswith(self.prefix) else " " + p
            if self.cleanup:
                for old, new in _CLEANUP:
                    p = p.replace(old, new)
            out.append(p)
        return out


@dataclass(frozen=True, slots=True)
class Metaspace(_Decode):
    """``replacement`` back to a space; in the first piece every one is dropped (HF's rule), unless the
    pre-tokenizer never put one in front (``prepend_scheme`` ``never``).

    >>> Metaspace().decode(["▁Hey", "▁friend"])
    'Hey friend'
    """

    replacement: str = "▁"
    prepend_scheme: PrependScheme = "always"
    split: bool = True
    kind: ClassVar[str] = "Metaspace"

    def decode_chain(self, pieces: list[str]) -> list[str]:
        drop = self.prepend_scheme != "never"
        return [p.replace(self.replacement, "" if i == 0 and drop else " ") for i, p in enumerate(pieces)]


def _byte_of(piece: str) -> int | None:
    if len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">"):
        try:
            return int(piece[3:5], 16)
        except ValueError:
            return None
    return None


@dataclass(frozen=True, slots=True)
class ByteFallback(_Decode):
    """A run of ``<0xNN>`` pieces becomes the text its bytes spell, or one U+FFFD per byte when they are
    not UTF-8.

    >>> ByteFallback().decode_chain(["a", "<0xE4>", "<0xBD>", "<0xA0>", "<0xE4>"])
    ['a', '�', '�', '�', '�']
    """

    kind: ClassVar[str] = "ByteFallback"

    def decode_chain(self, pieces: list[str]) -> list[str]:
        out: list[str] = []
        run = bytearray()

        def flush() -> None:
            if run:
                try:
                    out.append(bytes(run).decode("utf-8"))
                except UnicodeDecodeError:
                    out.extend("\ufffd" for _ in run)
                run.clear()

        for p in pieces:
            b = _byte_of(p)
            if b is not None:
                run.append(b)
                continue
            flush()
            out.append(p)
        flush()
        return out


@dataclass(frozen=True, slots=True)
class Fuse(_Decode):
    """All pieces joined into one (so the next stage sees the whole text)."""

    kind: ClassVar[str] = "Fuse"

    def decode_chain(self, pieces: list[str]) -> list[str]:
        return ["".join(pieces)]


@dataclass(frozen=True, slots=True)
class Strip(_Decode):
    """Up to ``start`` leading and ``stop`` trailing ``content`` characters off each piece.

    >>> Strip(" ", 1, 0).decode_chain(["  a "])
    [' a ']
    """

    content: str = " "
    start: int = 0
    stop: int = 0
    kind: ClassVar[str] = "Strip"

    def decode_chain(self, pieces: list[str]) -> list[str]:
        out = []
        for p in pieces:
            i = 0
            while i < min(self.start, len(p)) and p[i] == self.content:
                i += 1
            j = len(p)
            for _ in range(self.stop):
                if j > 0 and p[j - 1] == self.content:
                    j -= 1
                else:
                    break
            out.append(p[i:j] if i < j else "")
        return out


@dataclass(frozen=True, slots=True)
class Replace(_Decode):
    """Every ``pattern`` (a string) in each piece replaced by ``content``."""

    pattern: str
    content: str
    kind: ClassVar[str] = "Replace"

    def decode_chain(self, pieces: list[str]) -> list[str]:
        return [p.replace(self.pattern, self.content) for p in pieces]


@dataclass(frozen=True, slots=True)
class Sequence(_Decode):
    """Several decoders, each on the pieces the one before gave."""

    decoders: Seq[Decoder]
    kind: ClassVar[str] = "Sequence"

    def decode_chain(self, pieces: list[str]) -> list[str]:
        for d in self.decoders:
            pieces = d.decode_chain(pieces)
        return pieces
