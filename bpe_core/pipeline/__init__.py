"""HF ``tokenizers``' pipeline, stage by stage: how ``tokenizer.json`` files say a text becomes ids.

A layer of its own between the tokenizers (which it uses for its models' merge rules) and the file formats
(which build pipelines from ``tokenizer.json``).  Read in the order a text goes through:

- :mod:`.aligned`: :class:`Aligned`, a text that remembers where each character came from;
- :mod:`.normalizers`: BertNormalizer, NFC/NFD/NFKC/NFKD, Lowercase, StripAccents, Replace, Prepend, Strip,
  Precompiled (SentencePiece's charsmap), Nmt, Sequence;
- :mod:`.added_tokens`: strings found as written before anything else (``[CLS]``, ``<s>``);
- :mod:`.pre_tokenizers`: BertPreTokenizer, Whitespace, WhitespaceSplit, Metaspace, ByteLevel, Split,
  Punctuation, Digits, Sequence;
- :mod:`.models`: WordPiece, Unigram, BPE over characters with byte fallback;
- :mod:`.post_processors`: BertProcessing, RobertaProcessing, TemplateProcessing (only with
  ``with_special_tokens=True``);
- :mod:`.decoders`: ByteLevel, WordPiece, Metaspace, ByteFallback, Fuse, Strip, Replace, Sequence;
- :mod:`.tokenizer`: :class:`PipelineTokenizer`, all of them in order.
"""

from .added_tokens import AddedToken
from .aligned import Aligned
from .tokenizer import PipelineTokenizer, Stage

__all__ = ["AddedToken", "Aligned", "PipelineTokenizer", "Stage"]
