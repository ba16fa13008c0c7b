"""What a WordPiece run is asked to do (:class:`WordPieceOptions`), and what each step says
(:class:`WordPieceStep`).

>>> WordPieceOptions(vocab_size=100).special_tokens
('[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]')
>>> WordPieceOptions(vocab_size=3)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: vocab_size is 3, below the 5 special tokens; ask for at least 6 (the special tokens and ...

Ties: when several pairs have the highest score (exactly: scores are compared as fractions), the
rule ``tie_break`` decides, one of :data:`WORDPIECE_TIE_BREAKS`:

- ``first-seen`` (the default, the HF course's rule): the pair whose first occurrence comes first,
  reading the words in the order they first occur in the text, each from left to right;
- ``alphabetical``: the smallest ``(left, right)`` in code-point order.

The same rule orders the pairs of equal count in the table by count.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..pretokenizer import check_special_tokens
from ..tokenizer.wordpiece import BERT_SPECIAL_TOKENS, MAX_WORD_CHARS, PREFIX, UNK_TOKEN
from .options import MAX_VOCAB_SIZE
from .records import STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_VOCAB_SIZE

WORDPIECE_TIE_BREAKS: tuple[str, ...] = ("first-seen", "alphabetical")
__all__ = ["STOP_MIN_FREQUENCY", "STOP_NO_PAIRS", "STOP_VOCAB_SIZE"]  # the stop reasons are BPE's


@dataclass(frozen=True, slots=True)
class PairScore:
    """One candidate pair: how often it occurs (``count``), how often each of its tokens does, and its
    score ``count / (left_count * right_count)``.  (A record, not a named tuple, whose ``count`` would
    hide ``tuple.count``.)"""

    left: str
    right: str
    count: int
    left_count: int
    right_count: int

    @property
    def exact_score(self) -> Fraction:
        return Fraction(self.count, self.left_count * self.right_count)

    @property
    def score(self) -> float:
        return self.count / (self.left_count * self.right_count)


@dataclass(frozen=True, slots=True)
class WordPieceStep:
    """What happened at one WordPiece merge.

    The chosen pair ``(left, right)`` had the highest ``score`` = ``count / (left_count *
    right_count)``: how often the two tokens stand side by side, over how often each occurs at all.
    ``top_by_score`` is the table the choice was made on (winner first), ``top_by_count`` the same
    pairs as BPE would rank them (by count); ``bpe_pair`` is the pair BPE would have merged, so the
    step shows where the two disagree.  ``ties`` are all pairs with the winning score (winner first),
    decided by ``tie_break``.  The new token is ``left`` + ``right`` without its ``##``; ``added`` is
    False when another pair had made it already (then the vocabulary does not grow).  ``replaced``
    is how many places were merged (left to right, without overlap; words weighted by their count),
    so ``tokens_after == tokens_before - replaced``.  ``top_*`` and ``bpe_pair`` are empty without
    records (plain training).
    """

    index: int  # 1-based merge number
    left: str
    right: str
    token: str
    new_id: int
    added: bool
    count: int
    left_count: int
    right_count: int
    replaced: int
    tokens_before: int
    tokens_after: int
    ties: tuple[tuple[str, str], ...]
    tie_break: str
    top_by_score: tuple[PairScore, ...] = ()
    top_by_count: tuple[PairScore, ...] = ()
    bpe_pair: tuple[str, str] | None = None

    @property
    def pair(self) -> tuple[str, str]:
        return (self.left, self.right)

    @property
    def score(self) -> float:
        return self.count / (self.left_count * self.right_count)

    @property
    def tied(self) -> bool:
        """True when the rule had to choose between pairs of equal score."""
        return len(self.ties) > 1


@dataclass(frozen=True, slots=True)
class WordPieceOptions:
    """The options of a WordPiece run (each a ValueError that says how to fix it when wrong).

    - ``vocab_size``: special tokens + the alphabet (each word's first characters, and the other
      characters with ``##``) + merges; training stops there, or earlier when no pair is left or
      none occurs ``min_frequency`` times;
    - ``special_tokens`` (ids 0, 1, ... in this order) must include ``unk_token``;
    - ``prefix``: the continuation mark; ``max_word_chars``: longer words encode as ``unk_token``;
    - ``tie_break``: one of :data:`WORDPIECE_TIE_BREAKS`; ``top_k``: rows of each step's tables.
    """

    vocab_size: int
    special_tokens: tuple[str, ...] = BERT_SPECIAL_TOKENS
    unk_token: str = UNK_TOKEN
    prefix: str = PREFIX
    max_word_chars: int = MAX_WORD_CHARS
    tie_break: str = "first-seen"
    min_frequency: int = 1
    top_k: int = 20

    def __post_init__(self) -> None:
        specials = tuple(check_special_tokens(self.special_tokens))
        object.__setattr__(self, "special_tokens", specials)
        if self.unk_token not in specials:
            raise ValueError(
                f"unk_token {self.unk_token!r} is not among the special tokens {list(specials)}; add it "
                "(a word that cannot be cut becomes that token)"
            )
        if isinstance(self.vocab_size, bool) or not isinstance(self.vocab_size, int):
            raise ValueError(f"vocab_size must be a whole number, not {self.vocab_size!r}")
        if not len(specials) < self.vocab_size <= MAX_VOCAB_SIZE:
            side = "below" if self.vocab_size <= len(specials) else "above"
            raise ValueError(
                f"vocab_size is {self.vocab_size}, {side} the {len(specials)} special tokens; ask for at "
                f"least {len(specials) + 1} (the special tokens and the text's alphabet) and at most "
                f"{MAX_VOCAB_SIZE:,}"
            )
        if not isinstance(self.prefix, str) or not self.prefix:
            raise ValueError("prefix (the continuation mark) must be a non-empty string such as '##'")
        for name, value, low in (
            ("max_word_chars", self.max_word_chars, 1),
            ("min_frequency", self.min_frequency, 1),
            ("top_k", self.top_k, 0),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be a whole number of at least {low}, not {value!r}")
        if self.tie_break not in WORDPIECE_TIE_BREAKS:
            raise ValueError(
                f"tie_break {self.tie_break!r} is unknown for WordPiece; use one of "
                f"{', '.join(WORDPIECE_TIE_BREAKS)}"
            )

    def replace(self, **changes: Any) -> WordPieceOptions:
        """A copy with some options changed (checked again, so any value may be given)."""
        return dataclasses.replace(self, **changes)

    def initial_vocab(self, word_counts: dict[str, int]) -> list[str]:
        """The special tokens, then the alphabet in code-point order (``##`` characters sort first, as in
        the HF course's code); a ValueError when ``vocab_size`` cannot hold them.

        >>> WordPieceOptions(vocab_size=20, special_tokens=("[UNK]",)).initial_vocab({"hug": 2, "pun": 1})
        ['[UNK]', '##g', '##n', '##u', 'h', 'p']
        """
        if not word_counts:
            raise ValueError(
                "the text has no words (only white space, or nothing): give WordPiece a text with words"
            )
        alphabet = {w[0] for w in word_counts} | {self.prefix + c for w in word_counts for c in w[1:]}
        vocab = list(self.special_tokens) + sorted(alphabet - set(self.special_tokens))
        if len(vocab) > self.vocab_size:
            raise ValueError(
                f"vocab_size is {self.vocab_size}, smaller than the {len(self.special_tokens)} special "
                f"tokens + {len(vocab) - len(self.special_tokens)} characters of the text's alphabet; "
                f"ask for at least {len(vocab)}"
            )
        return vocab

    def first_split(self, word: str) -> list[str]:
        """``word`` as training starts it: its first character, then each other one with the prefix.

        >>> WordPieceOptions(vocab_size=9).first_split("hugs")
        ['h', '##u', '##g', '##s']
        """
        return [word[0], *(self.prefix + c for c in word[1:])]

    def joined(self, left: str, right: str) -> str:
        """The token a merge makes: ``right`` loses its prefix (``hu`` + ``##g`` -> ``hug``)."""
        return left + right[len(self.prefix) :]
