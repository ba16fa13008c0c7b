"""The fast trainer: the same steps as :mod:`.textbook`, with pair counts kept up to date.

:func:`incremental_steps` yields exactly what :func:`~.textbook.textbook_steps`
yields (tests check it under hypothesis, for every pattern and tie rule).  It
gets there faster by never recounting: a merge changes only the pairs next to
where the merged pair occurs, so only those counts are updated.

The corpus is pre-tokenized once into distinct chunks with counts.  Their
bytes are laid end to end, one slot per byte and a separator slot between
chunks, in one flat list: a merged token keeps its first slot and its other
slots read -1, so the token after one is found from its length, and its last
slot says how far back it starts (the way to the token before).  For every
adjacent pair we keep its weighted count, the positions where it was seen to
start (in corpus order, in an ``array('I')``; an entry may be stale, so each is
checked when the pair is merged), and a lazy max-heap of ``(-count, tie key,
pair)``.  No object is made per position: a 10 MB text takes about 20 bytes a
byte, not the 78 of a linked list of int objects.

A merge visits only the positions of the merged pair, left to right (so
overlapping runs like ``aaaa`` merge as the textbook does): it rewrites the
slots at each occurrence and reads both neighbours there, then updates the
neighbouring pairs, grouped by neighbour token.  So a step costs in proportion to how often the pair
occurs, not to the corpus size, and this holds for ``pattern="none"`` too,
where the whole text is one long chunk.  Stale heap entries (pairs whose
count fell) are fixed when they surface; pairs too rare to win soon (most of
them) wait off the heap (see ``PairIndex._pop_valid``).  With step records on, the pair
table's rows and every pair tied with the best are kept out of the heap between steps, and only the
pairs a merge changed are looked at again (see ``PairIndex._top_rows``): late in a long run ten
thousand pairs may tie, and a step reads the few it needs.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left, insort
from collections import defaultdict, deque
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from functools import partial
from heapq import heapify, heappop, heappush
from itertools import accumulate, chain, repeat
from operator import lshift, or_

from .corpus import Corpus
from .id_bits import ID_BITS, ID_MASK
from .options import TrainOptions
from .overrides import pair_not_found, stopping
from .preview import Preview
from .records import (
    STOP_MIN_FREQUENCY,
    STOP_ONLY_BLOCKED,
    STOP_VOCAB_SIZE,
    MergeStep,
    PairCount,
    no_pairs_reason,
    ties_kept,
)
from .state import RunState
from .tie_rules import SortKey, TieRule

_EDGE = -2  # the token after the last position, so tok[-1] says "no neighbour"
_BLOCK = 1 << 20  # slots filed at a time when the index is built
_LEVELS = 64  # waiting pairs are filed by their count's bit length: counts below 2**63

Pair = tuple[int, int]
_Entry = tuple[int, SortKey, int]  # a heap entry: (-count, the tie rule's key, the packed pair)
# What PairIndex.choose finds: the pair, its count, the first pairs tied with it (winner first), how
# many tied, the pair table's rows.
Choice = tuple[Pair, int, Sequence[Pair], int, Sequence[tuple[Pair, int]]]


_positions: Callable[[], array[int]] = partial(array, "I")
"""An empty list of positions: 4 bytes each, nothing for the garbage collector to walk, made in C."""


def _byte_pair_codes(data: bytes) -> array[int]:
    """``x | y << 8`` for each adjacent pair of bytes ``x, y``, made in C: the bytes and the
    bytes after them interleaved, read as little-endian 16-bit numbers.

    >>> _byte_pair_codes(b"abc").tolist() == [ord("a") | ord("b") << 8, ord("b") | ord("c") << 8]
    True
    """
    pairs = bytearray(2 * max(len(data) - 1, 0))
    pairs[0::2] = data[:-1]
    pairs[1::2] = data[1:]
    codes = array("H", pairs)
    if sys.byteorder != "little":
        codes.byteswap()
    return codes


class PairIndex:
    """Every adjacent pair of a corpus: its count, where it occurs, and a heap to find the best.

    ``choose`` finds the winning pair (and the pair table), ``merge`` applies it.
    ``records`` off (plain training) skips the table and the ties.
    """

    def __init__(
        self,
        chunk_counts: Mapping[str, int],
        rule: TieRule,
        *,
        top_k: int,
        records: bool,
        block: Iterable[tuple[int, int]] = (),
        start: list[list[int]] | None = None,
    ) -> None:
        """The index of ``chunk_counts``' pairs, from their bytes or, given ``start``, from each
        chunk's ids there (a branch); pairs in ``block`` are counted but never chosen.

        Built in four phases: lay the chunks out (:meth:`_lay_out`), weigh the slots
        (:meth:`_weigh`), file each position under its pair (:meth:`_file_positions`) and count
        them, then fill the heap (:meth:`_fill_heap`).
        """
        self.rule, self.top_k, self.records = rule, top_k, records
        # Everything here runs once per position, so it is built with whole-list
        # operations in C.
        weights = list(chunk_counts.values())
        source, lengths = self._lay_out(chunk_counts, start)
        self._weigh(weights, lengths)
        self._where = where = self._file_positions(source)
        del source
        if self._unit:
            counts = {k: len(v) for k, v in where.items()}
        else:
            getw = self._wt.__getitem__
            counts = {k: sum(map(getw, v)) for k, v in where.items()}
        self._counts = counts
        self._blocked = frozenset((a << ID_BITS) | b for a, b in block)
        self._fill_heap()
        self._top: list[_Entry] = []  # the pair table's entries, kept out of the heap (see _top_rows)
        self._kept: dict[int, _Entry] = {}  # pair -> its entry in _top
        self._track = records or not rule.static  # _top_rows is used: note the pairs a merge changes
        self._touched: list[int] = []  # pairs whose count changed since the last _top_rows

    def _lay_out(
        self, chunk_counts: Mapping[str, int], start: list[list[int]] | None
    ) -> tuple[bytes | list[int], list[int]]:
        """Phase 1: lay the chunks end to end, and return what the slots hold (the bytes, or a branch's
        ids, each with the separators) and each chunk's length in slots.

        There is one separator slot before, between and after the chunks; slot s is two entries of one
        list, so that what a merge reads and writes near a position shares a few cache lines (a list of
        shared small ints, 16 bytes a slot: read faster than an array, which makes an int at each read):
        ``_m[2 * s]`` the token there (-1 inside a longer token, _EDGE at a separator) and
        ``_m[2 * s + 1]`` how far before ``2 * s + 2`` the token covering slot s starts.  A position is
        ``2 * s``.  Token t at ``i`` is followed by the token at ``i + _step[t]``; the token before
        ``i`` starts at ``i - _m[i - 1]``.
        """
        source: bytes | list[int]
        if start is None:
            encoded = [chunk.encode("utf-8") for chunk in chunk_counts]
            lengths = list(map(len, encoded))
            source = data = b"\0".join([b"", *encoded, b""])
            m = [2] * (2 * len(data))
            m[0::2] = data
            self._step = [2] * 256
        else:
            lengths = list(map(len, start))
            tok = [_EDGE]
            for ids in start:
                tok += ids
                tok.append(_EDGE)
            source = tok
            m = [2] * (2 * len(tok))
            m[0::2] = tok
            self._step = [2] * (max(tok) + 1)
        # Separator slots: 0, and one after each chunk; chunk c spans [_starts[c], _ends[c]).
        self._ends = ends = [e + c + 1 for c, e in enumerate(accumulate(lengths))]
        self._starts = [e - length for e, length in zip(ends, lengths)]
        for e in chain((0,), ends):
            m[2 * e] = _EDGE
        self._m = m
        return source, lengths

    def _weigh(self, weights: list[int], lengths: list[int]) -> None:
        """Phase 2: each slot's weight, the count of its chunk (``_wt``, by position); none in the unit
        case (``_unit``: one long chunk with pattern none, or chunks that occur once)."""
        self._unit = all(w == 1 for w in weights)
        self._wt: list[int] = (
            []
            if self._unit
            else [0, 0, *chain.from_iterable(map(repeat, weights, [2 * m + 2 for m in lengths]))]
        )

    def _file_positions(self, source: bytes | list[int]) -> dict[int, array[int]]:
        """Phase 3: every position filed under its pair's key, the pairs with a separator left out.

        A block of slots at a time (the branch's keys of a block are made as ints; all at once they
        would take 30 bytes a slot).
        """
        m, n = self._m, len(source)
        filed: defaultdict[int, array[int]] = defaultdict(_positions)
        for s in range(0, n - 1, _BLOCK):
            e = min(s + _BLOCK, n - 1)  # the pairs at slots s .. e - 1
            if isinstance(source, bytes):
                keys: Iterable[int] = _byte_pair_codes(source[s : e + 1])
            else:
                keys = map(or_, map(lshift, source[s:e], repeat(ID_BITS)), source[s + 1 : e + 1])
            deque(map(array.append, map(filed.__getitem__, keys), range(2 * s, 2 * e, 2)), maxlen=0)
        if isinstance(source, bytes):
            # Byte codes x | y << 8; the separator is a 0 byte, so the positions filed under a
            # code with a 0 byte may be next to one, and those are taken out.
            for c in [c for c in filed if not c & 255 or not c >> 8]:
                arr = filed[c]
                filed[c] = arr = array("I", [p for p in arr if m[p] != _EDGE and m[p + 2] != _EDGE])
                if not arr:
                    del filed[c]
            return {((c & 255) << ID_BITS) | (c >> 8): v for c, v in filed.items()}
        # A pair with a separator (-2) has a negative key.
        return {k: v for k, v in filed.items() if k >= 0}

    def _fill_heap(self) -> None:
        """Phase 4: the heap holds the pairs (not blocked) with at least half the best count; the rest,
        most of them, wait in ``_low`` without a sort key, as new pairs below ``_floor`` do (see
        :meth:`_pop_valid`)."""
        counts = self._counts
        pairs = [k for k in counts if k not in self._blocked] if self._blocked else list(counts)
        self._floor = floor = max(map(counts.__getitem__, pairs), default=0) // 2
        self._low: list[list[int]] = [[] for _ in range(_LEVELS)]  # by count.bit_length()
        for k in pairs:
            c = counts[k]
            if c < floor:
                self._low[c.bit_length()].append(k)
        pairs = [k for k in pairs if counts[k] >= floor]
        self._heap: list[_Entry] = list(zip([-counts[k] for k in pairs], self.rule.packed_keys(pairs), pairs))
        heapify(self._heap)

    def chunk_ids(self) -> list[list[int]]:
        """Each chunk's token ids now, in the corpus's order."""
        m, live = self._m, (-1).__ne__
        return [list(filter(live, m[2 * s : 2 * e : 2])) for s, e in zip(self._starts, self._ends)]

    def counts(self) -> dict[tuple[int, int], int]:
        """Every pair that occurs now and is not blocked, with its count (for messages: unpacks them all)."""
        return {(k >> ID_BITS, k & ID_MASK): c for k, c in self._counts.items() if k not in self._blocked}

    def count(self, pair: tuple[int, int]) -> int:
        """How often ``pair`` occurs now (0 if not at all)."""
        return self._counts.get((pair[0] << ID_BITS) | pair[1], 0)

    @property
    def only_blocked_left(self) -> bool:
        """True when pairs still occur but every one is blocked."""
        return bool(self._counts) and all(k in self._blocked for k in self._counts)

    @property
    def distinct(self) -> int:
        """How many distinct pairs occur, blocked ones left out."""
        blocked = self._blocked
        return len(self._counts) - (sum(k in self._counts for k in blocked) if blocked else 0)

    def _first_pos(self, k: int) -> int:
        """Where pair ``k`` first occurs now (its position list may hold stale entries)."""
        a, b, m = k >> ID_BITS, k & ID_MASK, self._m
        la = self._step[a]
        return min(i for i in self._where[k] if m[i] == a and m[i + la] == b)

    def _pop_valid(self) -> _Entry | None:
        """Pop the top heap entry whose count is current (fixing stale ones); None if empty.

        A pair's count never grows after it is made (a new pair holds the newest
        id, so no later merge makes more of it), and most new pairs are rare and
        never win.  So new pairs counted below ``_floor`` wait in ``_low`` without
        a heap entry or sort key; they join the heap only when its best count
        falls below the floor, which then halves.  Every waiting pair counts less
        than the floor, so it cannot beat or tie an entry popped above it.
        """
        heap, counts = self._heap, self._counts
        while True:
            if (not heap or -heap[0][0] < self._floor) and any(self._low):
                self._flush_low()
            if not heap:
                return None
            negc, key, k = heappop(heap)
            c = counts.get(k, 0)
            if c == -negc:
                return negc, key, k
            if c > 0:
                heappush(heap, (-c, key, k))

    def _flush_low(self) -> None:
        """Halve the floor below the heap's best and move the waiting pairs at or above it onto the heap.

        The waiting pairs are filed by the bit length of their count when they were
        filed; a count only falls, so a pair that counts ``least`` or more now is in
        a level at or above ``least.bit_length()``, and only those levels are read.
        (Most waiting pairs count 1 or 2 and are never read again.)  A pair read
        there that fell below ``least`` is filed again under its count now.
        """
        counts, heap, low = self._counts, self._heap, self._low
        self._floor = floor = -heap[0][0] // 2 if heap else 0
        get, least = counts.get, max(floor, 1)  # a count of 0 is a pair that is gone
        up: list[int] = []
        for level in range(least.bit_length(), _LEVELS):
            waiting = low[level]
            if not waiting:
                continue
            low[level] = []
            for k in waiting:
                c = get(k, 0)
                if c >= least:
                    up.append(k)
                elif c:
                    low[c.bit_length()].append(k)
        for entry in zip([-counts[k] for k in up], self.rule.packed_keys(up), up):
            heappush(heap, entry)

    def choose(self) -> Choice | None:
        """``((a, b), count, ties, table)`` for the winning pair, or None when no pair is left.

        ``ties`` lists the pairs with the winning count, winner first; ``table``
        the top ``top_k`` ``((a, b), count)`` rows, winner first (both empty when
        ``records`` is off and the rule does not need them).
        """
        heap = self._heap
        if not self.records and self.rule.static:
            top = self._pop_valid()
            if top is None:
                return None
            heappush(heap, top)
            k = top[2]
            return (k >> ID_BITS, k & ID_MASK), -top[0], (), 0, ()
        rows = self._top_rows()  # first-seen's rows hold their first occurrence as their key
        if not rows:
            return None
        pairs = [((k >> ID_BITS, k & ID_MASK), -negc) for negc, _, k in rows[: ties_kept(self.top_k)]]
        winner, count = pairs[0]
        tied = bisect_left(rows, (rows[0][0] + 1,))  # the rows of the best count lead: (-count, ...)
        return winner, count, [p for p, _ in pairs[:tied]], tied, pairs[: self.top_k] if self.records else ()

    def _top_rows(self) -> list[_Entry]:
        """The heap's best entries, in order: the top ``top_k``, every pair tied
        with the best and, for first-seen, every pair tied with row ``top_k``.

        They are kept out of the heap between steps (in ``self._top``) rather than
        popped and pushed back each time: from one step to the next most of the
        table stays, since only pairs next to the merged one change count, and only
        those (``self._touched``, noted by :meth:`merge`) are looked at again, however
        many pairs tie.  For first-seen a kept entry's key is where the pair first
        occurs (it moves only when an occurrence goes, which changes the count);
        in the heap it is 0.  Invariant: every heap entry sorts after every kept one.
        """
        heap, counts, top_k, static = self._heap, self._counts, self.top_k, self.rule.static
        kept, kept_at = self._top, self._kept
        for k in self._touched:  # drop pairs whose count fell (the merged pair, its neighbours)
            entry = kept_at.pop(k, None)
            if entry is None:
                continue
            del kept[bisect_left(kept, entry)]
            c = counts.get(k, 0)
            if c > 0:
                heappush(heap, (-c, entry[1] if static else 0, k))
        self._touched.clear()
        while True:  # pull in heap entries that sort before the last kept one or are needed
            top = self._pop_valid()
            if top is None:
                break
            n = len(kept)
            if (
                n
                and n >= top_k
                and top >= kept[-1]
                and top[0] != kept[0][0]
                and (static or top_k == 0 or top[0] != kept[top_k - 1][0])
            ):
                heappush(heap, top)
                break
            if not static:
                top = (top[0], self.rule.key(0, 0, self._first_pos(top[2])), top[2])
            insort(kept, top)
            kept_at[top[2]] = top
        # Keep only what is needed (the rows of the best count, and for first-seen of row top_k's,
        # lead the list: entries sort by -count first); the rest goes back to the heap.
        need = min(top_k, len(kept)) or min(1, len(kept))
        if need:
            need = max(need, bisect_left(kept, (kept[0][0] + 1,)))
            if not static and top_k and len(kept) > top_k:
                need = max(need, bisect_left(kept, (kept[top_k - 1][0] + 1,)))
        for entry in kept[need:]:
            heappush(heap, entry if static else (entry[0], 0, entry[2]))
            del kept_at[entry[2]]
        del kept[need:]
        return kept

    def merge(self, a: int, b: int, new_id: int) -> int:
        """Merge every ``(a, b)`` in the corpus under ``new_id``; the number replaced (weighted)."""
        m, step = self._m, self._step
        counts, where = self._counts, self._where
        merged = (a << ID_BITS) | b
        positions = where.pop(merged)
        if a == b:  # overlapping runs (aaa) merge left to right; the lists are kept in order, but make sure
            positions = array("I", sorted(positions))
        del counts[merged]
        la = step[a]
        lab = la + step[b]
        if new_id >= len(step):
            step.extend(repeat(2, new_id + 1 - len(step)))
        step[new_id] = lab
        back = lab - 1  # from the new token's start to its last slot's way back
        # Pass 1: merge at each occurrence, left to right (the position lists are in
        # corpus order, so overlapping runs like aaa merge as the textbook does), and read
        # the neighbours while their memory is at hand: the token before (x, starting at
        # p) and the one after (y).  This loop runs once per merged occurrence and
        # dominates training time, so it does nothing else.
        done: list[int] = []
        before: list[int] = []
        xs: list[int] = []
        ys: list[int] = []
        add_i, add_p, add_x, add_y = done.append, before.append, xs.append, ys.append
        for i in positions:
            if m[i] != a:
                continue  # stale entry, or consumed by an earlier overlapping occurrence
            j = i + la
            if m[j] != b:  # a separator reads _EDGE
                continue
            m[i] = new_id
            m[j] = -1
            m[i + back] = lab  # the last slot's way back to the start
            p = i - m[i - 1]
            x = m[p]
            if x == new_id:  # the occurrence just before: its right neighbour is this new token
                ys[-1] = new_id
            add_i(i)
            add_p(p)
            add_x(x)
            add_y(m[i + lab])
        if self._track:
            self._touched.append(merged)
        if not done:
            return 0
        # Pass 2: the neighbours' pairs, grouped by neighbour token (a separator reads
        # _EDGE).  Left of an occurrence, (x, a) became (x, new); right of it, (b, y)
        # became (new, y).  Two adjacent occurrences meet as (new, new), which stood for
        # (b, a): it is counted once, from the left.
        lefts: defaultdict[int, array[int]] = defaultdict(_positions)  # x -> positions p of (x, a)
        deque(map(array.append, map(lefts.__getitem__, xs), before), maxlen=0)
        rights: defaultdict[int, array[int]] = defaultdict(_positions)  # y -> positions i of (b, y)
        deque(map(array.append, map(rights.__getitem__, ys), done), maxlen=0)
        lefts.pop(_EDGE, None)  # no neighbour
        rights.pop(_EDGE, None)
        rights.pop(new_id, None)  # (new, new): counted from the left
        # (old pair, new pair, positions) for each neighbour group.
        changes = [
            ((b << ID_BITS) | a if x == new_id else (x << ID_BITS) | a, (x << ID_BITS) | new_id, group)
            for x, group in lefts.items()
        ]
        changes += [((b << ID_BITS) | y, (new_id << ID_BITS) | y, group) for y, group in rights.items()]
        if self._track:
            self._touched += [old for old, _, _ in changes]
        getw = self._wt.__getitem__
        fresh: list[int] = []  # new pairs for the heap, and their negated counts
        negw: list[int] = []
        low, floor, blocked = self._low, self._floor, self._blocked
        unit = self._unit
        for old, k, group in changes:
            w = len(group) if unit else sum(map(getw, group))
            if old != merged:
                c = counts[old] - w
                if c:
                    counts[old] = c
                else:
                    del counts[old]
                    del where[old]
            counts[k] = w
            where[k] = group
            if blocked and k in blocked:
                continue  # counted (its neighbours' merges update it) but never a candidate
            if w < floor:
                low[w.bit_length()].append(k)
            else:
                fresh.append(k)
                negw.append(-w)
        heap = self._heap
        for entry in zip(negw, self.rule.packed_keys(fresh), fresh):
            heappush(heap, entry)
        return len(done) if unit else sum(map(getw, done))


def incremental_steps(
    corpus: Corpus,
    options: TrainOptions,
    preview: Preview,
    *,
    records: bool = True,
    state: RunState | None = None,
) -> Generator[MergeStep, None, str]:
    """Yield one :class:`MergeStep` per merge, as :func:`~.textbook.textbook_steps` does; return why it
    stopped.

    With ``records`` off (plain training), steps carry no pair table, ties or sequence.
    ``state`` is where to start (default: the corpus's bytes); its ``read`` is set
    to give each chunk's ids as training goes.
    """
    if state is None:
        state = RunState(None, options.initial_vocab(), corpus.initial_tokens)
    vocab = dict(state.vocab)
    rule = TieRule(options.tie_break, [vocab[i] for i in range(options.base_vocab)])
    for i in range(options.base_vocab, len(vocab)):
        rule.add_token(vocab[i])
    index = PairIndex(
        corpus.chunk_counts,
        rule,
        top_k=options.top_k,
        records=records,
        block=options.block,
        start=state.chunks,
    )
    state.read = index.chunk_ids
    rows = _TableRows(vocab)
    tokens = state.tokens
    while len(vocab) < options.vocab_size:
        step = len(vocab) - options.base_vocab + 1
        chosen = index.choose()  # the rule's choice among the pairs not blocked
        if chosen is None:
            return stopping(
                options,
                step - 1,
                STOP_ONLY_BLOCKED
                if index.only_blocked_left
                else no_pairs_reason(corpus.chunk_counts, corpus.special_counts),
            )
        rule_pair, count, ties, tied, table = chosen
        distinct = index.distinct if records else 0  # before the merge changes the counts
        if count < options.min_frequency:
            return stopping(options, step - 1, STOP_MIN_FREQUENCY)
        forced = options.forced_pair(step)
        pair = forced or rule_pair
        if forced is not None:
            count = index.count(forced)
            if not count:
                raise pair_not_found(step, forced, index.counts(), vocab)
        left, right = vocab[pair[0]], vocab[pair[1]]
        new_id = len(vocab)
        rule.add_token(left + right)  # before the merge: new pairs need the new token's key
        replaced = index.merge(pair[0], pair[1], new_id)
        vocab[new_id] = left + right
        yield MergeStep(
            index=step,
            pair=pair,
            left=left,
            right=right,
            new_id=new_id,
            token=left + right,
            count=count,
            replaced=replaced,
            top_pairs=rows.of(table) if records else (),
            ties=tuple(ties[: ties_kept(options.top_k)]) if records else (),
            tie_break=options.tie_break,
            tokens_before=tokens,
            tokens_after=tokens - replaced,
            sequence=preview.merge(pair, new_id) if records else (),
            forced=forced is not None,
            rule_pair=rule_pair,
            distinct_pairs=distinct,
            tie_count=tied if records else 0,
        )
        tokens -= replaced
    return STOP_VOCAB_SIZE


class _TableRows:
    """The pair table as records.  From one step to the next most rows stay the same,
    so a row whose pair and count did not change reuses last step's record."""

    def __init__(self, vocab: Mapping[int, bytes]) -> None:
        self._vocab = vocab
        self._last: dict[tuple[tuple[int, int], int], PairCount] = {}

    def of(self, table: Sequence[tuple[tuple[int, int], int]]) -> tuple[PairCount, ...]:
        last, vocab = self._last, self._vocab
        rows: dict[tuple[tuple[int, int], int], PairCount] = {}
        for pair, count in table:
            row = last.get((pair, count))
            rows[pair, count] = (
                row if row is not None else PairCount(pair, vocab[pair[0]], vocab[pair[1]], count)
            )
        self._last = rows
        return tuple(rows.values())
