"""The records a training run yields: one :class:`MergeStep` per merge, and why it stopped."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..tokenizer.notebook_html import merge_html

TIES_KEPT = 20
"""A record's ``ties`` holds at most ``max(top_k, TIES_KEPT)`` pairs (:func:`ties_kept`): late in a long
run some ten thousand pairs tie at a count of 2, and a record of them all would cost each step (and the
memory of every record) as much; ``tie_count`` says how many there were."""


def ties_kept(top_k: int) -> int:
    """How many tied pairs a record keeps for a pair table of ``top_k`` rows: at least every tied row of
    the table (so a table marks its tied rows from ``ties``), at least :data:`TIES_KEPT`.

    >>> ties_kept(5), ties_kept(100)
    (20, 100)
    """
    return max(top_k, TIES_KEPT)


@dataclass(frozen=True, slots=True)
class PairCount:
    """One row of the pair-count table: a candidate pair and how often it occurs.

    (A record, not a named tuple, whose ``count`` would hide ``tuple.count``; the fast
    trainer reuses the rows that did not change from one step to the next.)
    """

    pair: tuple[int, int]
    left: bytes
    right: bytes
    count: int


@dataclass(frozen=True, slots=True)
class MergeStep:
    """What happened at one merge.

    ``count`` is the number of adjacent positions holding the pair, summed over
    the corpus (overlapping occurrences count: ``aaa`` has two ``(a, a)``);
    it is the figure the choice was made on, as in CS336 and HF `tokenizers`.
    ``replaced`` is how many occurrences were actually merged, scanning left to
    right without overlap, so ``replaced <= count``; ``tokens_after ==
    tokens_before - replaced``.

    ``rule_pair`` is the pair the tie rule chose; it is ``pair`` unless the step
    was ``forced`` (``TrainOptions.force``), where ``pair`` and ``count`` are the
    forced pair's and ``top_pairs`` and ``ties`` stay the rule's view (its
    choice first).  Blocked pairs (``TrainOptions.block``) appear in neither.
    ``distinct_pairs`` is how many distinct pairs the choice was made among
    (``top_pairs`` holds the first ``TrainOptions.top_k`` of them; ``Trainer.pair_table``
    gives them all).  ``tie_count`` is how many pairs had the winning count; ``ties`` holds the
    first :func:`ties_kept` of them in the rule's order (the winner first), so a step that tied
    ``tie_count`` ways names only the first few.
    """

    index: int  # 1-based merge number
    pair: tuple[int, int]
    left: bytes
    right: bytes
    new_id: int
    token: bytes
    count: int
    replaced: int
    top_pairs: tuple[PairCount, ...]  # the pair-count table before the choice, winner first
    ties: tuple[tuple[int, int], ...]  # every pair that had the winning count (winner included)
    tie_break: str  # the rule that chose among ``ties``
    tokens_before: int  # token count of the whole corpus before this merge
    tokens_after: int
    sequence: tuple[int, ...] = field(repr=False)  # preview token ids after this merge
    forced: bool = False  # True when TrainOptions.force chose this step's pair
    rule_pair: tuple[int, int] | None = None  # the rule's choice (``pair`` unless forced)
    distinct_pairs: int = (
        0  # how many distinct pairs (not blocked) were counted: ``top_pairs`` is the top of them
    )
    tie_count: int = 0  # how many pairs had the winning count (0: ``len(ties)``, set when made)

    def __post_init__(self) -> None:
        if not self.tie_count and self.ties:
            object.__setattr__(self, "tie_count", len(self.ties))

    @property
    def tied(self) -> bool:
        """True when the rule had to choose between pairs of equal count."""
        return self.tie_count > 1

    def _repr_html_(self) -> str:
        """The merge as a card in a notebook (:func:`~bpe_core.tokenizer.notebook_html.merge_html`)."""
        return merge_html(
            index=self.index,
            left=(self.pair[0], self.left),
            right=(self.pair[1], self.right),
            new_id=self.new_id,
            count=self.count,
            replaced=self.replaced,
            tokens_before=self.tokens_before,
            tokens_after=self.tokens_after,
        )


# Why training stopped; ``Trainer.stop_reason`` holds one of these.
STOP_VOCAB_SIZE = "reached the requested vocab size"
STOP_NO_PAIRS = "no pair of adjacent tokens is left to merge"
STOP_NO_PAIRS_IN_CHUNKS = (
    "every chunk is one token: no pair is left inside a chunk, and pairs across chunks (where the "
    "pre-tokenizer or a special token cuts the text) are never counted"
)
STOP_MIN_FREQUENCY = "the most frequent pair occurs fewer times than min_frequency"
STOP_ONLY_BLOCKED = "every pair of adjacent tokens left is blocked"


def no_pairs_reason(chunk_counts: Mapping[str, int], special_counts: Mapping[str, int]) -> str:
    """Why no pair is left: the text is one token (one chunk), or every chunk is one token.

    >>> no_pairs_reason({"low": 1}, {}) == STOP_NO_PAIRS
    True
    >>> no_pairs_reason({"low": 1, " low": 2}, {}) == STOP_NO_PAIRS_IN_CHUNKS
    True
    """
    pieces = sum(chunk_counts.values()) + sum(special_counts.values())
    return STOP_NO_PAIRS_IN_CHUNKS if pieces > 1 else STOP_NO_PAIRS
