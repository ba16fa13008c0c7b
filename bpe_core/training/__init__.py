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
- :mod:`.trainer`: :class:`Trainer`, :func:`train_steps` and :func:`train`;
- WordPiece: :mod:`.wordpiece_textbook` (the score count(ab)/(count(a)count(b)), as a lesson states
  it), :mod:`.wordpiece_fast` (the same steps, faster), :mod:`.wordpiece_records` (options, steps,
  tie rules), :mod:`.wordpiece` (:func:`wordpiece_steps`, :func:`train_wordpiece`);
- Unigram: :mod:`.unigram` (:func:`unigram_steps`, :func:`train_unigram`: seed, EM, loss increases,
  pruning, round by round), :mod:`.unigram_loss` (the loss, the textbook increases), :mod:`.unigram_fast`
  (the same increases, faster), :mod:`.unigram_records` (options, rounds, tie and seed rules);
- Code-point BPE with byte fallback (``bpe-char``, SentencePiece's and Llama-2's BPE, HF's ``BpeTrainer``
  rules): :mod:`.char_bpe` (options, steps, the textbook trainer, :func:`char_bpe_steps`,
  :func:`train_char_bpe`), :mod:`.char_bpe_fast` (the same steps, faster);
- :mod:`.schemes`: :func:`train_scheme`, one entry point for bpe, wordpiece, unigram and char.
"""

from .char_bpe import CharBpeOptions, CharBpeStep, CharBpeTrainer, char_bpe_steps, train_char_bpe
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
from .schemes import MODELS, train_scheme
from .tie_rules import TIE_BREAK_HELP, TIE_BREAKS
from .trainer import METHODS, Trainer, train, train_steps
from .unigram import UnigramTrainer, train_unigram, unigram_steps
from .unigram_records import UnigramOptions, UnigramRound, UnigramSeed
from .wordpiece import WordPieceTrainer, train_wordpiece, wordpiece_steps
from .wordpiece_records import WORDPIECE_TIE_BREAKS, WordPieceOptions, WordPieceStep

__all__ = [
    "MAX_VOCAB_SIZE",
    "METHODS",
    "MODELS",
    "STOP_MIN_FREQUENCY",
    "STOP_NO_PAIRS",
    "STOP_NO_PAIRS_IN_CHUNKS",
    "STOP_ONLY_BLOCKED",
    "STOP_VOCAB_SIZE",
    "TIE_BREAKS",
    "TIE_BREAK_HELP",
    "WORDPIECE_TIE_BREAKS",
    "CharBpeOptions",
    "CharBpeStep",
    "CharBpeTrainer",
    "MergeStep",
    "PairCount",
    "TrainOptions",
    "Trainer",
    "UnigramOptions",
    "UnigramRound",
    "UnigramSeed",
    "UnigramTrainer",
    "WordPieceOptions",
    "WordPieceStep",
    "WordPieceTrainer",
    "char_bpe_steps",
    "train",
    "train_char_bpe",
    "train_scheme",
    "train_steps",
    "train_unigram",
    "train_wordpiece",
    "unigram_steps",
    "wordpiece_steps",
]
