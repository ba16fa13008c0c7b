"""What a Unigram training run is asked to do (:class:`UnigramOptions`) and what it says (its records).

>>> UnigramOptions(vocab_size=100).shrinking_factor
0.75
>>> UnigramOptions(vocab_size=100, shrinking_factor=1.0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: shrinking_factor is 1.0; ... between 0 and 1 (0.75 keeps three quarters each round)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

STOP_VOCAB_SIZE = "reached the requested vocab size"
STOP_SMALL_SEED = "the seed has no more pieces than the vocab size asked for: nothing to prune"
# Pieces whose removal raises the loss equally are pruned in order of score, the less probable first,
# then in code-point order of the piece.
PRUNE_TIE_RULE = "lower-score-first"
SEED_RULE = (
    "every character, then the substrings of the words (at most max_piece_length characters) that occur at "
    "least twice, ranked by occurrences x length (SentencePiece's seed: characters they cover), the top "
    "seed_size kept; equal ranks in code-point order; with seed_by_branching only the substrings not always "
    "followed by the same character (SentencePiece's), unless too few are left to reach vocab_size"
)
MIN_EXPECTED_COUNT = 1e-6
SHRINKING_FACTOR = 0.75  # the share of pieces a round keeps by default: SentencePiece's
MAX_UNIGRAM_VOCAB = 1_000_000
TRAIN_DEFAULTS = {"seed_by_branching": True, "bayesian_em": True, "final_by_score": True}
"""What :func:`~.unigram.train_unigram` (the one-shot trainer) turns on over the textbook defaults that
:func:`~.unigram.unigram_steps` keeps for the stage: SentencePiece's choices that its experiment table
(docs/unigram-vs-sentencepiece.md) shows matter for held-out text."""
SENTENCEPIECE_OPTIONS = (
    "lines_as_sentences",
    "split_by_script",
    "seed_by_coverage",
    "seed_by_branching",
    "bayesian_em",
    "prune_by_alternative",
    "final_by_score",
)


@dataclass(frozen=True, slots=True)
class UnigramOptions:
    """The options of a Unigram run (each a ValueError that says how to fix it when wrong).

    - ``vocab_size``: pieces at the end, ``<unk>`` included; at least the text's characters + 1.
    - ``shrinking_factor``: the share of pieces a round keeps (:data:`SHRINKING_FACTOR`, SentencePiece's
      default); a round never goes below ``vocab_size``.
    - ``max_piece_length``: the longest piece, in characters (SentencePiece: 16).
    - ``seed_size``: at most this many pieces in the seed (:data:`SEED_RULE`).
    - ``em_iterations``: EM iterations after the seed and after each pruning (SentencePiece: 2).
    - ``top_k``: how many kept pieces each round lists as the closest to being pruned.
    - ``unk_piece``: the unknown piece's name, id 0.
    - ``max_word_length``: longer words (texts without spaces) are cut into pieces this long for training.
    - ``lines_as_sentences``, ``split_by_script``, ``seed_by_coverage``, ``seed_by_branching``,
      ``bayesian_em``, ``prune_by_alternative``, ``final_by_score``: SentencePiece's choices, each alone
      (:mod:`.unigram_sp`).
    """

    vocab_size: int
    shrinking_factor: float = SHRINKING_FACTOR
    max_piece_length: int = 16
    seed_size: int = 1_000_000
    em_iterations: int = 2
    top_k: int = 20
    unk_piece: str = "<unk>"
    max_word_length: int = 32
    lines_as_sentences: bool = False
    split_by_script: bool = False
    seed_by_coverage: bool = False
    seed_by_branching: bool = False
    bayesian_em: bool = False
    prune_by_alternative: bool = False
    final_by_score: bool = False

    def __post_init__(self) -> None:
        _check_int("vocab_size", self.vocab_size, 2, MAX_UNIGRAM_VOCAB, "it counts <unk> and the pieces")
        f = self.shrinking_factor
        if isinstance(f, bool) or not isinstance(f, int | float) or not 0 < f < 1:
            raise ValueError(
                f"shrinking_factor is {f!r}; give a number between 0 and 1 "
                "(0.75 keeps three quarters each round)"
            )
        _check_int("max_piece_length", self.max_piece_length, 1, 1000, "SentencePiece uses 16")
        _check_int("seed_size", self.seed_size, 1, 100_000_000, "it bounds the seed vocabulary")
        _check_int("em_iterations", self.em_iterations, 0, 100, "SentencePiece uses 2")
        _check_int("top_k", self.top_k, 0, 10_000, "it is the number of kept pieces listed per round")
        _check_int("max_word_length", self.max_word_length, 1, 10_000, "longer words are cut for training")
        for name in SENTENCEPIECE_OPTIONS:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} is {getattr(self, name)!r}; give True or False")
        if not isinstance(self.unk_piece, str) or not self.unk_piece:
            raise ValueError(f"unk_piece is {self.unk_piece!r}; name it, e.g. '<unk>'")

    def replace(self, **changes: Any) -> UnigramOptions:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, slots=True)
class PieceLoss:
    """A piece, its score (log probability) and how much the corpus loss rises without it."""

    piece: str
    score: float
    increase: float


@dataclass(frozen=True, slots=True)
class UnigramSeed:
    """The seed vocabulary: ``pieces`` (piece, seed count) best first, how many substrings were candidates
    (``candidates``, before ``seed_size`` cut them), the words (distinct, and all), and the loss after the
    first EM (``loss``: Viterbi; ``em_losses``: the EM objective after each iteration; ``dropped``: the
    pieces its Bayesian M step dropped, ``bayesian_em``)."""

    pieces: tuple[tuple[str, int], ...]
    characters: int
    candidates: int
    distinct_words: int
    words: int
    em_losses: tuple[float, ...]
    loss: float
    tokens: int
    rule: str = SEED_RULE
    dropped: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class UnigramRound:
    """One round: the loss increase of removing each piece, the pruning, then EM on what is left.

    - ``loss_before``: the corpus loss (sum over words of count x -log P(best segmentation)) with the
      scores the round starts with; ``loss_after``: the same after pruning and EM.
    - ``pruned``: the pieces removed, smallest increase first (ties by :data:`PRUNE_TIE_RULE`);
      ``closest_kept``: the ``top_k`` kept pieces with the smallest increase (single characters are never
      candidates).
    - ``em_losses``: EM's objective (-log likelihood over all segmentations) after each iteration.
    - ``tokens_before``/``tokens_after``: tokens of the corpus cut by Viterbi.
    - ``dropped``: pieces the Bayesian M step dropped (``bayesian_em``), ``by_score``: whether the round
      pruned by probability (``final_by_score``'s last round) rather than by loss increase.
    """

    index: int
    vocab_size_before: int
    vocab_size: int
    target: int
    loss_before: float
    loss_after: float
    pruned: tuple[PieceLoss, ...]
    closest_kept: tuple[PieceLoss, ...]
    em_losses: tuple[float, ...]
    tokens_before: int
    tokens_after: int
    tie_rule: str = PRUNE_TIE_RULE
    dropped: tuple[str, ...] = ()
    by_score: bool = False


def _check_int(name: str, value: object, low: int, high: int, hint: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} is {value}, out of range {low}..{high}; {hint}")
