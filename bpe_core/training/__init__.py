"""Training, the third stage: learn merges from a text, one :class:`MergeStep` at a time.

Read in this order:

- :mod:`.textbook`: the algorithm as a lesson states it (count, choose, merge, yield);
- :mod:`.incremental`: the fast trainer, which yields exactly the same steps;
- :mod:`.tie_rules`: who wins when pairs have equal counts;
- :mod:`.records`: what each step says; :mod:`.options`: what a run is asked to do;
- :mod:`.overrides`: blocked and forced pairs ("What if?"); :mod:`.state`: where a run starts,
  and how a branch rewinds to an earlier step;
- :mod:`.corpus` and :mod:`.preview`: the text as chunk counts, and the part a student watches;
- :mod:`.corpus_files` and :mod:`.corpus_dask`: the chunk counts of files, read in blocks, in
  processes or on a Dask cluster;
- :mod:`.trainer`: :class:`Trainer`, :func:`train_steps` and :func:`train`.
"""

from .options import MAX_VOCAB_SIZE, TrainOptions
from .records import (
    STOP_MIN_FREQUENCY,
    STOP_NO_PAIRS,
    STOP_NO_PAIRS_IN_CHUNKS,
    STOP_ONLY_BLOCKED,
    STOP_VOCAB_SIZE,
    MergeStep,
    PairCount,
)
from .tie_rules import TIE_BREAK_HELP, TIE_BREAKS
from .trainer import METHODS, Trainer, train, train_steps

__all__ = [
    "MAX_VOCAB_SIZE",
    "METHODS",
    "STOP_MIN_FREQUENCY",
    "STOP_NO_PAIRS",
    "STOP_NO_PAIRS_IN_CHUNKS",
    "STOP_ONLY_BLOCKED",
    "STOP_VOCAB_SIZE",
    "TIE_BREAKS",
    "TIE_BREAK_HELP",
    "MergeStep",
    "PairCount",
    "TrainOptions",
    "Trainer",
    "train",
    "train_steps",
]
