"""bpe_core: a byte-level BPE engine that trains as a generator of merge steps.

>>> from bpe_core import train_steps
>>> steps = train_steps("aaabdaaabac", vocab_size=259, pattern="none", tie_break="lowest-id")
>>> [(s.left + s.right, s.count, s.replaced) for s in steps]
[(b'aa', 4, 2), (b'ab', 2, 2), (b'aaab', 2, 2)]
>>> steps.stop_reason
'reached the requested vocab size'
"""

from __future__ import annotations

from collections.abc import Iterable

from .byte_level import BYTE_TO_UNICODE, from_unicode_string, readable, to_unicode_string
from .char_tokenizer import CharTokenizer
from .file_io import TokenizerFileError
from .files import load_tokenizer, save_tokenizer
from .merge_step import STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_VOCAB_SIZE, MergeStep, PairCount
from .naive_trainer import NaiveTrainer
from .pretokenizer import PATTERNS, PreTokenizer, pattern_name
from .step_trainer import MAX_VOCAB_SIZE, StepTrainer
from .tie_break import TIE_BREAK_HELP, TIE_BREAKS
from .tokenizer import Tokenizer, TokenSpan
from .trainer import MergeTrainer

__all__ = [
    "BYTE_TO_UNICODE",
    "MAX_VOCAB_SIZE",
    "PATTERNS",
    "STOP_MIN_FREQUENCY",
    "STOP_NO_PAIRS",
    "STOP_VOCAB_SIZE",
    "TIE_BREAKS",
    "TIE_BREAK_HELP",
    "CharTokenizer",
    "MergeStep",
    "MergeTrainer",
    "NaiveTrainer",
    "PairCount",
    "PreTokenizer",
    "StepTrainer",
    "TokenSpan",
    "Tokenizer",
    "TokenizerFileError",
    "from_unicode_string",
    "load_tokenizer",
    "naive_train_steps",
    "pattern_name",
    "readable",
    "save_tokenizer",
    "to_unicode_string",
    "train",
    "train_steps",
]


def train_steps(
    text: str,
    *,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Iterable[str] = (),
    tie_break: str = "lexicographic",
    min_frequency: int = 1,
    top_k: int = 20,
    preview_chars: int = 2000,
    workers: int | None = None,
) -> MergeTrainer:
    """Train byte-level BPE on ``text``, one :class:`MergeStep` per ``next()``.

    Options (each checked; a bad value is a ValueError that says how to fix it):

    - ``vocab_size``: 256 bytes + special tokens + merges; training stops there,
      or earlier when no pair is left or the best count is below
      ``min_frequency``.  ``stop_reason`` on the returned trainer says which.
    - ``pattern``: pre-tokenization, ``"none"``, ``"whitespace"``, ``"gpt2"``,
      ``"gpt4"`` (``"cl100k"``), ``"o200k"`` or a custom regex (see
      :mod:`bpe_core.pretokenizer`).
    - ``special_tokens``: strings cut out of the text before pre-tokenization,
      never merged nor counted; ids 256, 257, ... in the order given.
    - ``tie_break``: how equal counts are decided, one of :data:`TIE_BREAKS`
      (see :mod:`bpe_core.tie_break`).
    - ``top_k``: rows of the pair-count table in each step; ``preview_chars``:
      how much of the text the ``sequence`` of each step covers.
    - ``workers``: processes for pre-tokenizing texts of 4M+ characters
      (default: up to 2).
    """
    return MergeTrainer(
        text,
        vocab_size=vocab_size,
        pattern=pattern,
        special_tokens=special_tokens,
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=top_k,
        preview_chars=preview_chars,
        workers=workers,
    )


def naive_train_steps(
    text: str,
    *,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Iterable[str] = (),
    tie_break: str = "lexicographic",
    min_frequency: int = 1,
    top_k: int = 20,
    preview_chars: int = 2000,
) -> NaiveTrainer:
    """Same as :func:`train_steps` with the textbook trainer (recount everything each step)."""
    return NaiveTrainer(
        text,
        vocab_size=vocab_size,
        pattern=pattern,
        special_tokens=special_tokens,
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=top_k,
        preview_chars=preview_chars,
        workers=1,
    )


def train(
    text: str,
    *,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Iterable[str] = (),
    tie_break: str = "lexicographic",
    min_frequency: int = 1,
    workers: int | None = None,
) -> Tokenizer:
    """Train and return the :class:`Tokenizer` (no step records kept; same merges as :func:`train_steps`)."""
    trainer = MergeTrainer(
        text,
        vocab_size=vocab_size,
        pattern=pattern,
        special_tokens=special_tokens,
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=0,
        preview_chars=0,
        records=False,
        workers=workers,
    )
    return trainer.run().tokenizer()
