"""Unigram's E step and Viterbi over every word's lattice at once, with numpy (the ``[fast]`` extra).

The textbook (:func:`~.unigram.expected_counts`, :func:`~.unigram_loss.corpus_cuts`) walks each word's
edges in Python.  Here all the words' edges sit in one table (:class:`EdgeTable`: word, start, end,
piece id, by word then start then end) and each place of the lattice is one step for all the words at
once: place ``k`` of every word gets its forward sum from the edges that end there, its backward sum
from the edges that start there.  The sums are taken in the textbook's order, one term after another
(``numpy.bincount`` adds its weights in order), with the same products, so the expected counts, the
objective and the best cuts are equal to the textbook's to the bit (a hypothesis test checks it).
Words whose lattice could underflow go through the textbook's log-space code, word by word, in place.

>>> import math
>>> scores = {"a": math.log(0.2), "b": math.log(0.3), "ab": math.log(0.5)}
>>> table = EdgeTable.build({"ab": 2, "ba": 1}, scores, 2)
>>> counts, objective = table.expected_counts(scores)
>>> [round(counts[p], 4) for p in ("a", "b", "ab")], round(objective, 4)
([1.2143, 1.2143, 1.7857], 3.973)
>>> loss, tokens, cuts = table.corpus_cuts(scores)
>>> cuts["ab"][1], cuts["ba"][1], tokens
(('ab',), ('b', 'a'), 4)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .unigram_loss import UNDERFLOW, Cut, Edges, word_posteriors

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class _Levels:
    """The edges grouped by a place of their words: for each place ``k`` (1..longest word) the edges
    there in table order, their group (one per word) and each group's flat place."""

    edges: list[Ints]
    groups: list[Ints]
    places: list[Ints]


class EdgeTable:
    """Every word's edges in one table: ``word``, ``start``, ``end``, ``piece`` (ids into ``names``).

    Words keep their order (``words``, ``freqs``, ``lengths``); ``offset[w]`` is where word ``w``'s
    places ``0..n`` begin in a flat array of all words' places; ``first[w]:first[w + 1]`` are its edges.
    """

    def __init__(
        self,
        words: list[str],
        freqs: list[int],
        names: list[str],
        word: Ints,
        start: Ints,
        end: Ints,
        piece: Ints,
    ) -> None:
        self.words, self.names = words, names
        self.ids = {p: k for k, p in enumerate(names)}
        self.freqs = np.array(freqs, dtype=np.float64)
        self.lengths = np.array([len(w) for w in words], dtype=np.int64)
        self.offset = np.concatenate(([0], np.cumsum(self.lengths + 1)[:-1])).astype(np.int64)
        self.places = int(self.lengths.sum() + len(words))
        self._forward_order: Ints = np.zeros(0, dtype=np.int64)
        self._backward_order: Ints = np.zeros(0, dtype=np.int64)
        self._set(word, start, end, piece)

    @classmethod
    def build(cls, words: Mapping[str, int], scores: Mapping[str, float], longest: int) -> EdgeTable:
        """The table of ``words`` under ``scores``: each word's edges as :func:`~.unigram_loss.word_edges`
        finds them (by start, then end), made straight into the table."""
        names = list(scores)
        ids = {p: k for k, p in enumerate(names)}.get
        word, start, end, piece = [], [], [], []
        for w, text in enumerate(words):
            n = len(text)
            for i in range(n):
                for j in range(i + 1, min(n, i + longest) + 1):
                    k = ids(text[i:j])
                    if k is not None:
                        word.append(w)
                        start.append(i)
                        end.append(j)
                        piece.append(k)
        arrays = [np.array(x, dtype=np.int64) for x in (word, start, end, piece)]
        return cls(list(words), list(words.values()), names, *arrays)

    @classmethod
    def from_edges(cls, words: Mapping[str, int], edges: Mapping[str, Edges], names: list[str]) -> EdgeTable:
        """The table of edge lists already made (each word's, by start then end); ``names``: the pieces."""
        ids = {p: k for k, p in enumerate(names)}
        order = list(words)
        flat = [(w, i, j, ids[p]) for w, word in enumerate(order) for i, j, p in edges[word]]
        arr = np.array(flat, dtype=np.int64).reshape(-1, 4)
        return cls(order, list(words.values()), names, arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3])

    def _set(
        self, word: Ints, start: Ints, end: Ints, piece: Ints, keep: npt.NDArray[np.bool_] | None = None
    ) -> None:
        """The edges now; ``keep``: which edges before are left (their orders kept, not sorted again)."""
        if keep is None:
            forward, backward = np.lexsort((start, word, end)), np.lexsort((-end, word, start))
        else:
            renumber = np.cumsum(keep) - 1
            forward = renumber[self._forward_order[keep[self._forward_order]]]
            backward = renumber[self._backward_order[keep[self._backward_order]]]
        self.word, self.start, self.end, self.piece = word, start, end, piece
        self.first = np.searchsorted(word, np.arange(len(self.words) + 1)).astype(np.int64)
        self._forward_order, self._backward_order = forward, backward
        self._forward = self._levels(end, forward)
        self._backward = self._levels(start, backward)

    def _levels(self, place: Ints, order: Ints) -> _Levels:
        """The edges by ``place`` (their end, or their start), each level in ``order``."""
        at = place[order]
        top = int(at[-1]) if len(at) else 0
        bounds = np.searchsorted(at, np.arange(top + 2))
        flat_all = self.offset[self.word[order]] + at
        edges, groups, places = [], [], []
        for k in range(top + 1):
            idx = order[bounds[k] : bounds[k + 1]]
            flat = flat_all[bounds[k] : bounds[k + 1]]
            new = np.empty(len(idx), dtype=bool)
            new[:1] = True
            new[1:] = flat[1:] != flat[:-1]
            edges.append(idx)
            groups.append(np.cumsum(new) - 1)
            places.append(flat[new])
        return _Levels(edges, groups, places)

    def drop(self, gone: Collection[str]) -> None:
        """Remove the edges of the pieces ``gone`` (pruned, or dropped by EM)."""
        if not gone:
            return
        out = np.zeros(len(self.names), dtype=bool)
        out[[self.ids[p] for p in gone]] = True
        keep = ~out[self.piece]
        self._set(self.word[keep], self.start[keep], self.end[keep], self.piece[keep], keep)

    def edge_lists(self) -> dict[str, Edges]:
        """Each word's edges as the textbook keeps them (word -> [(start, end, piece)])."""
        starts, ends = self.start.tolist(), self.end.tolist()
        names = self.names
        pieces = [names[k] for k in self.piece.tolist()]
        first = self.first.tolist()
        return {
            w: list(
                zip(
                    starts[first[n] : first[n + 1]],
                    ends[first[n] : first[n + 1]],
                    pieces[first[n] : first[n + 1]],
                )
            )
            for n, w in enumerate(self.words)
        }

    def _by_id(self, scores: Mapping[str, float], fill: float, exp: bool) -> Floats:
        out = np.full(len(self.names), fill)
        ids = self.ids
        for p, s in scores.items():
            out[ids[p]] = math.exp(s) if exp else s
        return out

    def expected_counts(self, scores: Mapping[str, float]) -> tuple[dict[str, float], float]:
        """:func:`~.unigram.expected_counts` over the table: the same numbers, to the bit."""
        probs = self._by_id(scores, 0.0, exp=True)
        worst = -min(scores.values(), default=0.0)
        q = probs[self.piece]
        alpha = np.zeros(self.places)
        alpha[self.offset] = 1.0
        forward = self._forward
        for k in range(1, len(forward.edges)):
            idx = forward.edges[k]
            if len(idx):
                terms = alpha[self.offset[self.word[idx]] + self.start[idx]] * q[idx]
                alpha[forward.places[k]] = np.bincount(forward.groups[k], terms)
        beta = np.zeros(self.places)
        beta[self.offset + self.lengths] = 1.0
        backward = self._backward
        for k in range(len(backward.edges) - 1, -1, -1):
            idx = backward.edges[k]
            if len(idx):
                terms = q[idx] * beta[self.offset[self.word[idx]] + self.end[idx]]
                beta[backward.places[k]] = np.bincount(backward.groups[k], terms)
        z = alpha[self.offset + self.lengths]
        plain = self.lengths * worst < UNDERFLOW
        base = self.offset[self.word]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # the log-space words: redone
            scale = self.freqs / z
            terms = scale[self.word] * alpha[base + self.start] * q * beta[base + self.end]
        objective: list[float] = []
        first = self.first
        names = self.names
        zs, freqs, plains = z.tolist(), self.freqs.tolist(), plain.tolist()
        for w, word in enumerate(self.words):
            if plains[w]:
                if zs[w] <= 0.0:
                    raise ValueError(
                        f"the word {word!r} cannot be cut with the pieces; every character must be one"
                    )
                objective.append(-freqs[w] * math.log(zs[w]))
                continue
            a, b = int(first[w]), int(first[w + 1])
            cut = list(
                zip(self.start[a:b].tolist(), self.end[a:b].tolist(), [names[k] for k in self.piece[a:b]])
            )
            posteriors, term = word_posteriors(word, len(word), cut, scores, int(freqs[w]))
            terms[a:b] = posteriors
            objective.append(term)
        summed = np.bincount(self.piece, terms, minlength=len(names)).tolist()
        ids = self.ids
        return {p: summed[ids[p]] for p in scores}, math.fsum(objective)

    def corpus_cuts(self, scores: Mapping[str, float]) -> tuple[float, int, dict[str, Cut]]:
        """:func:`~.unigram_loss.corpus_cuts` over the table: the same loss, tokens and cuts."""
        s = self._by_id(scores, -math.inf, exp=False)[self.piece]
        best = np.full(self.places, -math.inf)
        best[self.offset] = 0.0
        back = np.zeros(self.places, dtype=np.int64)
        forward = self._forward
        for k in range(1, len(forward.edges)):
            idx = forward.edges[k]
            if not len(idx):
                continue
            groups = forward.groups[k]
            totals = best[self.offset[self.word[idx]] + self.start[idx]] + s[idx]
            starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
            top = np.maximum.reduceat(totals, starts)
            hits = np.flatnonzero((totals == top[groups]) & (totals > -math.inf))
            winners = hits[np.r_[True, groups[hits][1:] != groups[hits][:-1]]]
            best[forward.places[k][groups[winners]]] = totals[winners]
            back[forward.places[k][groups[winners]]] = idx[winners]
        # each word's best path, from its end back to its start, one step for all the words at once
        base = self.offset
        at = self.offset + self.lengths
        active = np.flatnonzero(at > base)
        steps_word, steps_piece = [], []
        while len(active):
            e = back[at[active]]
            steps_word.append(active)
            steps_piece.append(self.piece[e])
            at[active] = base[active] + self.start[e]
            active = active[at[active] > base[active]]
        words_of = np.concatenate(steps_word) if steps_word else np.zeros(0, dtype=np.int64)
        pieces_of = np.concatenate(steps_piece) if steps_piece else np.zeros(0, dtype=np.int64)
        step = np.arange(len(words_of))
        order = np.lexsort((-step, words_of))  # by word, its first piece first
        names = self.names
        path = [names[k] for k in pieces_of[order].tolist()]
        bounds = np.searchsorted(words_of[order], np.arange(len(self.words) + 1)).tolist()
        scores_end = best[self.offset + self.lengths].tolist()
        freqs = self.freqs.tolist()
        terms, tokens = [], 0
        cuts: dict[str, Cut] = {}
        for w, word in enumerate(self.words):
            score = scores_end[w]
            if score == -math.inf:
                raise ValueError(
                    f"the word {word!r} cannot be cut with the pieces; every character must be one"
                )
            pieces = tuple(path[bounds[w] : bounds[w + 1]])
            terms.append(-freqs[w] * score)
            tokens += int(freqs[w]) * len(pieces)
            cuts[word] = (score, pieces)
        return math.fsum(terms), tokens, cuts

    def loss_increases(
        self, scores: Mapping[str, float], candidates: list[str], cuts: Mapping[str, Cut]
    ) -> dict[str, float]:
        """:func:`~.unigram_fast.loss_increases_fast` over the table: each word whose best cut (``cuts``,
        under ``scores``) uses a candidate is cut again without it, all such (word, piece) pairs at once,
        and each candidate's terms summed with ``math.fsum``: the same increases, to the bit."""
        ids = self.ids
        wanted = np.zeros(len(self.names), dtype=bool)
        wanted[[ids[p] for p in candidates]] = True
        pair_word, pair_piece = [], []
        for w, word in enumerate(self.words):
            for piece in set(cuts[word][1]):
                k = ids[piece]
                if wanted[k]:
                    pair_word.append(w)
                    pair_piece.append(k)
        if not pair_word:
            return dict.fromkeys(candidates, 0.0)
        pw = np.array(pair_word, dtype=np.int64)
        pp = np.array(pair_piece, dtype=np.int64)
        # every pair's lattice: its word's edges without its piece
        sizes = self.first[pw + 1] - self.first[pw]
        pair_of = np.repeat(np.arange(len(pw)), sizes)
        edge = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes - self.first[pw], sizes)
        keep = self.piece[edge] != pp[pair_of]
        edge, pair_of = edge[keep], pair_of[keep]
        lengths = self.lengths[pw]
        offset = np.concatenate(([0], np.cumsum(lengths + 1)[:-1])).astype(np.int64)
        best = np.full(int((lengths + 1).sum()), -math.inf)
        best[offset] = 0.0
        value = self._by_id(scores, -math.inf, exp=False)[self.piece[edge]]
        ends = self.end[edge]
        source = offset[pair_of] + self.start[edge]
        target = offset[pair_of] + ends
        order = np.argsort(ends, kind="stable")
        bounds = np.searchsorted(ends[order], np.arange(int(ends.max(initial=0)) + 2))
        for k in range(1, len(bounds) - 1):
            idx = order[bounds[k] : bounds[k + 1]]
            np.maximum.at(best, target[idx], best[source[idx]] + value[idx])
        without = best[offset + lengths]
        score = np.array([cuts[word][0] for word in self.words])[pw]
        terms = (self.freqs[pw] * (score - without)).tolist()
        by_piece: dict[int, list[float]] = {}
        for k, term in zip(pair_piece, terms):
            by_piece.setdefault(k, []).append(term)
        return {p: math.fsum(by_piece.get(ids[p], ())) for p in candidates}
