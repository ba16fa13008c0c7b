"""The loss increases of Unigram pruning, fast: only the words whose best cut uses a piece are re-cut.

Removing a piece changes nothing for a word whose best segmentation does not use it (its best path is
still there, found first, with the same score), so the textbook's sum over all words
(:func:`~.unigram_loss.loss_increases_textbook`) only gains exact zeros from those words.  Here each
word is cut once, each piece remembers the words that use it, and only those are cut again without it;
the terms are the same and are summed with ``math.fsum`` (exactly rounded), so the increases are equal
to the bit.

>>> words = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
>>> import math
>>> seed = {"h": 15, "u": 36, "g": 20, "hu": 15, "ug": 20, "p": 17, "pu": 17, "n": 16, "un": 16,
...         "b": 4, "bu": 4, "s": 5, "hug": 15, "gs": 5, "ugs": 5}
>>> scores = {p: math.log(n / 210) for p, n in seed.items()}
>>> round(loss_increases_fast(words, scores, ["hug", "pu"], 3)["hug"], 1)
23.5
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from .unigram_loss import TICK_EVERY, Cut, Edges, Tick, best_cut, best_pieces, word_edges


def loss_increases_fast(
    words: Mapping[str, int],
    scores: Mapping[str, float],
    candidates: list[str],
    longest: int,
    edges: Mapping[str, Edges] | None = None,
    *,
    cuts: Mapping[str, Cut] | None = None,
    tick: Tick | None = None,
) -> dict[str, float]:
    """Each candidate's loss increase, as :func:`~.unigram_loss.loss_increases_textbook` gives it.

    ``cuts`` (word -> its best segmentation under ``scores``, :func:`~.unigram_loss.corpus_cuts`) saves
    cutting every word once more; ``tick(words)`` follows the re-cuts (the work), word by word of the
    users of each piece.
    """
    wanted = set(candidates)
    users: dict[str, list[tuple[int, Edges, int, float]]] = {}
    for word, freq in words.items():
        cut = edges[word] if edges is not None else word_edges(word, scores, longest)
        score, pieces = cuts[word] if cuts is not None else best_pieces(len(word), cut, scores)
        for piece in set(pieces):
            if piece in wanted:
                users.setdefault(piece, []).append((len(word), cut, freq, score))
    out: dict[str, float] = {}
    done, total = 0, sum(len(u) for u in users.values())
    for piece in candidates:
        using = users.get(piece, ())
        out[piece] = math.fsum(
            freq * (score - best_cut(n, cut, scores, piece)[0]) for n, cut, freq, score in using
        )
        if tick is not None and (done + len(using)) // TICK_EVERY > done // TICK_EVERY:
            tick(done + len(using), total)
        done += len(using)
    return out
