"""The Unigram lattice of a word: every piece that fits where, every way to cut it, and the best one.

A Unigram model gives each piece a score, its log probability; a segmentation's score is the sum of its
pieces' scores, and the tokenizer takes the segmentation with the highest score (Viterbi).

The tie rule (:data:`TIE_RULE`): among segmentations with equal scores, the one whose *last* piece is longest
wins, then the same rule on what comes before it.  That is what SentencePiece's Viterbi and the Hugging Face
course's ``encode_word`` do: the best path to each position is the first one found, trying the last piece's
start from left to right, and only a strictly better score replaces it.

The course's example: with the probabilities of its corpus (``hug`` 10, ``pug`` 5, ``pun`` 12, ``bun`` 4,
``hugs`` 5), ``p`` + ``ug`` and ``pu`` + ``g`` are equally likely for ``pug``; the longest last piece wins.

>>> import math
>>> freqs = {"p": 17, "u": 36, "g": 20, "pu": 17, "ug": 20}
>>> scores = {piece: math.log(n / 210) for piece, n in freqs.items()}
>>> best = viterbi("pug", scores)
>>> best.pieces, round(math.exp(best.score), 6)
(('p', 'ug'), 0.00771)
>>> lat = lattice("pug", scores)
>>> [(s.pieces, round(math.exp(s.score), 6)) for s in lat.segmentations]
[(('p', 'ug'), 0.00771), (('pu', 'g'), 0.00771), (('p', 'u', 'g'), 0.001322)]
>>> lat.best == best
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

TIE_RULE = "longest-last-piece"
TIE_RULE_HELP = (
    "among equally likely segmentations, the one whose last piece is longest wins, then the same rule on "
    "what precedes it (SentencePiece's and the Hugging Face course's Viterbi: the first path found to a "
    "position is kept unless a later one scores strictly higher)"
)

# Enumerating every segmentation of a long word explodes (a word of n characters has up to 2**(n-1));
# :func:`lattice` lists at most this many, best first, and says when it stopped; and it takes words of at
# most MAX_LATTICE_CHARS characters (a lesson's word; the work grows with length x limit x length).
MAX_SEGMENTATIONS = 200
MAX_LATTICE_CHARS = 64


@dataclass(frozen=True, slots=True)
class Edge:
    """A piece of the vocabulary that fits the word from character ``start`` to ``end``."""

    start: int
    end: int
    piece: str
    score: float


@dataclass(frozen=True, slots=True)
class Segmentation:
    """One way to cut a word: its pieces and its score (the sum of their log probabilities)."""

    pieces: tuple[str, ...]
    score: float


@dataclass(frozen=True, slots=True)
class Lattice:
    """A word's lattice: the edges, its segmentations best first (at most :data:`MAX_SEGMENTATIONS`,
    ``complete`` False when there were more), and the best one (Viterbi, ties by :data:`TIE_RULE`).

    ``best`` is None when the word cannot be cut with the pieces at all (a character not in them).
    """

    word: str
    edges: tuple[Edge, ...]
    segmentations: tuple[Segmentation, ...]
    best: Segmentation | None
    complete: bool
    tie_rule: str = TIE_RULE


def edges(word: str, scores: Mapping[str, float], max_piece_length: int | None = None) -> list[Edge]:
    """Every piece of ``scores`` that fits in ``word``, by start then length (the order Viterbi tries)."""
    longest = max_piece_length or max(map(len, scores), default=0)
    out = []
    for start in range(len(word)):
        for end in range(start + 1, min(len(word), start + longest) + 1):
            piece = word[start:end]
            score = scores.get(piece)
            if score is not None:
                out.append(Edge(start, end, piece, score))
    return out


def viterbi(
    word: str, scores: Mapping[str, float], max_piece_length: int | None = None
) -> Segmentation | None:
    """The best segmentation of ``word`` (ties by :data:`TIE_RULE`), or None when there is none."""
    n = len(word)
    longest = max_piece_length or max(map(len, scores), default=0)
    best: list[float | None] = [None] * (n + 1)
    back = [0] * (n + 1)
    best[0] = 0.0
    for start in range(n):
        here = best[start]
        if here is None:
            continue
        for end in range(start + 1, min(n, start + longest) + 1):
            score = scores.get(word[start:end])
            if score is not None:
                total = here + score
                known = best[end]
                if known is None or total > known:  # strictly better, so the first found stays
                    best[end] = total
                    back[end] = start
    total_score = best[n]
    if total_score is None:
        return None
    pieces = []
    end = n
    while end > 0:
        pieces.append(word[back[end] : end])
        end = back[end]
    return Segmentation(tuple(reversed(pieces)), total_score)


def lattice(
    word: str,
    scores: Mapping[str, float],
    *,
    max_piece_length: int | None = None,
    limit: int = MAX_SEGMENTATIONS,
) -> Lattice:
    """``word``'s :class:`Lattice` under ``scores`` (piece -> log probability).

    Segmentations are listed best first; equal scores in the order of :data:`TIE_RULE` (the longer last
    piece first, and so on leftwards).
    """
    if not isinstance(word, str):
        raise ValueError(f"the word must be a string, not {type(word).__name__}")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
        raise ValueError(f"limit is {limit!r}; ask for 1 to 10000 segmentations")
    if len(word) > MAX_LATTICE_CHARS:
        raise ValueError(
            f"the word has {len(word)} characters; a lattice is drawn for words of at most "
            f"{MAX_LATTICE_CHARS}, so ask for a shorter one"
        )
    found = edges(word, scores, max_piece_length)
    ending_at: dict[int, list[Edge]] = {}
    for edge in found:
        ending_at.setdefault(edge.end, []).append(edge)
    # Paths are built right to left; each is (pieces from the right, score). Cap the work per position.
    partial: dict[int, list[tuple[tuple[Edge, ...], float]]] = {0: [((), 0.0)]}
    complete = True
    for end in range(1, len(word) + 1):
        paths = []
        for edge in ending_at.get(end, ()):
            for path, score in partial.get(edge.start, ()):
                paths.append((path + (edge,), score + edge.score))
        if len(paths) > limit:
            complete = False
        paths.sort(key=lambda p: (-p[1], _tie_key(p[0])))
        partial[end] = paths[:limit]
    segs = tuple(
        Segmentation(tuple(e.piece for e in path), score) for path, score in partial.get(len(word), [])
    )
    best = viterbi(word, scores, max_piece_length) if word else Segmentation((), 0.0)
    return Lattice(word, tuple(found), segs, best, complete)


def _tie_key(path: tuple[Edge, ...]) -> tuple[int, ...]:
    # Longer last piece first = earlier start of the last piece, then of the one before, ...
    return tuple(e.start for e in reversed(path))


def probability(segmentation: Segmentation) -> float:
    """The segmentation's probability, ``exp(score)``."""
    return math.exp(segmentation.score)
