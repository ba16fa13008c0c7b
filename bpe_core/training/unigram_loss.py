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
from collections.abc import Callable, Mapping

Edges = list[tuple[int, int, str]]  # a word's pieces: (start, end, piece), by start then length
Tick = Callable[[int, int], object]
"""Told how far a pass over the words has gone, ``(done, total)``, every :data:`TICK_EVERY` words: a
caller's progress."""
TICK_EVERY = 512
UNDERFLOW = 600.0
"""The E step sums a word of ``n`` characters whose worst piece has score ``-w`` as products while
``n x w`` is below this (its smallest product stays above ``exp(-600)``), else in logs."""


def best_cut(
    n: int, edges: Edges, scores: Mapping[str, float], removed: str | None = None
) -> tuple[float, int]:
    """The best segmentation's score of a word of ``n`` characters over its ``edges`` (without ``removed``),
    and its number of pieces; ties as :data:`~bpe_core.tokenizer.unigram_lattice.TIE_RULE` (the edges come
    by start, so the first path found to a place stays unless one is strictly better)."""
    best = [0.0] + [-math.inf] * n
    count = [0] * (n + 1)
    for i, j, p in edges:
        if p != removed:
            total = best[i] + scores[p]
            if total > best[j]:
                best[j] = total
                count[j] = count[i] + 1
    return best[n], count[n]


def best_pieces(n: int, edges: Edges, scores: Mapping[str, float]) -> tuple[float, list[str]]:
    """:func:`best_cut`'s segmentation itself: its score and its pieces."""
    best = [0.0] + [-math.inf] * n
    back: list[tuple[int, str]] = [(0, "")] * (n + 1)
    for i, j, p in edges:
        total = best[i] + scores[p]
        if total > best[j]:
            best[j] = total
            back[j] = (i, p)
    pieces = []
    end = n
    while end > 0 and best[n] > -math.inf:
        end, piece = back[end]
        pieces.append(piece)
    return best[n], pieces[::-1]


def corpus_loss(
    words: Mapping[str, int],
    scores: Mapping[str, float],
    longest: int,
    edges: Mapping[str, Edges] | None = None,
) -> tuple[float, int]:
    """``sum count x -log P(best segmentation)`` over the words, and how many tokens the best cuts make.

    ``edges`` (word -> its edges under ``scores``) saves finding them again.
    """
    loss, tokens, _ = corpus_cuts(words, scores, longest, edges)
    return loss, tokens


Cut = tuple[float, tuple[str, ...]]  # a word's best segmentation: its score and its pieces


def corpus_cuts(
    words: Mapping[str, int],
    scores: Mapping[str, float],
    longest: int,
    edges: Mapping[str, Edges] | None = None,
    *,
    tick: Tick | None = None,
) -> tuple[float, int, dict[str, Cut]]:
    """:func:`corpus_loss`, and each word's best segmentation (:func:`best_pieces`) on the way.

    >>> import math
    >>> scores = {"a": math.log(0.2), "b": math.log(0.3), "ab": math.log(0.5)}
    >>> loss, tokens, cuts = corpus_cuts({"ab": 2, "ba": 1}, scores, 2)
    >>> cuts["ab"][1], cuts["ba"][1], tokens
    (('ab',), ('b', 'a'), 4)
    """
    terms = []
    tokens = 0
    cuts: dict[str, Cut] = {}
    for n, (word, freq) in enumerate(words.items(), start=1):
        cut = edges[word] if edges is not None else word_edges(word, scores, longest)
        score, pieces = best_pieces(len(word), cut, scores)
        if score == -math.inf:
            raise ValueError(f"the word {word!r} cannot be cut with the pieces; every character must be one")
        terms.append(-freq * score)
        tokens += freq * len(pieces)
        cuts[word] = (score, tuple(pieces))
        if tick is not None and n % TICK_EVERY == 0:
            tick(n, len(words))
    return math.fsum(terms), tokens, cuts


def loss_increases_textbook(
    words: Mapping[str, int],
    scores: Mapping[str, float],
    candidates: list[str],
    longest: int,
    edges: Mapping[str, Edges] | None = None,
) -> dict[str, float]:
    """For each candidate, how much the corpus loss rises without it: every word re-cut (the course's way).

    Each is ``fsum`` of ``count x (best score - best score without the piece)`` over all words.
    """
    cuts = {w: edges[w] if edges is not None else word_edges(w, scores, longest) for w in words}
    best = {w: best_cut(len(w), cuts[w], scores)[0] for w in words}
    return {
        piece: math.fsum(
            freq * (best[w] - best_cut(len(w), cuts[w], scores, piece)[0]) for w, freq in words.items()
        )
        for piece in candidates
    }


def word_edges(word: str, scores: Mapping[str, float], longest: int) -> Edges:
    """The pieces of ``scores`` that fit in ``word``: (start, end, piece), by start then length."""
    out = []
    n = len(word)
    for i in range(n):
        for j in range(i + 1, min(n, i + longest) + 1):
            p = word[i:j]
            if p in scores:
                out.append((i, j, p))
    return out


def word_posteriors(
    word: str, n: int, cut: Edges, scores: Mapping[str, float], freq: int
) -> tuple[list[float], float]:
    """One word's E step in log space (a long word whose products could underflow): ``freq`` times each
    edge's posterior, in ``cut``'s order, and the word's objective ``-freq x log P(word)``."""
    log_alpha = [0.0] + [-math.inf] * n
    ending: list[list[float]] = [[] for _ in range(n + 1)]
    for i, j, p in cut:  # by start: every way into i is in before i is used
        if ending[i]:
            log_alpha[i] = _logsumexp(ending[i])
            ending[i] = []
        ending[j].append(log_alpha[i] + scores[p])
    log_alpha[n] = _logsumexp(ending[n]) if ending[n] else log_alpha[n]
    log_beta = [-math.inf] * n + [0.0]
    starting: list[list[float]] = [[] for _ in range(n + 1)]
    for i, j, p in reversed(cut):
        if starting[j]:
            log_beta[j] = _logsumexp(starting[j])
            starting[j] = []
        starting[i].append(scores[p] + log_beta[j])
    log_beta[0] = _logsumexp(starting[0]) if starting[0] else log_beta[0]
    z = log_alpha[n]
    if z == -math.inf:
        raise ValueError(f"the word {word!r} cannot be cut with the pieces; every character must be one")
    posteriors = [freq * math.exp(log_alpha[i] + scores[p] + log_beta[j] - z) for i, j, p in cut]
    return posteriors, -freq * z


def _logsumexp(values: list[float]) -> float:
    if not values:
        return -math.inf
    top = max(values)
    if top == -math.inf:
        return top
    return top + math.log(math.fsum(math.exp(v - top) for v in values))
