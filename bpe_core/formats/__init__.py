"""File formats, the fourth stage: save and load tokenizers in every format the field uses.

Formats (one module each):

========== ============================================ =================
name       files                                        module
========== ============================================ =================
gpt2       vocab.json, merges.txt, special_tokens_map,  :mod:`.gpt2`
           encoding.json
hf-json    tokenizer.json (HF ``tokenizers``)           :mod:`.hf_json`
tiktoken   tokenizer.tiktoken (rank file),              :mod:`.tiktoken`
           encoding.json
minbpe     tokenizer.model (karpathy/minbpe)            :mod:`.minbpe`
vocab-txt  vocab.txt (human-readable, write only)       :mod:`.vocab_txt`
bert-vocab BERT's vocab.txt (WordPiece, a token a line) :mod:`.wordpiece_files`
wordpiece- tokenizer.json with a WordPiece model        :mod:`.wordpiece_files`
json
unigram-   tokenizer.json with a Unigram model          :mod:`.unigram_json`
json
sentence-  SentencePiece ``*.model`` (Unigram; read     :mod:`.sentencepiece_model`
piece      through sentencepiece's ModelProto)
========== ============================================ =================

Around them: :mod:`.safe_io` (reading files safely), :mod:`.data` (what every
file holds), :mod:`.encoding_config` (the pattern and special tokens beside
files that cannot hold them), :mod:`.detect` (which format a path holds), :mod:`.load` and
:mod:`.save`.  :mod:`.local_caches` finds the tokenizers already on the machine
(tiktoken's cache, named through :mod:`.tiktoken_registry`, and the Hugging Face
hub cache).

:func:`save_tokenizer` writes gpt2, hf-json, tiktoken and vocab-txt into a
directory.  :func:`load_tokenizer` takes a directory (``tokenizer.json`` is
preferred, as it records the split pattern; then ``vocab.json`` +
``merges.txt``; then a single ``*.tiktoken`` or ``*.model``) or any one file:
``vocab.json`` or ``merges.txt`` (its partner is found next to it, also as
``gpt2_vocab.json`` / ``gpt2_merges.txt``), ``tokenizer.json``, ``*.tiktoken``,
``*.model``.

The split pattern: ``tokenizer.json`` and minbpe files record it; for
``vocab.json`` + ``merges.txt`` and ``.tiktoken`` files, which do not, it is
``pattern=``, or else what ``encoding.json`` beside them says (written with
them; :mod:`.encoding_config`; it gives a ``.tiktoken`` file its special
tokens too), or else :data:`DEFAULT_PATTERN` (``"gpt2"``, right for GPT-2's
files; pass ``"cl100k"`` or ``"o200k"`` for those tiktoken files), with a
note in ``notes=`` saying so.  A ``pattern=`` given always wins.  Ids are
kept as the files say.

Files above :data:`~.safe_io.MAX_FILE_BYTES` (128 MiB) are refused
before reading; any bad content is a :class:`TokenizerFileError` naming the
file, the line or key, and the problem.

>>> import tempfile
>>> from bpe_core import train
>>> tok = train("the cat in the hat<|eot|>", vocab_size=262, special_tokens=["<|eot|>"])
>>> with tempfile.TemporaryDirectory() as d:
...     names = sorted(p.name for p in save_tokenizer(tok, d))
...     back = load_tokenizer(d)
...     from_tiktoken = load_tokenizer(f"{d}/tokenizer.tiktoken")  # encoding.json gives its special token
>>> names  # doctest: +NORMALIZE_WHITESPACE
['encoding.json', 'merges.txt', 'special_tokens_map.json', 'tokenizer.json', 'tokenizer.tiktoken',
 'vocab.json', 'vocab.txt']
>>> text = "the hat<|eot|>"
>>> back.encode(text) == tok.encode(text) == from_tiktoken.encode(text)
True
"""

from .data import TokenizerData
from .detect import detect_format
from .encoding_config import ENCODING_JSON, unrecorded
from .load import (
    DEFAULT_PATTERN,
    PIPELINE_FORMATS,
    SCHEME_NAMES,
    SCHEME_READERS,
    OwnStagesError,
    load_tokenizer,
    read_tokenizer_data,
)
from .safe_io import MAX_FILE_BYTES, TokenizerFileError
from .save import FORMATS, SAVE_FORMATS, save_tokenizer, write_format

__all__ = [
    "DEFAULT_PATTERN",
    "ENCODING_JSON",
    "FORMATS",
    "MAX_FILE_BYTES",
    "PIPELINE_FORMATS",
    "SAVE_FORMATS",
    "SCHEME_NAMES",
    "SCHEME_READERS",
    "OwnStagesError",
    "TokenizerData",
    "TokenizerFileError",
    "detect_format",
    "load_tokenizer",
    "read_tokenizer_data",
    "save_tokenizer",
    "unrecorded",
    "write_format",
]
