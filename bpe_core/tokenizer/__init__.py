"""Tokenizers, the second stage: text to ids and back.

- :mod:`.textbook`: :func:`textbook_encode`, encoding as a lesson states it (read it first);
- :mod:`.bpe`: :class:`Tokenizer`, byte-level BPE (a vocabulary, ordered
  merges, special tokens and a split pattern);
- :mod:`.streaming`: encoding an iterable of text pieces lazily (``Tokenizer.encode_iterable``);
- :mod:`.byte_merges`: vocab and merges as byte strings (``Tokenizer.from_merges``);
- :mod:`.char_baseline`: :class:`CharTokenizer`, one id per character, the
  baseline BPE is compared with;
- :mod:`.merge_order`: the same merges applied in another order (the merge-order lesson);
- :mod:`.scheme`: what every scheme's tokenizer offers (:class:`SchemeTokenizer`), and what a round
  trip loses (:class:`Loss`);
- :mod:`.wordpiece`: :class:`WordPieceTokenizer`, greedy longest match with ``##`` (HF's WordPiece),
  after :mod:`.wordpiece_words`, BERT's pre-tokenizer;
- :mod:`.unigram`: :class:`UnigramTokenizer`, SentencePiece's model (Viterbi over pieces with log
  probabilities), after :mod:`.unigram_normalizer` (SentencePiece's normalization); :mod:`.unigram_lattice`:
  a word's every segmentation and the best one;
- :mod:`.notebook_html`: what a notebook shows of the engine's records (``_repr_html_``: static HTML).
- :mod:`.piece_bpe`: :class:`PieceBpeTokenizer`, SentencePiece's BPE over characters with byte fallback
  (Llama-2's ``.model``), and the merge rule as a lesson states it and fast.
"""

from .bpe import Tokenizer, TokenSpan, TokenSpans
from .char_baseline import CharTokenizer
from .piece_bpe import PieceBpeTokenizer
from .scheme import Loss, SchemeTokenizer, lost
from .textbook import textbook_encode
from .unigram import UnigramTokenizer
from .wordpiece import WordPieceTokenizer

__all__ = [
    "CharTokenizer",
    "Loss",
    "PieceBpeTokenizer",
    "SchemeTokenizer",
    "TokenSpan",
    "TokenSpans",
    "Tokenizer",
    "UnigramTokenizer",
    "WordPieceTokenizer",
    "lost",
    "textbook_encode",
]
