"""Unigram in one place: the model, its lattice, its trainer (textbook and fast), the round records and
the files.

A facade, as ``tokenizers.models.Unigram`` and ``tokenizers.trainers.UnigramTrainer`` sit side by side
in Hugging Face's library: the code stays in its layer, this module names it.  Read in this order:

- the text: :mod:`bpe_core.tokenizer.unigram_normalizer` (:class:`SentencePieceNormalizer`, spaces as
  :data:`SPACE` ``▁``);
- the lattice: :mod:`bpe_core.tokenizer.unigram_lattice` (:func:`lattice`, a word's every
  segmentation; :func:`viterbi`, the best one; ties by :data:`TIE_RULE`);
- the model: :mod:`bpe_core.tokenizer.unigram` (:class:`UnigramTokenizer`, SentencePiece's);
- the records: :mod:`bpe_core.training.unigram_records` (:class:`UnigramOptions`, what a run is asked,
  its defaults such as :data:`SHRINKING_FACTOR`; :class:`UnigramSeed`, :class:`UnigramRound` and
  :class:`PieceLoss`, what each round says);
- the loss, as a lesson states it: :mod:`bpe_core.training.unigram_loss` (:func:`corpus_loss`,
  :func:`loss_increases_textbook`: every word re-cut for every piece);
- the loss, fast: :mod:`bpe_core.training.unigram_fast` (:func:`loss_increases_fast`: the same
  increases, only the words whose best cut uses the piece re-cut);
- the trainer: :mod:`bpe_core.training.unigram` (:class:`UnigramTrainer`, :func:`unigram_steps`,
  :func:`train_unigram`: seed, EM, loss increases, pruning, round by round);
- the files: :mod:`bpe_core.formats.unigram_json` (``tokenizer.json`` with a Unigram model) and
  :mod:`bpe_core.formats.sentencepiece_model` (SentencePiece's ``*.model``).

>>> from bpe_core.unigram import UnigramOptions, train_unigram
>>> train_unigram("low lower lowest " * 20, vocab_size=12).encode_pieces("lowest low")
['▁lowe', 's', 't', '▁low']
>>> UnigramOptions(vocab_size=100).shrinking_factor == SHRINKING_FACTOR == 0.75
True
"""

from .formats.sentencepiece_model import read_sentencepiece_model, sentencepiece_from_bytes
from .formats.unigram_json import read_unigram_json_text, unigram_tokenizer_json
from .tokenizer.unigram import UnigramTokenizer
from .tokenizer.unigram_lattice import TIE_RULE, TIE_RULE_HELP, Edge, Lattice, Segmentation, lattice, viterbi
from .tokenizer.unigram_normalizer import SPACE, SentencePieceNormalizer
from .training.unigram import UNIGRAM_METHODS, UnigramTrainer, train_unigram, unigram_steps
from .training.unigram_fast import loss_increases_fast
from .training.unigram_loss import corpus_loss, loss_increases_textbook
from .training.unigram_records import (
    PRUNE_TIE_RULE,
    SEED_RULE,
    SHRINKING_FACTOR,
    PieceLoss,
    UnigramOptions,
    UnigramRound,
    UnigramSeed,
)

__all__ = [
    "PRUNE_TIE_RULE",
    "SEED_RULE",
    "SHRINKING_FACTOR",
    "SPACE",
    "TIE_RULE",
    "TIE_RULE_HELP",
    "UNIGRAM_METHODS",
    "Edge",
    "Lattice",
    "PieceLoss",
    "Segmentation",
    "SentencePieceNormalizer",
    "UnigramOptions",
    "UnigramRound",
    "UnigramSeed",
    "UnigramTokenizer",
    "UnigramTrainer",
    "corpus_loss",
    "lattice",
    "loss_increases_fast",
    "loss_increases_textbook",
    "read_sentencepiece_model",
    "read_unigram_json_text",
    "sentencepiece_from_bytes",
    "train_unigram",
    "unigram_steps",
    "unigram_tokenizer_json",
    "viterbi",
]
