"""Watch a text encode: the chunks its split pattern cut (step 0), then one step per merge that fires.

:func:`trace_encode` records how a byte-level BPE tokenizer encodes one text, as typed records:

- **step 0** cuts out the special tokens and splits the rest with the split pattern, as
  :meth:`.bpe.Tokenizer.encode` does; each :class:`Chunk` says which part of the pattern cut
  it (letters, numbers, punctuation, spaces, contractions, newlines; ``special token`` for a
  special token; see :mod:`bpe_core.pretokenizer.pattern_parts`) and starts as its UTF-8 bytes;
- **step k** (k >= 1) applies the **lowest-ranked merge whose pair stands anywhere in the text**
  (in any chunk), **at all its places**: in each chunk that holds the pair, left to right and
  without overlap (:func:`~bpe_core.primitives.merge_pair`).  Each :class:`EncodeStep` says which
  merge rank fired, the pair, the id it makes, and where (chunk and position).

Why this order gives the tokenizer's own ids: encoding works chunk by chunk, and in each chunk
merges the lowest-ranked pair present (:mod:`.textbook`; tiktoken's educational encoder does the
same, one place at a time, leftmost first).  The step's merge is the lowest-ranked pair of the
whole text, so in every chunk that holds it, it is that chunk's lowest too: each chunk goes
through exactly the merges its own encoding makes, in the same order, and chunks without the
pair wait.  Only the interleaving of the chunks is chosen here, so that one step is one rank.
When every merge's two parts come from bytes or lower-ranked merges (training here, tiktoken's
rank files, GPT-2's files), ranks rise from step to step and each rank fires at most once, so
the number of steps is the number of distinct merges that fire on the text.

>>> from bpe_core import train
>>> tok = train("low low low lower lowest", vocab_size=259, pattern="gpt2")
>>> trace = trace_encode(tok, "slow low!")
>>> [(c.text, c.part) for c in trace.chunks]
[('slow', 'letters'), (' low', 'letters'), ('!', 'punctuation')]
>>> [(s.step, s.rank, tok.vocab[s.new_id], [(p.chunk, p.after) for p in s.places]) for s in trace.steps]
[(1, 0, b'ow', [(0, 2), (1, 2)]), (2, 1, b'low', [(0, 1), (1, 1)]), (3, 2, b' low', [(1, 0)])]
>>> list(trace.ids) == tok.encode("slow low!"), trace.complete
(True, True)

A long text is traced up to :data:`MAX_TRACE_BYTES` bytes (whole chunks; no merge crosses a chunk's
edge, so those chunks end as they end in the whole text), and at most :data:`MAX_TRACE_STEPS` steps;
``note`` says what was left out.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..pretokenizer import check_text, time_limit
from ..pretokenizer.pattern_parts import SPECIAL_PART, PatternPart, PatternParts
from .bpe import Tokenizer

MAX_TRACE_BYTES = 4096
"""The most bytes of text traced (whole chunks): the steps of a longer text would not be read one by
one, and tracing costs about a chunk's length per step."""
MAX_TRACE_STEPS = 5000
"""The most steps recorded."""
_NO_RANK = 1 << 62  # above every merge rank: no merge


@dataclass(frozen=True, slots=True)
class Chunk:
    """One chunk of step 0 (or one special token), in text order.

    ``index`` counts chunks from 0; ``text`` is the chunk; ``part`` names the part of the split
    pattern that cut it and ``alternative`` is that part's place in the pattern (-1 for a special
    token, a whole text with pattern ``none``, or text the pattern did not match); ``start`` /
    ``end`` are character offsets and ``byte_start`` / ``byte_end`` UTF-8 byte offsets into the
    text; ``ids`` are its ids at step 0 (its bytes' ids, or the special token's one id).
    """

    index: int
    text: str
    part: str
    alternative: int
    start: int
    end: int
    byte_start: int
    byte_end: int
    special: bool
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MergePlace:
    """Where a step merged: in chunk ``chunk``, the pair stood at position ``before`` (0-based, in
    the chunk's ids before the step), the new token stands at ``after`` (in its ids after it)."""

    chunk: int
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class EncodeStep:
    """One step: merge ``rank`` (0-based, the place in the tokenizer's merges) joined ``pair`` into
    ``new_id`` at ``places`` (in text order); ``tokens_after``: the traced text's tokens after it."""

    step: int
    rank: int
    pair: tuple[int, int]
    new_id: int
    places: tuple[MergePlace, ...]
    tokens_after: int


@dataclass(frozen=True, slots=True)
class EncodeTrace:
    """How a text encodes: step 0's chunks, then the steps (see the module docstring).

    ``parts``: the split pattern's named parts (none for pattern ``none``); ``ids``: the ids
    after the last step recorded (the tokenizer's ids of the traced chunks when ``complete``);
    ``traced_chars`` / ``total_chars``: characters traced and in the text; ``complete``: every
    merge that fires on the traced chunks is a step; ``note``: what was left out and why ("" when
    nothing was).
    """

    pattern: str
    parts: tuple[PatternPart, ...]
    chunks: tuple[Chunk, ...]
    steps: tuple[EncodeStep, ...]
    ids: tuple[int, ...]
    traced_chars: int
    total_chars: int
    complete: bool
    note: str

    @property
    def whole(self) -> bool:
        """Every chunk of the text is traced, and every step: ``ids`` are the text's ids."""
        return self.complete and self.traced_chars == self.total_chars


def step0_chunks(tokenizer: Tokenizer, text: str, *, specials: bool = True) -> Iterator[Chunk]:
    """The chunks of ``text`` in order, as encoding cuts them (special tokens as chunks of their own).

    ``specials=False`` reads special-token strings as plain text (``encode_ordinary``).

    >>> from bpe_core import Tokenizer
    >>> tok = Tokenizer({i: bytes([i]) for i in range(256)}, [], special_tokens={"<|x|>": 256})
    >>> [(c.text, c.part, c.ids) for c in step0_chunks(tok, "é<|x|>")]
    [('é', 'letters', (195, 169)), ('<|x|>', 'special token', (256,))]
    """
    check_text(text)
    if not specials:
        tokenizer = tokenizer.without_special_tokens()
    pre = tokenizer.pretokenizer
    parts = PatternParts(tokenizer.pattern)
    byte_ids = tokenizer.byte_ids()
    index = start = byte_start = 0
    with time_limit(len(text)):
        for segment, special in pre.segments(text):
            if special:
                size = len(segment.encode("utf-8"))
                yield Chunk(
                    index=index,
                    text=segment,
                    part=SPECIAL_PART,
                    alternative=-1,
                    start=start,
                    end=start + len(segment),
                    byte_start=byte_start,
                    byte_end=byte_start + size,
                    special=True,
                    ids=(tokenizer.special_tokens[segment],),
                )
                index, start, byte_start = index + 1, start + len(segment), byte_start + size
                continue
            at = 0  # where the chunk starts in the segment
            for chunk in pre.split(segment):
                if segment[at : at + len(chunk)] != chunk:
                    raise ValueError(
                        f"the split pattern's chunks do not cover the text at character {start + at}; "
                        "report this pattern"
                    )
                data = chunk.encode("utf-8")
                part = parts.part_of(segment, at, at + len(chunk))
                yield Chunk(
                    index=index,
                    text=chunk,
                    part=part.name,
                    alternative=part.index,
                    start=start + at,
                    end=start + at + len(chunk),
                    byte_start=byte_start,
                    byte_end=byte_start + len(data),
                    special=False,
                    ids=tuple(byte_ids[b] for b in data),
                )
                index, at, byte_start = index + 1, at + len(chunk), byte_start + len(data)
            start += len(segment)


class _ChunkState:
    """One chunk's ids and the rank of each adjacent pair, while the trace runs."""

    __slots__ = ("ids", "ranks")

    def __init__(self, ids: Sequence[int], get: Mapping[tuple[int, int], int]) -> None:
        self.ids = list(ids)
        self.ranks = [get.get(p, _NO_RANK) for p in zip(self.ids, self.ids[1:], strict=False)]

    def lowest(self) -> int:
        return min(self.ranks, default=_NO_RANK)

    def merge(self, rank: int, new: int, get: Mapping[tuple[int, int], int]) -> list[tuple[int, int]]:
        """Merge the pair of ``rank`` at each place, left to right without overlap: (before, after)."""
        ids, ranks = self.ids, self.ranks
        out: list[tuple[int, int]] = []
        i = ranks.index(rank)
        while True:
            out.append((i + len(out), i))
            ids[i] = new
            del ids[i + 1]
            del ranks[i]
            if i:
                ranks[i - 1] = get.get((ids[i - 1], new), _NO_RANK)
            if i < len(ids) - 1:
                ranks[i] = get.get((new, ids[i + 1]), _NO_RANK)
            # The pair (new, next) is never this rank's pair (new is longer than its left part), so the
            # next place starts past the new token: left to right, without overlap, as merge_pair.
            try:
                i = ranks.index(rank, i + 1)
            except ValueError:
                return out


def trace_encode(
    tokenizer: Tokenizer,
    text: str,
    *,
    specials: bool = True,
    max_bytes: int = MAX_TRACE_BYTES,
    max_steps: int = MAX_TRACE_STEPS,
) -> EncodeTrace:
    """How ``tokenizer`` encodes ``text``: step 0's chunks, then one step per merge that fires.

    ``specials=False`` reads special-token strings as plain text.  At most ``max_bytes`` bytes
    (whole chunks; none when the first is longer) and ``max_steps`` steps; ``note`` says what was left
    out.

    >>> from bpe_core import train
    >>> tok = train("aaab " * 20, vocab_size=259, pattern="gpt2")
    >>> short = trace_encode(tok, "aaab aaab", max_steps=1)
    >>> short.complete, short.note
    (False, 'The trace stops at step 1 (at most 1 steps are shown); the text has more merges to make.')
    >>> trace_encode(tok, "ab " * 10, max_bytes=7).note
    'Traced: the first 5 characters (2 chunks) of 30; the rest is cut the same way.'
    >>> trace_encode(tok, "aaab", max_bytes=3).chunks
    ()
    """
    for name, value in (("max_bytes", max_bytes), ("max_steps", max_steps)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
    if not specials:
        tokenizer = tokenizer.without_special_tokens()
    chunks: list[Chunk] = []
    too_long: Chunk | None = None  # a first chunk over max_bytes: nothing is traced
    for chunk in step0_chunks(tokenizer, text):
        if chunk.byte_end > max_bytes:
            too_long = None if chunks else chunk
            break
        chunks.append(chunk)
    traced_chars = chunks[-1].end if chunks else 0
    notes: list[str] = []
    if too_long is not None:
        notes.append(
            f"The text's first chunk is {too_long.byte_end:,} bytes, over the {max_bytes:,} a trace "
            "follows (with no split pattern, the text between special tokens is one chunk); shorten "
            "the text, or pick a tokenizer with a split pattern."
        )
    elif traced_chars < len(text):
        notes.append(
            f"Traced: the first {traced_chars:,} characters ({len(chunks):,} chunks) of {len(text):,}; "
            "the rest is cut the same way."
        )
    steps, complete, ids = _steps(tokenizer, chunks, max_steps)
    if not complete:
        notes.append(
            f"The trace stops at step {len(steps):,} (at most {max_steps:,} steps are shown); "
            "the text has more merges to make."
        )
    return EncodeTrace(
        pattern=tokenizer.pattern,
        parts=PatternParts(tokenizer.pattern).parts,
        chunks=tuple(chunks),
        steps=tuple(steps),
        ids=ids,
        traced_chars=traced_chars,
        total_chars=len(text),
        complete=complete,
        note=" ".join(notes),
    )


def _steps(
    tokenizer: Tokenizer, chunks: Sequence[Chunk], max_steps: int
) -> tuple[list[EncodeStep], bool, tuple[int, ...]]:
    """The steps over ``chunks`` (at most ``max_steps``), whether that is all of them, and the ids after."""
    get = tokenizer.merge_ranks()  # read only
    made = tokenizer.merge_ids
    states = [_ChunkState(() if c.special else c.ids, get) for c in chunks]
    tokens = sum(len(c.ids) for c in chunks)
    # (the chunk's lowest rank, chunk): an entry is stale when the chunk's lowest rank is not that any more
    heap = [(low, n) for n, s in enumerate(states) if (low := s.lowest()) < _NO_RANK]
    heapq.heapify(heap)
    lowest = [s.lowest() for s in states]
    steps: list[EncodeStep] = []
    while heap:
        rank = heap[0][0]
        if len(steps) >= max_steps:
            break
        holders: list[int] = []
        while heap and heap[0][0] == rank:
            _, n = heapq.heappop(heap)
            if lowest[n] == rank and (not holders or holders[-1] != n):
                holders.append(n)
        holders = sorted(set(holders))
        if not holders:
            continue
        new = made[rank]
        places: list[MergePlace] = []
        for n in holders:
            state = states[n]
            places += [MergePlace(n, before, after) for before, after in state.merge(rank, new, get)]
            lowest[n] = state.lowest()
            if lowest[n] < _NO_RANK:
                heapq.heappush(heap, (lowest[n], n))
        tokens -= len(places)
        steps.append(
            EncodeStep(
                step=len(steps) + 1,
                rank=rank,
                pair=tokenizer.merges[rank],
                new_id=new,
                places=tuple(places),
                tokens_after=tokens,
            )
        )
    complete = not any(low < _NO_RANK for low in lowest)
    ids = tuple(i for c, s in zip(chunks, states, strict=True) for i in (c.ids if c.special else s.ids))
    return steps, complete, ids


class TraceReplay:
    """The ids of each chunk at any step of a trace, moved step by step (forward and back).

    >>> from bpe_core import train
    >>> tok = train("low low low lower lowest", vocab_size=259, pattern="gpt2")
    >>> replay = TraceReplay(trace_encode(tok, "slow low"))
    >>> replay.move_to(2)
    >>> [[tok.vocab[i] for i in ids] for ids in replay.chunk_ids]
    [[b's', b'low'], [b' ', b'low']]
    >>> replay.move_to(0); replay.flat()[:3]
    [115, 108, 111]
    """

    def __init__(self, trace: EncodeTrace) -> None:
        self.trace = trace
        self.step = 0
        self.chunk_ids: list[list[int]] = [list(c.ids) for c in trace.chunks]

    def move_to(self, k: int) -> None:
        """Show step ``k`` (0 to the last step)."""
        steps = self.trace.steps
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(steps):
            raise ValueError(f"step {k!r} is not one of 0..{len(steps)} (the trace's steps)")
        while self.step < k:
            s = steps[self.step]
            for p in reversed(s.places):  # right to left: each place's position is still good
                self.chunk_ids[p.chunk][p.before : p.before + 2] = [s.new_id]
            self.step += 1
        while self.step > k:
            s = steps[self.step - 1]
            for p in reversed(s.places):
                self.chunk_ids[p.chunk][p.after : p.after + 1] = list(s.pair)
            self.step -= 1

    def flat(self) -> list[int]:
        """All the ids in text order at the current step."""
        return [i for ids in self.chunk_ids for i in ids]

    def offsets(self) -> list[int]:
        """Where each chunk's first id stands in :meth:`flat`."""
        out, at = [], 0
        for ids in self.chunk_ids:
            out.append(at)
            at += len(ids)
        return out
