"""The Unigram corpus loss, and how much it rises without a piece (the textbook way: every word re-cut).

The loss is ``sum over words of count x -log P(best segmentation)``, as in the Hugging Face course.

>>> import math
>>> scores = {"a": math.log(0.2), "b": math.log(0.3), "ab": math.log(0.5)}
>>> loss, tokens = corpus_loss({"ab": 2, "ba": 1}, scores, 2)
>>> round(loss, 4), tokens
(4.1997, 4)
>>> round(loss_increases_textbook({"ab": 2, "ba": 1}, scores, ["ab"], 2)["ab"], 4)
4.2405
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..tokenizer.unigram_lattice import viterbi


def corpus_loss(words: Mapping[str, int], scores: Mapping[str, float], longest: int) -> tuple[float, int]:
    """``sum count x -log P(best segmentation)`` over the words, and how many tokens the best cuts make."""
    terms = []
    tokens = 0
    for word, freq in words.items():
        best = viterbi(word, scores, longest)
        if best is None:
            raise ValueError(f"the word {word!r} cannot be cut with the pieces; every character must be one")
        terms.append(-freq * best.score)
        tokens += freq * len(best.pieces)
    return math.fsum(terms), tokens


def best_score_without(word: str, scores: Mapping[str, float], longest: int, removed: str) -> float:
    """The best segmentation's score of ``word`` when ``removed`` is not a piece (-inf when none)."""
    n = len(word)
    best = [0.0] + [-math.inf] * n
    for start in range(n):
        here = best[start]
        if here == -math.inf:
            continue
        for end in range(start + 1, min(n, start + longest) + 1):
            p = word[start:end]
            s = scores.get(p)
            if s is not None and p != removed and here + s > best[end]:
                best[end] = here + s
    return best[n]


def loss_increases_textbook(
    words: Mapping[str, int], scores: Mapping[str, float], candidates: list[str], longest: int
) -> dict[str, float]:
    """For each candidate, how much the corpus loss rises without it: every word re-cut (the course's way).

    Each is ``fsum`` of ``count x (best score - best score without the piece)`` over all words.
    """
    best = {w: viterbi(w, scores, longest).score for w in words}  # type: ignore[union-attr]
    return {
        piece: math.fsum(
            freq * (best[w] - best_score_without(w, scores, longest, piece)) for w, freq in words.items()
        )
        for piece in candidates
    }
