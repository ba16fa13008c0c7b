"""How WordPiece cuts a text into words before it cuts words into pieces: BERT's pre-tokenizer.

A word is a run of characters that are neither white space nor punctuation; each punctuation
character is a word of its own; white space only separates words and is dropped.  This is what
HF `tokenizers`' ``BertPreTokenizer`` does (with no normalizer before it: no lower-casing, no
accent stripping, control characters kept):

- white space is the Unicode ``White_Space`` property (Rust's ``char::is_whitespace``; Python's
  ``str.isspace`` differs on U+001C..U+001F, which are *not* white space here);
- punctuation is Unicode category ``P*`` or any ASCII punctuation (so ``$ + < = > ^ ` | ~``,
  symbols in Unicode, are punctuation too, as in BERT).  HF's table of ``P*`` is an older Unicode's
  than the `regex` module's: the 141 characters made punctuation since (``؝``, ``৽``, Mongolian
  birgas...) are letters to HF, and two that were punctuation then (U+166D, U+111C9) still are; we
  follow HF (a test compares the two on every code point).

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

_NEWER_PUNCTUATION = (  # category P* in the Unicode of `regex`, not in the older one of HF's table
    r"\U0000061D\U000009FD\U00000A76\U00000C77\U00000C84\U00001B4E-\U00001B4F"
    r"\U00001B7D-\U00001B7F\U00002E43-\U00002E4F\U00002E52-\U00002E5D\U00010D6E\U00010EAD"
    r"\U00010ED0\U00010F55-\U00010F59\U00010F86-\U00010F89\U000113D4-\U000113D5"
    r"\U000113D7-\U000113D8\U0001144B-\U0001144F\U0001145A-\U0001145B\U0001145D"
    r"\U00011660-\U0001166C\U000116B9\U0001183B\U00011944-\U00011946\U000119E2"
    r"\U00011A3F-\U00011A46\U00011A9A-\U00011A9C\U00011A9E-\U00011AA2\U00011B00-\U00011B09"
    r"\U00011BE1\U00011C41-\U00011C45\U00011C70-\U00011C71\U00011EF7-\U00011EF8"
    r"\U00011F43-\U00011F4F\U00011FFF\U00012FF1-\U00012FF2\U00016D6D-\U00016D6F"
    r"\U00016E97-\U00016E9A\U00016FE2\U0001E5FF\U0001E95E-\U0001E95F"
)
_OLDER_PUNCTUATION = r"\u166D\U000111C9"  # P* in HF's table, another category since
_PUNCT = rf"[[\p{{P}}!-/:-@\[-`{{-~{_OLDER_PUNCTUATION}]--[{_NEWER_PUNCTUATION}]]"
WORD_PATTERN = regex.compile(rf"(?V1)[^\p{{White_Space}}{_PUNCT}]+|{_PUNCT}")
"""One word, or one punctuation character (see the module docstring)."""
PUNCTUATION_PATTERN = regex.compile(rf"(?V1){_PUNCT}")
"""One punctuation character as HF tests it (`is_ascii_punctuation || is_punctuation`)."""


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
    for segment, special in _specials_cutter(tuple(special_tokens)).segments(text):
        if special:
            out.append(Word(segment, pos, pos + len(segment), True))
        else:
            out.extend(
                Word(m.group(), pos + m.start(), pos + m.end()) for m in WORD_PATTERN.finditer(segment)
            )
        pos += len(segment)
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
    for segment, special in _specials_cutter(tuple(special_tokens)).segments(text):
        if not special:
            for w in WORD_PATTERN.findall(segment):
                counts[w] = counts.get(w, 0) + 1
    return counts
