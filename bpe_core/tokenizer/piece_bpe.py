"""BPE over code points with byte fallback: SentencePiece's BPE (Llama-2, Mistral, Gemma), ``piece-bpe``.

Byte-level BPE (:mod:`.bpe`) starts from the text's bytes.  SentencePiece's BPE starts from its
*characters* (after SentencePiece's normalization, spaces as ``▁``), merges them by the pieces' scores,
and only a character no piece covers falls back to bytes, one ``<0xNN>`` piece per UTF-8 byte
(``byte_fallback``); without it, a run of such characters is one ``<unk>``.

The merge rule, as a lesson states it (:func:`merge_textbook`): among the adjacent pairs whose join is a
piece, join the one with the best priority (for SentencePiece the highest score, for HF's BPE model the
lowest merge rank), the leftmost of equals, until no pair joins.  :func:`merge_fast` gives the same
symbols with a heap and a linked list, as ``sentencepiece`` and HF's ``tokenizers`` do (a hypothesis test
compares them).  Both take the pair's priority from a function, so the same two functions serve
SentencePiece's scores and HF's ranks (:mod:`bpe_core.pipeline.models`).

Everything else (the pieces and their kinds, the normalizer, decoding, offsets, what a round trip loses)
is SentencePiece's, shared with the Unigram model (:class:`~.unigram.UnigramTokenizer`): only the cut differs.

>>> pieces = [("<unk>", 0.0), ("▁", -1.0), ("l", -1.0), ("o", -1.0), ("w", -1.0), ("lo", -2.0),
...           ("low", -3.0), ("▁low", -4.0)]
>>> tok = PieceBpeTokenizer(pieces)
>>> tok.encode_pieces("low lo")
['▁low', '▁', 'lo']
>>> tok.decode(tok.encode("low lo"))
'low lo'
>>> tok.encode_pieces("lox")  # x is no piece: <unk> (without byte fallback)
['▁', 'lo', 'x']
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import TypeVar

from .unigram import UNK_SURFACE, UnigramTokenizer
from .unigram_lattice import Lattice
from .unigram_normalizer import Normalized, SentencePieceNormalizer

S = TypeVar("S")

# (left, right) -> (priority, joined) when the pair joins; the smallest priority joins first
PairRule = Callable[[S, S], "tuple[float, S] | None"]


def merge_textbook(
    symbols: Sequence[S], rule: PairRule[S], frozen: Sequence[bool] = ()
) -> list[tuple[S, int]]:
    """Join adjacent symbols by ``rule`` until none joins; each result with how many symbols it covers.

    At each step: every adjacent pair that ``rule`` joins, the smallest priority first, the leftmost of
    equals.  A ``frozen`` symbol (SentencePiece's user-defined pieces) joins nothing.

    >>> rules = {("a", "b"): (0, "ab"), ("b", "c"): (1, "bc"), ("ab", "c"): (2, "abc")}
    >>> rule = lambda a, b: rules.get((a, b))
    >>> merge_textbook(["a", "b", "c", "b", "c"], rule)
    [('abc', 3), ('bc', 2)]
    """
    out: list[tuple[S, int]] = [(s, 1) for s in symbols]
    fixed = list(frozen) if frozen else [False] * len(out)
    while True:
        best: tuple[float, int, S] | None = None
        for i in range(len(out) - 1):
            if fixed[i] or fixed[i + 1]:
                continue
            hit = rule(out[i][0], out[i + 1][0])
            if hit is not None and (best is None or hit[0] < best[0]):
                best = (hit[0], i, hit[1])
        if best is None:
            return out
        _, i, joined = best
        out[i : i + 2] = [(joined, out[i][1] + out[i + 1][1])]
        fixed[i : i + 2] = [False]


def merge_fast(symbols: Sequence[S], rule: PairRule[S], frozen: Sequence[bool] = ()) -> list[tuple[S, int]]:
    """What :func:`merge_textbook` gives, with a heap of candidate pairs and a linked list of symbols.

    An entry of the heap goes stale when either of its symbols changed since it was pushed; it is
    skipped when popped (each symbol carries a version).

    >>> rules = {("a", "b"): (0, "ab"), ("b", "c"): (1, "bc"), ("ab", "c"): (2, "abc")}
    >>> rule = lambda a, b: rules.get((a, b))
    >>> merge_fast(["a", "b", "c", "b", "c"], rule)
    [('abc', 3), ('bc', 2)]
    """
    n = len(symbols)
    value: list[S] = list(symbols)
    size = [1] * n
    nxt = list(range(1, n + 1))
    prev = list(range(-1, n - 1))
    alive = [True] * n
    version = [0] * n
    fixed = list(frozen) if frozen else [False] * n
    heap: list[tuple[float, int, int, int]] = []  # (priority, left, left's version, right's version)

    def push(left: int) -> None:
        right = nxt[left] if left >= 0 else n
        if left < 0 or right >= n or fixed[left] or fixed[right]:
            return
        hit = rule(value[left], value[right])
        if hit is not None:
            heapq.heappush(heap, (hit[0], left, version[left], version[right]))

    for i in range(n - 1):
        push(i)
    while heap:
        _, left, v_left, v_right = heapq.heappop(heap)
        right = nxt[left]
        if not alive[left] or version[left] != v_left or right >= n or version[right] != v_right:
            continue
        hit = rule(value[left], value[right])
        if hit is None:  # never: a symbol's value changes only with its version
            continue
        value[left] = hit[1]
        size[left] += size[right]
        version[left] += 1
        alive[right] = False
        nxt[left] = nxt[right]
        if nxt[left] < n:
            prev[nxt[left]] = left
        push(prev[left])
        push(left)
    return [(value[i], size[i]) for i in range(n) if alive[i]]


class PieceBpeTokenizer(UnigramTokenizer):
    """SentencePiece's BPE model (``model_type: BPE``): pieces with scores, text joined by them.

    The pieces, ``kinds``, ``normalizer``, ``byte_fallback`` and ``unk_surface`` mean what they mean for
    :class:`~.unigram.UnigramTokenizer`.  Encoding: normalize, cut into characters (a user-defined piece
    is one symbol and joins nothing), join pairs whose join is a ``normal``, ``user_defined`` or ``unused``
    piece by the highest score (:func:`merge_fast`; ``textbook=True``: :func:`merge_textbook`), split an
    ``unused`` result back into the two it was joined from, and give a character no piece covers as bytes
    (``byte_fallback``) or ``<unk>``.
    """

    scheme = "piece-bpe"

    def __init__(
        self,
        pieces: Sequence[tuple[str, float]],
        *,
        unk_id: int = 0,
        kinds: Sequence[str] | None = None,
        normalizer: SentencePieceNormalizer | None = None,
        byte_fallback: bool = False,
        unk_surface: str = UNK_SURFACE,
        textbook: bool = False,
    ) -> None:
        super().__init__(
            pieces,
            unk_id=unk_id,
            kinds=kinds,
            normalizer=normalizer,
            byte_fallback=byte_fallback,
            float32=True,
            unk_surface=unk_surface,
        )
        # piece -> (priority, id): a higher score joins first; SentencePiece's `pieces_`
        self._joins: dict[str, tuple[float, int]] = {
            p: (-s, i)
            for i, (p, s, k) in enumerate(zip(self.pieces, self.scores, self.kinds))
            if k in ("normal", "user_defined", "unused")
        }
        self._merge = merge_textbook if textbook else merge_fast
        self._symbols = sorted(
            (p for p, k in zip(self.pieces, self.kinds) if k == "user_defined"), key=len, reverse=True
        )
        self._bpe_cache: dict[str, list[tuple[int, int, int]]] = {}

    def lattice(self, word: str) -> Lattice:
        raise ValueError("a BPE model has no lattice; its steps are merges by score")

    def _rule(
        self, a: tuple[str, int, int], b: tuple[str, int, int]
    ) -> tuple[float, tuple[str, int, int]] | None:
        joined = a[0] + b[0]
        hit = self._joins.get(joined)
        return None if hit is None else (hit[0], (joined, a[1], b[2]))

    def _cut(self, s: str) -> list[tuple[int, int, int]]:
        """(id, start, end) over ``s`` (normalized): characters joined by score, ``unused`` ones split
        back, a character no piece covers as ``unk_id``."""
        symbols: list[tuple[str, int, int]] = []
        frozen: list[bool] = []
        i = 0
        while i < len(s):
            hit = next((u for u in self._symbols if s.startswith(u, i)), None) if self._symbols else None
            end = i + (len(hit) if hit else 1)
            symbols.append((s[i:end], i, end))
            frozen.append(hit is not None)
            i = end
        merged = self._merge(symbols, self._rule, frozen)
        out: list[tuple[int, int, int]] = []
        for (piece, start, end), _ in merged:
            self._resegment(piece, start, end, out)
        return out

    def _resegment(self, piece: str, start: int, end: int, out: list[tuple[int, int, int]]) -> None:
        i = self._id.get(piece)
        if i is None or self.kinds[i] in ("control", "unknown", "byte"):
            out.append((self.unk_id, start, end))
            return
        if self.kinds[i] != "unused" or end - start < 2:
            out.append((i, start, end))
            return
        # the two pieces it was joined from: the split whose halves both join, the best-scored last join
        best: tuple[float, int] | None = None
        for k in range(1, end - start):
            left, right = piece[:k], piece[k:]
            if left in self._joins and right in self._joins:
                rank = max(self._joins[left][0], self._joins[right][0])
                if best is None or rank < best[0]:
                    best = (rank, k)
        if best is None:
            out.append((i, start, end))
            return
        k = best[1]
        self._resegment(piece[:k], start, start + k, out)
        self._resegment(piece[k:], start + k, end, out)

    def _tokens(self, text: str) -> tuple[list[tuple[int, int, int]], Normalized]:
        if not isinstance(text, str):
            raise ValueError(f"the text to encode must be a string, not {type(text).__name__}")
        norm = self.normalizer.normalize(text)
        cut = self._bpe_cache.get(norm.text)
        if cut is None:
            cut = self._cut(norm.text)
            if len(norm.text) <= 256:
                if len(self._bpe_cache) > 20_000:
                    self._bpe_cache.clear()
                self._bpe_cache[norm.text] = cut
        out: list[tuple[int, int, int]] = []
        for t, i, j in cut:
            if t == self.unk_id:
                if self.byte_fallback:
                    out.extend((self._bytes[b], i, j) for b in norm.text[i:j].encode("utf-8"))
                    continue
                if out and out[-1][0] == self.unk_id:
                    out[-1] = (t, out[-1][1], j)
                    continue
            out.append((t, i, j))
        return out, norm
