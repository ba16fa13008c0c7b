"""Tokenizers, the second stage: text to ids and back.

- :mod:`.textbook`: :func:`textbook_encode`, encoding as a lesson states it (read it first);
- :mod:`.bpe`: :class:`Tokenizer`, byte-level BPE (a vocabulary, ordered
  merges, special tokens and a split pattern);
- :mod:`.streaming`: encoding an iterable of text pieces lazily (``Tokenizer.encode_iterable``);
- :mod:`.byte_merges`: vocab and merges as byte strings (``Tokenizer.from_merges``);
- :mod:`.char_baseline`: :class:`CharTokenizer`, one id per character, the
  baseline BPE is compared with;
- :mod:`.merge_order`: the same merges applied in another order (the merge-order lesson).
"""

from .bpe import Tokenizer, TokenSpan
from .char_baseline import CharTokenizer
from .textbook import textbook_encode

__all__ = ["CharTokenizer", "TokenSpan", "Tokenizer", "textbook_encode"]
