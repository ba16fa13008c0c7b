"""Byte-level BPE in one place: the model, its trainer (textbook and fast), the step records, where a
merge happened, and the two lessons on the model (the merge order, an encoding watched step by step).

A facade, as ``tokenizers.models.BPE`` and ``tokenizers.trainers.BpeTrainer`` sit side by side in
Hugging Face's library: the code stays in its layer, this module names it.  Read in this order:

- the model: :mod:`bpe_core.tokenizer.textbook` (:func:`textbook_encode`, encoding as a lesson states
  it), then :mod:`bpe_core.tokenizer.bpe` (:class:`Tokenizer`: a vocabulary, ordered merges, special
  tokens and a split pattern);
- the records: :mod:`bpe_core.training.options` (:class:`TrainOptions`, what a run is asked),
  :mod:`bpe_core.training.records` (:class:`MergeStep`, :class:`PairCount`, what each merge says, and
  why a run stops) and :mod:`bpe_core.training.tie_rules` (:data:`TIE_BREAKS`, who wins equal counts);
- the trainer, as a lesson states it: :mod:`bpe_core.training.textbook` (:func:`textbook_steps`:
  count every pair, merge the most frequent, repeat);
- the trainer, fast: :mod:`bpe_core.training.incremental` (:func:`incremental_steps`: the same steps,
  the pair counts kept up to date);
- the run: :mod:`bpe_core.training.trainer` (:class:`Trainer`, :func:`train_steps`, :func:`train`);
- where a merge happened: :mod:`bpe_core.training.places` (:class:`TextReplay`, :class:`TextPlace`);
- the lessons: :mod:`bpe_core.tokenizer.merge_order` (the same merges in another order) and
  :mod:`bpe_core.tokenizer.encode_trace` (:func:`trace_encode`: a text encoded one merge at a time);
- the files: :mod:`bpe_core.formats` (``vocab.json`` + ``merges.txt``, ``tokenizer.json``,
  ``.tiktoken``, minbpe; :func:`~bpe_core.formats.load_tokenizer`, :func:`~bpe_core.formats.save_tokenizer`).

>>> from bpe_core.bpe import TrainOptions, train_steps
>>> [s.left + s.right for s in train_steps("aaabdaaabac", vocab_size=258, pattern="none")]
[b'aa', b'aaa']
>>> TrainOptions(vocab_size=300).tie_break
'lexicographic'
"""

from .tokenizer.bpe import Tokenizer, TokenSpan
from .tokenizer.encode_trace import (
    MAX_TRACE_BYTES,
    MAX_TRACE_STEPS,
    Chunk,
    EncodeStep,
    EncodeTrace,
    MergePlace,
    TraceReplay,
    trace_encode,
)
from .tokenizer.merge_order import (
    OrderChange,
    OrderSearch,
    abc_tokenizer,
    reordered,
    reversed_order,
    shuffled_order,
    swapped_order,
    swaps_that_change,
)
from .tokenizer.textbook import textbook_encode
from .training.incremental import incremental_steps
from .training.options import MAX_VOCAB_SIZE, TrainOptions
from .training.places import TextPlace, TextReplay
from .training.records import (
    STOP_MIN_FREQUENCY,
    STOP_NO_PAIRS,
    STOP_NO_PAIRS_IN_CHUNKS,
    STOP_ONLY_BLOCKED,
    STOP_VOCAB_SIZE,
    MergeStep,
    PairCount,
)
from .training.textbook import textbook_steps
from .training.tie_rules import TIE_BREAK_HELP, TIE_BREAKS
from .training.trainer import METHODS, Method, Trainer, train, train_steps

__all__ = [
    "MAX_TRACE_BYTES",
    "MAX_TRACE_STEPS",
    "MAX_VOCAB_SIZE",
    "METHODS",
    "STOP_MIN_FREQUENCY",
    "STOP_NO_PAIRS",
    "STOP_NO_PAIRS_IN_CHUNKS",
    "STOP_ONLY_BLOCKED",
    "STOP_VOCAB_SIZE",
    "TIE_BREAKS",
    "TIE_BREAK_HELP",
    "Chunk",
    "EncodeStep",
    "EncodeTrace",
    "MergePlace",
    "MergeStep",
    "Method",
    "OrderChange",
    "OrderSearch",
    "PairCount",
    "TextPlace",
    "TextReplay",
    "TokenSpan",
    "Tokenizer",
    "TraceReplay",
    "TrainOptions",
    "Trainer",
    "abc_tokenizer",
    "incremental_steps",
    "reordered",
    "reversed_order",
    "shuffled_order",
    "swapped_order",
    "swaps_that_change",
    "textbook_encode",
    "textbook_steps",
    "trace_encode",
    "train",
    "train_steps",
]
