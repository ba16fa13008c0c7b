"""SentencePiece's Unigram choices, as options of our trainer (:class:`~.unigram_records.UnigramOptions`).

Each is a choice of SentencePiece's trainer (``unigram_model_trainer.cc``) that a textbook Unigram (the
Hugging Face course's) does not make; each is off in the textbook and can be turned on alone:

- ``lines_as_sentences``: each line is a sentence, its first word with its own ``▁``
  (:func:`~.unigram.text_words`), as SentencePiece reads a text file.
- ``split_by_script``: a seed piece never mixes scripts, digits and other characters
  (:func:`script_class`); SentencePiece's ``split_by_unicode_script`` and ``split_by_number``.
- ``seed_by_coverage``: a seed piece's first probability is its count times its length (the characters
  it covers), not its count.
- ``seed_by_branching``: a seed substring is kept only if what follows it varies: two different
  characters at least, or one and the end of its word (:func:`~.unigram.right_branching`);
  SentencePiece's seed is the internal nodes of its suffix tree.  ``th`` always followed by ``e`` is
  left out (``the`` covers it), and so is a word never followed by more.  When too few substrings
  are left to reach ``vocab_size`` (a short text), all of them are seeded, as without the option.
- ``bayesian_em``: the M step takes ``digamma(count) - digamma(total)`` (a sparse prior, Liang's
  Bayesian EM) and drops the pieces expected fewer than :data:`EM_DROP_BELOW` times
  (:func:`bayesian_scores`).
- ``prune_by_alternative``: a piece's loss is estimated from the best segmentation of the piece itself
  without it, its count handed to those pieces (:func:`alternative_losses`), not by re-cutting words.
- ``final_by_score``: rounds stop at :data:`FINAL_MARGIN` times the vocabulary size, and the last round
  keeps the most probable pieces.

>>> script_class("a") == script_class("é"), script_class("a") == script_class(","), script_class("7")
(True, False, 'number')
>>> valid_piece("▁the"), valid_piece("the,"), valid_piece("...")
(True, False, True)
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from functools import lru_cache

import regex

from .unigram_loss import Cut, best_pieces, word_edges

EM_DROP_BELOW = 0.5  # SentencePiece's kExpectedFrequencyThreshold
FINAL_MARGIN = 1.1  # SentencePiece prunes by loss down to 1.1 x vocab_size, then keeps the most probable
SPACE = "▁"

_COMMON = regex.compile(r"\p{sc=Common}")
_INHERITED = regex.compile(r"\p{sc=Inherited}")
_JAPANESE = regex.compile(r"[\p{sc=Hiragana}\p{sc=Katakana}\u30fc]")
_SCRIPTS = [
    (name, regex.compile(rf"\p{{sc={name}}}"))
    for name in ("Latin", "Han", "Cyrillic", "Greek", "Arabic", "Hebrew", "Hangul", "Devanagari", "Thai")
]


@lru_cache(maxsize=65536)
def script_class(char: str) -> str:
    """The class a piece may not mix with another: ``"number"`` (a decimal digit), the script's name
    (Hiragana and Katakana count as Han, as in SentencePiece), ``"inherited"`` (a combining mark: it takes
    its neighbour's) or ``"common"`` (punctuation, symbols: their own class)."""
    if unicodedata.category(char) == "Nd":
        return "number"
    if _JAPANESE.match(char):
        return "Han"
    if _INHERITED.match(char):
        return "inherited"
    if _COMMON.match(char):
        return "common"
    for name, pattern in _SCRIPTS:
        if pattern.match(char):
            return name
    return unicodedata.name(char, "unknown").split(" ")[0]  # "TAMIL LETTER A" -> TAMIL


def valid_piece(piece: str) -> bool:
    """Whether a seed piece keeps to one class (:func:`script_class`); ``▁`` only in front."""
    previous = ""
    for i, char in enumerate(piece):
        if char == SPACE:
            if i > 0:
                return False
            continue
        cls = script_class(char)
        if cls == "inherited":
            continue
        if previous and cls != previous:
            return False
        previous = cls
    return True


def digamma(x: float) -> float:
    """The digamma function (x > 0): the recurrence up to 7, then its asymptotic series.

    >>> round(digamma(1.0), 6)  # minus the Euler-Mascheroni constant
    -0.577216
    """
    result = 0.0
    while x < 7:
        result -= 1 / x
        x += 1
    x -= 0.5
    xx2 = 1 / (x * x)
    xx4 = xx2 * xx2
    return result + math.log(x) + xx2 / 24 - 7 * xx4 / 960 + 31 * xx4 * xx2 / 8064 - 127 * xx4 * xx4 / 30720


def bayesian_scores(
    counts: Mapping[str, float], characters: frozenset[str], at_least: int
) -> tuple[dict[str, float], list[str]]:
    """The Bayesian M step: ``digamma(count) - digamma(total)``; and the pieces dropped.

    A piece expected fewer than :data:`EM_DROP_BELOW` times is dropped (rarest first), unless it is a
    character (kept with that count) or fewer than ``at_least`` pieces would be left.

    >>> scores, dropped = bayesian_scores({"a": 3.0, "b": 0.1, "ab": 0.2}, frozenset("ab"), 2)
    >>> dropped, sorted(scores)
    (['ab'], ['a', 'b'])
    """
    rare = sorted((c, p) for p, c in counts.items() if c < EM_DROP_BELOW and p not in characters)
    room = max(0, len(counts) - at_least)
    dropped = {p for _, p in rare[:room]}
    kept = {p: max(c, EM_DROP_BELOW) for p, c in counts.items() if p not in dropped}
    log_total = digamma(math.fsum(kept.values()))
    return {p: digamma(c) - log_total for p, c in kept.items()}, sorted(dropped)


def alternative_losses(
    words: Mapping[str, int],
    scores: Mapping[str, float],
    candidates: list[str],
    longest: int,
    cuts: Mapping[str, Cut],
) -> tuple[dict[str, float], set[str]]:
    """SentencePiece's estimate of each candidate's loss, and the pieces it drops outright.

    A piece that no best cut uses, or whose own best segmentation is not itself, is dropped outright
    (loss 0).  Otherwise its Viterbi count moves to its alternative (the best segmentation of the piece
    without it) and the loss is ``F x (log P(piece) - sum log P'(alternative pieces))``, ``F`` the share of
    words (with their counts) that use it, ``P'`` the probabilities after the move.
    """
    freq: dict[str, float] = {}
    users: dict[str, int] = {}
    total_words = 0
    for word, n in words.items():
        total_words += n
        pieces = cuts[word][1]
        for p in pieces:
            freq[p] = freq.get(p, 0.0) + n
        for p in set(pieces):
            users[p] = users.get(p, 0) + n
    total = math.fsum(freq.values())
    log_total = math.log(total)
    out: dict[str, float] = {}
    outright: set[str] = set()
    for piece in candidates:
        f = freq.get(piece, 0.0)
        edges = word_edges(piece, scores, longest)
        whole = (0, len(piece), piece)
        if f == 0 or best_pieces(len(piece), edges, scores)[1] != [piece]:
            out[piece] = 0.0
            outright.add(piece)
            continue
        _, alternative = best_pieces(len(piece), [e for e in edges if e != whole], scores)
        log_total_alt = math.log(total + f * (len(alternative) - 1))
        log_alt = math.fsum(math.log(freq.get(a, 0.0) + f) - log_total_alt for a in alternative)
        out[piece] = users[piece] / total_words * (math.log(f) - log_total - log_alt)
    return out, outright
