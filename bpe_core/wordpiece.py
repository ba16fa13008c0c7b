"""WordPiece in one place: the model, its trainer (textbook and fast), the step records and the files.

A facade, as ``tokenizers.models.WordPiece`` and ``tokenizers.trainers.WordPieceTrainer`` sit side by
side in Hugging Face's library: the code stays in its layer, this module names it.  Read in this order:

- the words: :mod:`bpe_core.tokenizer.wordpiece_words` (:func:`words`, :func:`word_counts`: BERT's
  pre-tokenizer, cuts at spaces and punctuation);
- the model: :mod:`bpe_core.tokenizer.wordpiece` (:class:`WordPieceTokenizer`: greedy longest match,
  the pieces inside a word with ``##``);
- the records: :mod:`bpe_core.training.wordpiece_records` (:class:`WordPieceOptions`, what a run is
  asked; :class:`WordPieceStep` and :class:`PairScore`, what each merge says; the tie rules);
- the trainer, as a lesson states it: :mod:`bpe_core.training.wordpiece_textbook`
  (:func:`textbook_wordpiece_steps`: every pair's score count(ab) / (count(a) count(b)) recounted at
  each step);
- the trainer, fast: :mod:`bpe_core.training.wordpiece_fast` (:func:`fast_wordpiece_steps`: the same
  steps, only the touched words recounted);
- the run: :mod:`bpe_core.training.wordpiece` (:class:`WordPieceTrainer`, :func:`wordpiece_steps`,
  :func:`train_wordpiece`);
- the files: :mod:`bpe_core.formats.wordpiece_files` (BERT's ``vocab.txt``, ``tokenizer.json`` with
  a WordPiece model).

>>> from bpe_core.wordpiece import WordPieceOptions, wordpiece_steps
>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> [s.token for s in wordpiece_steps(text, vocab_size=15)]
['##gs', 'hu', 'hugs']
>>> WordPieceOptions(vocab_size=100).tie_break
'first-seen'
"""

from .formats.wordpiece_files import (
    BERT_VOCAB_TXT,
    bert_vocab_txt,
    read_bert_vocab,
    read_wordpiece_json,
    wordpiece_tokenizer_json,
    write_wordpiece,
)
from .tokenizer.wordpiece import BERT_SPECIAL_TOKENS, PREFIX, UNK_TOKEN, WordPieceTokenizer
from .tokenizer.wordpiece_words import Word, word_counts, words
from .training.wordpiece import WORDPIECE_METHODS, WordPieceTrainer, train_wordpiece, wordpiece_steps
from .training.wordpiece_fast import fast_wordpiece_steps
from .training.wordpiece_records import WORDPIECE_TIE_BREAKS, PairScore, WordPieceOptions, WordPieceStep
from .training.wordpiece_textbook import textbook_wordpiece_steps

__all__ = [
    "BERT_SPECIAL_TOKENS",
    "BERT_VOCAB_TXT",
    "PREFIX",
    "UNK_TOKEN",
    "WORDPIECE_METHODS",
    "WORDPIECE_TIE_BREAKS",
    "PairScore",
    "Word",
    "WordPieceOptions",
    "WordPieceStep",
    "WordPieceTokenizer",
    "WordPieceTrainer",
    "bert_vocab_txt",
    "fast_wordpiece_steps",
    "read_bert_vocab",
    "read_wordpiece_json",
    "textbook_wordpiece_steps",
    "train_wordpiece",
    "word_counts",
    "wordpiece_steps",
    "wordpiece_tokenizer_json",
    "words",
    "write_wordpiece",
]
