"""bpe_core: a byte-level BPE engine that trains as a generator of merge steps, with WordPiece,
Unigram and characters beside it (:func:`train_scheme`, one entry point for the four).

>>> from bpe_core import train_steps
>>> steps = train_steps("aaabdaaabac", vocab_size=259, pattern="none", tie_break="lowest-id")
>>> [(s.left + s.right, s.count, s.replaced) for s in steps]
[(b'aa', 4, 2), (b'ab', 2, 2), (b'aaab', 2, 2)]
>>> steps.stop_reason
'reached the requested vocab size'

The package reads top to bottom, one layer per folder; each imports only from
the layers above it in this list:

1. :mod:`bpe_core.primitives` (count pairs, merge a pair) and :mod:`bpe_core.byte_level`;
2. :mod:`bpe_core.pretokenizer`: special tokens and split patterns;
3. :mod:`bpe_core.tokenizer`: :class:`Tokenizer` (encode, decode), the character baseline,
   WordPiece, Unigram and SentencePiece's BPE (:class:`PieceBpeTokenizer`), all with the
   :class:`SchemeTokenizer` interface;
3b. :mod:`bpe_core.pipeline`: HF ``tokenizers``' stages (normalizers, pre-tokenizers, models,
   post-processors, decoders) and :class:`PipelineTokenizer`, which runs them;
4. :mod:`bpe_core.training`: the textbook trainers, the fast ones, and their step records;
5. :mod:`bpe_core.formats`: vocab.json + merges.txt, tokenizer.json, .tiktoken, minbpe, vocab.txt;
6. :mod:`bpe_core.analysis`: compression curves, metrics, the speed lesson, the schemes compared;
7. :mod:`bpe_core.cli`: ``python -m bpe_core``.
"""

from .formats import TokenizerFileError, load_tokenizer, save_tokenizer
from .pipeline import PipelineTokenizer
from .pretokenizer import PATTERNS
from .tokenizer import (
    CharTokenizer,
    Loss,
    PieceBpeTokenizer,
    SchemeTokenizer,
    Tokenizer,
    TokenSpan,
    UnigramTokenizer,
    WordPieceTokenizer,
    lost,
)
from .training import (
    MODELS,
    TIE_BREAKS,
    MergeStep,
    PairCount,
    Trainer,
    TrainOptions,
    train,
    train_scheme,
    train_steps,
    train_unigram,
    train_wordpiece,
    unigram_steps,
    wordpiece_steps,
)

__all__ = [
    "MODELS",
    "PATTERNS",
    "TIE_BREAKS",
    "CharTokenizer",
    "Loss",
    "MergeStep",
    "PairCount",
    "PieceBpeTokenizer",
    "PipelineTokenizer",
    "SchemeTokenizer",
    "TokenSpan",
    "Tokenizer",
    "TokenizerFileError",
    "TrainOptions",
    "Trainer",
    "UnigramTokenizer",
    "WordPieceTokenizer",
    "load_tokenizer",
    "lost",
    "save_tokenizer",
    "train",
    "train_scheme",
    "train_steps",
    "train_unigram",
    "train_wordpiece",
    "unigram_steps",
    "wordpiece_steps",
]
