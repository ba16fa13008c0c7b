r"""Counting the chunks of a byte stream block by block, with the same counts as one count of the whole.

A file too large to hold as one string is read in blocks of bytes.  Each block
is counted between its first and its last safe cut (see :mod:`.cuts`); what
lies before the first cut (its *head*) and after the last (its *tail*) may
belong to chunks that go on into the neighbouring blocks, so it is kept as
bytes.  :func:`combine` lays the blocks end to end in stream order: the tail of
one block and the head of the next make a *seam*, which starts and ends at safe
cuts, so it is counted as it is.  A block without any safe cut is all head,
and joins the seam around it.

This is a map and a reduce: :meth:`BlockCounter.count_block` counts one block
anywhere (a process, a Dask worker) and :func:`combine` adds up neighbours,
so blocks can be counted in any order and combined in stream order.

>>> counter = BlockCounter(PreTokenizer("gpt2"))
>>> data = "Tom sat down.\n\n\nThen he ran off to town.".encode()
>>> parts = [counter.count_block(data[i : i + 12], at_start=i == 0) for i in range(0, len(data), 12)]
>>> parts[0].head, dict(parts[0].chunks), parts[0].tail  # the first 12 bytes: "Tom sat down"
(b'Tom', {' sat': 1}, b' down')
>>> total = combine(parts, counter, starts_stream=True)
>>> total.finish(counter) == counter.count_text(data.decode())
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .cuts import SafeCuts
from .pretokenizer import PreTokenizer


@dataclass(slots=True)
class BlockCounts:
    """The counts of a run of bytes between its first and last safe cut (see the module docstring).

    ``head``: the bytes before its first cut (all of them when ``tail`` is None,
    a run without any cut); ``tail``: the bytes after its last cut.  ``offset``
    and ``bytes``: where the run starts in the stream and how many bytes it
    covers; ``pretokens``: the chunks and special tokens counted so far.
    """

    head: bytes
    chunks: Counter[str] = field(default_factory=Counter)
    specials: Counter[str] = field(default_factory=Counter)
    tail: bytes | None = None
    offset: int = 0
    bytes: int = 0
    pretokens: int = 0

    def finish(self, counter: BlockCounter) -> tuple[Counter[str], Counter[str]]:
        """The counts of a whole stream: this run, with its head and tail counted (the stream's
        start and end are cuts).  Only for a run that starts the stream (its head is empty)."""
        if self.head or self.tail is None:
            raise ValueError(
                "finish() is for a run that starts the stream (combine(..., starts_stream=True))"
            )
        chunks, specials = counter.count_text(
            counter.decode(self.tail, self.offset + self.bytes - len(self.tail))
        )
        self.chunks.update(chunks)
        self.specials.update(specials)
        return self.chunks, self.specials


class BlockCounter:
    """Counts blocks of UTF-8 bytes for one :class:`PreTokenizer` (a map task; see the module docstring)."""

    def __init__(self, pretokenizer: PreTokenizer) -> None:
        self.pretokenizer = pretokenizer
        self.cuts = SafeCuts(pretokenizer)

    def count_text(self, text: str) -> tuple[Counter[str], Counter[str]]:
        """``(chunk counts, special-token counts)`` of a text, here in this process."""
        return self.pretokenizer.count_chunks(text, workers=1)

    def decode(self, data: bytes, offset: int) -> str:
        """``data`` as UTF-8; an invalid byte is a ValueError giving its offset in the stream."""
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidUtf8(offset + exc.start, data[exc.start]) from None

    def count_block(self, data: bytes, *, at_start: bool, offset: int = 0) -> BlockCounts:
        """Count one block: ``data`` may start and end inside a UTF-8 character.

        ``at_start``: the block starts the stream, so its first byte is a cut.
        ``offset``: where the block starts in the stream (for error messages).
        """
        n = len(data)
        start = 0
        if not at_start:
            while start < min(n, 3) and 0x80 <= data[start] < 0xC0:  # the end of a character before
                start += 1
        end = n - _incomplete_tail(data)
        text = self.decode(data[start:end], offset + start)
        first = self.cuts.first(text, 0 if at_start else self.cuts.reach_back)
        if first < 0:
            return BlockCounts(head=data, offset=offset, bytes=n)
        last = self.cuts.last(text, first)
        chunks, specials = self.count_text(text[first:last])
        head = data[:start] + text[:first].encode("utf-8")
        tail = text[last:].encode("utf-8") + data[end:]
        counted = chunks.total() + specials.total()
        return BlockCounts(head, chunks, specials, tail, offset, n, counted)


class InvalidUtf8(ValueError):
    """A byte that is not valid UTF-8, at ``offset`` in the stream."""

    def __init__(self, offset: int, byte: int) -> None:
        super().__init__(f"byte 0x{byte:02X} at offset {offset} is not valid UTF-8")
        self.offset, self.byte = offset, byte

    def __reduce__(
        self,
    ) -> tuple[type[InvalidUtf8], tuple[int, int]]:  # so that it crosses from a worker process as itself
        return InvalidUtf8, (self.offset, self.byte)


def combine(parts: Iterable[BlockCounts], counter: BlockCounter, *, starts_stream: bool) -> BlockCounts:
    """Neighbouring runs, in stream order, as one run: each seam (a tail and the next head) is counted.

    With ``starts_stream`` the first run's start is the stream's, so its head is
    counted too and the result's head is empty.  First occurrences keep stream order.
    """
    total = BlockCounts(head=b"", tail=b"" if starts_stream else None)
    pending: list[bytes] = []  # the current seam
    for number, part in enumerate(parts):
        if number == 0:
            total.offset = part.offset
        total.bytes += part.bytes
        if total.tail is None:  # no cut yet: everything so far is head
            total.head += part.head
            if part.tail is not None:
                total.tail = part.tail
                _add(total, part)
            continue
        pending.append(part.head)
        if part.tail is None:
            continue
        seam = b"".join([total.tail, *pending])
        seam_offset = part.offset + len(part.head) - len(seam)
        chunks, specials = counter.count_text(counter.decode(seam, seam_offset))
        total.chunks.update(chunks)
        total.specials.update(specials)
        total.pretokens += chunks.total() + specials.total()
        _add(total, part)
        total.tail, pending = part.tail, []
    if pending and total.tail is not None:
        total.tail = b"".join([total.tail, *pending])
    return total


def _add(total: BlockCounts, part: BlockCounts) -> None:
    total.chunks.update(part.chunks)
    total.specials.update(part.specials)
    total.pretokens += part.pretokens


def _incomplete_tail(data: bytes) -> int:
    """How many bytes at the end of ``data`` start a UTF-8 character that is not complete.

    >>> _incomplete_tail("é".encode()), _incomplete_tail("é".encode()[:1]), _incomplete_tail(b"ab")
    (0, 1, 0)
    """
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return 0
        if byte >= 0xC0:  # a lead byte: how long its character is
            width = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return back if width > back else 0
    return 0
