"""Where a merge happened: the whole training text replayed merge by merge, and the places a token stands.

A :class:`~.records.MergeStep` says how often its pair was merged, not where.
:class:`TextReplay` holds the whole text as tokens, in text order, and replays
the merges of a run on it, so a page can show every place where a new token now
stands, with the tokens around it, anywhere in a long text.

It keeps each distinct chunk once (the way the trainers do) plus the order in
which the chunks occur in the text.  A token is held as three bytes, a lead
byte with its high bit set and then two 7-bit bytes (21 bits of id), and
chunks are joined by a separator that no pair can match.  Merging a pair
everywhere is then one ``bytes.replace`` of its six bytes by the new token's
three: left to right, without overlap, never across a chunk: the rule the
trainers use.  Undoing a merge is the reverse replace, since its new id occurs
nowhere else.  Both run in C, about a millisecond per megabyte of text.

>>> from bpe_core.pretokenizer import PreTokenizer
>>> replay = TextReplay("low lower lowest", PreTokenizer("none"), special_tokens={})
>>> replay.apply((108, 111), 256)  # l + o -> lo
>>> replay.apply((256, 119), 257)  # lo + w -> low
>>> replay.count(257)
3
>>> place = replay.places(257, start=1, limit=1, context_bytes=4)[0]  # the second "low", 4 bytes each side
>>> show = lambda ids: b"|".join(replay.vocab[i] for i in ids)
>>> place.index, show(place.left), show([place.token]), show(place.right)
(1, b'low| ', b'low', b'e|r| |low')
>>> split_back([32, 257, 101], (256, 119), 257)  # before lo + w -> low: the halves at 1 and 2
([32, 256, 119, 101], [1, 2])
>>> replay.undo(), replay.step
((256, 119), 1)
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from heapq import merge
from itertools import accumulate

from ..pretokenizer import PreTokenizer, check_text
from ..primitives import Pair
from .id_bits import ID_BITS  # ids up to 2**21 - 1; the largest is the separator

_SEP = b"\xff\x7f\x7f"  # id 2**21 - 1: above every vocab id (training allows at most 1,000,000)
_SEP_ID = (1 << ID_BITS) - 1
_MID = bytes(b >> 7 for b in range(256))  # for a byte b: its code is 0x80, b >> 7, b & 0x7F
_LOW = bytes(b & 0x7F for b in range(256))
_CONTEXT_TOKENS = 64  # at most this many tokens of context on each side of a place


def code(token_id: int) -> bytes:
    """The three bytes that stand for ``token_id`` in a replay.

    >>> code(97), code(256)
    (b'\\x80\\x00a', b'\\x80\\x02\\x00')
    """
    if not 0 <= token_id < _SEP_ID:
        raise ValueError(f"token id {token_id} is outside 0..{_SEP_ID - 1}; a replay holds 21-bit ids")
    return bytes((0x80 | token_id >> 14, (token_id >> 7) & 0x7F, token_id & 0x7F))


def _byte_codes(data: bytes) -> bytes:
    """The codes of raw bytes (ids 0..255), built with whole-buffer operations in C."""
    out = bytearray(3 * len(data))
    out[0::3] = b"\x80" * len(data)
    out[1::3] = data.translate(_MID)
    out[2::3] = data.translate(_LOW)
    return bytes(out)


def _ids(codes: bytes) -> list[int]:
    """Token ids of a run of codes (separators included, as ``_SEP_ID``)."""
    it = iter(codes)
    return [(a & 0x7F) << 14 | b << 7 | c for a, b, c in zip(it, it, it)]


def split_back(ids: Sequence[int], pair: Pair, new_id: int) -> tuple[list[int], list[int]]:
    """``ids`` as they were before the merge of ``pair`` into ``new_id``, and where the pair's halves are.

    >>> split_back([5, 9, 9], (1, 2), 9)
    ([5, 1, 2, 1, 2], [1, 2, 3, 4])
    """
    out: list[int] = []
    halves: list[int] = []
    for i in ids:
        if i == new_id:
            halves.extend((len(out), len(out) + 1))
            out.extend(pair)
        else:
            out.append(i)
    return out, halves


@dataclass(frozen=True, slots=True)
class TextPlace:
    """One place where a token stands, in text order, with the tokens around it.

    ``index`` counts the token's places from the start of the text (0-based);
    ``left`` and ``right`` hold the tokens just before and after it (about
    ``context_bytes`` of text each, whole tokens); ``text_start`` / ``text_end``
    say that nothing of the text comes before ``left`` / after ``right``.
    ``chunk`` is the place's chunk (counted from the start of the text) and
    ``at`` the token's index in it, so a page can tell that two places are
    near each other (their contexts overlap).
    """

    index: int
    left: tuple[int, ...]
    token: int
    right: tuple[int, ...]
    text_start: bool
    text_end: bool
    chunk: int = 0
    at: int = 0


class TextReplay:
    """The text as tokens after :attr:`step` merges (see the module docstring).

    ``special_tokens`` maps each special string to its id, as
    :meth:`~.options.TrainOptions.special_ids` gives them; the pre-tokenizer
    must be the run's own, so the chunks are the ones the trainer merged in.
    """

    def __init__(self, text: str, pretokenizer: PreTokenizer, *, special_tokens: Mapping[str, int]) -> None:
        check_text(text)
        self.vocab: dict[int, bytes] = {i: bytes([i]) for i in range(256)}
        distinct: dict[str | tuple[str], int] = {}  # a chunk, or (special,), -> its index
        order = array("i")
        add = distinct.setdefault
        for segment, special in pretokenizer.segments(text):
            if special:
                if segment not in special_tokens:
                    raise ValueError(f"special token {segment!r} has no id; pass the run's special_tokens")
                self.vocab[special_tokens[segment]] = segment.encode("utf-8")
                order.append(add((segment,), len(distinct)))
            else:
                order.extend(add(chunk, len(distinct)) for chunk in pretokenizer.split(segment))
        chunks = list(distinct)
        ordinary = [c.encode("utf-8") for c in chunks if isinstance(c, str)]
        codes = _byte_codes(b"".join(ordinary))
        segments: list[bytes] = []
        at = 0
        for chunk in chunks:
            if isinstance(chunk, tuple):
                segments.append(code(special_tokens[chunk[0]]))
            else:
                size = 3 * len(chunk.encode("utf-8"))
                segments.append(codes[at : at + size])
                at += size
        self._state = _SEP.join(segments)
        self._order = order
        self._order_bytes = order.tobytes()
        self._text_bytes = len(text.encode("utf-8"))
        # Each distinct chunk occurs once, in order (pattern none without specials): text order = state order.
        self._in_text_order = len(order) == len(chunks)
        self._times = [0] * len(chunks)  # how often each distinct chunk occurs in the text
        for index in order:
            self._times[index] += 1
        self._segments: list[bytes] | None = segments
        self._starts: list[int] | None = None
        self._merges: list[tuple[Pair, int]] = []

    # ----- where the replay is -----
    @property
    def step(self) -> int:
        """How many merges have been applied."""
        return len(self._merges)

    @property
    def text_bytes(self) -> int:
        return self._text_bytes

    def apply(self, pair: Pair, new_id: int) -> None:
        """Merge ``pair`` into ``new_id`` everywhere (left to right, without overlap, never across chunks)."""
        a, b = pair
        if a not in self.vocab or b not in self.vocab:
            raise ValueError(f"pair {pair} uses an id this replay has not seen; apply the merges in order")
        if new_id in self.vocab:
            raise ValueError(f"id {new_id} is already a token here; each merge needs a new id")
        self._state = self._state.replace(code(a) + code(b), code(new_id))
        self.vocab[new_id] = self.vocab[a] + self.vocab[b]
        self._merges.append((pair, new_id))
        self._segments = self._starts = None

    def undo(self) -> Pair:
        """Undo the last merge; returns its pair."""
        if not self._merges:
            raise ValueError("no merge to undo: the replay is at step 0")
        (a, b), new_id = self._merges.pop()
        self._state = self._state.replace(code(new_id), code(a) + code(b))
        del self.vocab[new_id]
        self._segments = self._starts = None
        return (a, b)

    def move_to(self, step: int, merges: Sequence[tuple[Pair, int]]) -> None:
        """Undo or apply merges until :attr:`step` is ``step``; ``merges`` lists the run's merges in order
        (``(pair, new_id)``, as the run's steps give them)."""
        if not 0 <= step <= len(merges):
            raise ValueError(f"step {step} is outside 0..{len(merges)} (the merges given)")
        done = self._merges
        same = 0
        while same < min(len(done), step) and done[same] == (tuple(merges[same][0]), merges[same][1]):
            same += 1
        while self.step > same:
            self.undo()
        while self.step < step:
            (a, b), new_id = merges[self.step]  # a pair from JSON is a list: make it a tuple
            self.apply((a, b), new_id)

    # ----- reading the tokens -----
    def _split(self) -> tuple[list[bytes], list[int]]:
        if self._segments is None:
            self._segments = self._state.split(_SEP)
        if self._starts is None:
            self._starts = [0, *accumulate(len(s) + 3 for s in self._segments)]
        return self._segments, self._starts

    def _hits(self, token_id: int, *, stop: int | None = None) -> dict[int, list[int]]:
        """Distinct chunk -> offsets (in codes) of ``token_id`` in it; only the first ``stop`` if given."""
        starts = self._split()[1]
        c, state, found = code(token_id), self._state, 0
        hits: dict[int, list[int]] = {}
        p = state.find(c)
        while p >= 0:
            chunk = bisect_right(starts, p) - 1
            hits.setdefault(chunk, []).append(p - starts[chunk])
            found += 1
            if stop is not None and found >= stop:
                break
            p = state.find(c, p + 3)
        return hits

    def count(self, token_id: int) -> int:
        """How many places of the whole text hold ``token_id`` (every repeat of a chunk counted)."""
        times = self._times
        return sum(len(offsets) * times[chunk] for chunk, offsets in self._hits(token_id).items())

    def _text_positions(self, chunks: Mapping[int, list[int]]) -> Iterator[int]:
        """The positions in text order (indexes into the chunk order) whose chunk is one of ``chunks``."""
        if self._in_text_order:
            return iter(sorted(chunks))
        order = self._order
        if len(chunks) > 32:  # a common token: it turns up soon in a plain scan
            return (q for q, chunk in enumerate(order) if chunk in chunks)
        raw = self._order_bytes  # a rare one: found in C, chunk by chunk
        return merge(*(_positions(raw, chunk, order.itemsize) for chunk in chunks))

    def places(
        self, token_id: int, *, start: int = 0, limit: int = 5, context_bytes: int = 24
    ) -> list[TextPlace]:
        """The places of ``token_id`` from the ``start``-th on (in text order), at most ``limit`` of them."""
        if start < 0 or limit < 0 or context_bytes < 0:
            raise ValueError("start, limit and context_bytes must be 0 or more")
        hits = self._hits(token_id, stop=start + limit if self._in_text_order else None)
        found: list[tuple[int, int]] = []
        chunk_at = (lambda q: q) if self._in_text_order else self._order.__getitem__
        for q in self._text_positions(hits):
            found.extend((q, offset) for offset in hits[chunk_at(q)])
            if len(found) >= start + limit:
                break
        return [
            self._place(start + n, q, offset, token_id, context_bytes)
            for n, (q, offset) in enumerate(found[start : start + limit])
        ]

    def _place(self, index: int, q: int, offset: int, token_id: int, budget: int) -> TextPlace:
        left, text_start = self._gather(self._walk(q, offset, -1), budget)
        right, text_end = self._gather(self._walk(q, offset + 3, +1), budget)
        return TextPlace(
            index, tuple(reversed(left)), token_id, tuple(right), text_start, text_end, q, offset // 3
        )

    def _gather(self, walk: Iterator[int], budget: int) -> tuple[list[int], bool]:
        """Tokens from ``walk`` until they cover ``budget`` bytes (at most ``_CONTEXT_TOKENS``); and whether
        the walk reached the end of the text."""
        out: list[int] = []
        size, vocab = 0, self.vocab
        for i in walk:
            if size >= budget or len(out) >= _CONTEXT_TOKENS:
                return out, False
            out.append(i)
            size += len(vocab[i])
        return out, True

    def _walk(self, q: int, offset: int, way: int) -> Iterator[int]:
        """The ids from code offset ``offset`` of the chunk at text position ``q``, going left (``way``
        -1, starting just before the offset) or right (+1, starting at it), on into the next chunks."""
        segments = self._split()[0]
        chunk_at = (lambda q: q) if self._in_text_order else self._order.__getitem__
        last = (len(segments) if self._in_text_order else len(self._order)) - 1
        block = 3 * _CONTEXT_TOKENS
        while True:
            seg = segments[chunk_at(q)]
            if way < 0:
                for hi in range(offset, 0, -block):
                    yield from reversed(_ids(seg[max(0, hi - block) : hi]))
            else:
                for lo in range(offset, len(seg), block):
                    yield from _ids(seg[lo : lo + block])
            q += way
            if not 0 <= q <= last:
                return
            offset = len(segments[chunk_at(q)]) if way < 0 else 0

    def head(self, *, max_bytes: int) -> list[int]:
        """The tokens from the start of the text, until they cover ``max_bytes`` (the last one kept whole)."""
        if not self._order:
            return []
        out: list[int] = []
        size, vocab = 0, self.vocab
        for i in self._walk(0, 0, +1):
            if size >= max_bytes:
                break
            out.append(i)
            size += len(vocab[i])
        return out

    def tokens(self) -> list[int]:
        """Every token of the text in order (for tests and small texts: it decodes the whole replay)."""
        segments = self._split()[0]
        out: list[int] = []
        for q in range(len(segments)) if self._in_text_order else self._order:
            out.extend(_ids(segments[q]))
        return out


def _positions(raw: bytes, chunk: int, size: int) -> Iterator[int]:
    """Every index of ``chunk`` in the chunk order, found with ``bytes.find`` in its raw bytes
    (``raw``: items of ``size`` bytes in the machine's byte order)."""
    pattern = chunk.to_bytes(size, sys.byteorder, signed=True)
    p = raw.find(pattern)
    while p >= 0:
        if p % size == 0:
            yield p // size
            p = raw.find(pattern, p + size)
        else:  # a match across two items: not one
            p = raw.find(pattern, p + 1)
