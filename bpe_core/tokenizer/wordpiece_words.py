"""How WordPiece cuts a text into words before it cuts words into pieces: BERT's pre-tokenizer.

A word is a run of characters that are neither white space nor punctuation; each punctuation
character is a word of its own; white space only separates words and is dropped.  This is what
HF `tokenizers`' ``BertPreTokenizer`` does (with no normalizer before it: no lower-casing, no
accent stripping, control characters kept):

- white space is the Unicode ``White_Space`` property (Rust's ``char::is_whitespace``; Python's
  ``str.isspace`` differs on U+001C..U+001F, which are *not* white space here);
- punctuation is Unicode category ``P*`` or any ASCII punctuation (so ``$ + < = > ^ ` | ~``,
  symbols in Unicode, are punctuation too, as in BERT).

Special tokens (``[CLS]``, ``[UNK]``...) are cut out first, wherever they are, as HF cuts its
added tokens out before pre-tokenizing (with :class:`~bpe_core.pretokenizer.PreTokenizer`).

>>> [(w.text, w.start, w.end) for w in words("Hug  me, [CLS]ok?", special_tokens=["[CLS]"])]
[('Hug', 0, 3), ('me', 5, 7), (',', 7, 8), ('[CLS]', 9, 14), ('ok', 14, 16), ('?', 16, 17)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import regex

from ..pretokenizer import PreTokenizer

_PUNCT = r"\p{P}!-/:-@\[-`{-~"
WORD_PATTERN = regex.compile(rf"[^{_PUNCT}\p{{White_Space}}]+|[{_PUNCT}]")
"""One word, or one punctuation character (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Word:
    """One word of a text: its characters and where it sits (character offsets); ``special`` for a
    special token."""

    text: str
    start: int
    end: int
    special: bool = False


def words(text: str, *, special_tokens: Sequence[str] = ()) -> list[Word]:
    """The words of ``text`` in order (see the module docstring)."""
    out: list[Word] = []
    pos = 0
    for piece, special in _specials_cutter(tuple(special_tokens)).pieces(text):
        if special:
            out.append(Word(piece, pos, pos + len(piece), True))
        else:
            out.extend(Word(m.group(), pos + m.start(), pos + m.end()) for m in WORD_PATTERN.finditer(piece))
        pos += len(piece)
    return out


@lru_cache(maxsize=64)
def _specials_cutter(special_tokens: tuple[str, ...]) -> PreTokenizer:
    return PreTokenizer("none", special_tokens=special_tokens)


def word_counts(text: str, *, special_tokens: Sequence[str] = ()) -> dict[str, int]:
    """Each distinct word (special tokens left out) with how often it occurs, in first-occurrence order.

    >>> word_counts("hug pug hug. hug")
    {'hug': 3, 'pug': 1, '.': 1}
    """
    counts: dict[str, int] = {}
    for w in words(text, special_tokens=special_tokens):
        if not w.special:
            counts[w.text] = counts.get(w.text, 0) + 1
    return counts
