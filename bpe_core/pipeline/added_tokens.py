"""Added tokens: strings a text holds as written, found before the model sees the text (HF's
``AddedVocabulary``).

Each :class:`AddedToken` is matched where it stands, the longest first among those starting at the
same place (``<|eot|>`` before ``<|e``), with HF's options: ``single_word`` (only between non-word
characters), ``lstrip``/``rstrip`` (the white space before/after it goes with it), ``normalized`` (matched
in the normalized text, else in the raw one), ``special`` (left out by ``decode(...,
skip_special_tokens=True)``).

>>> cut = split_added([Aligned.of("a<s> b")], [AddedToken("<s>", 1, rstrip=True)])
>>> [(p.text, i) for p, i in cut]
[('a', None), ('<s> ', 1), ('b', None)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import regex

from .aligned import Aligned
from .normalizers import is_white_space

_WORD = regex.compile(r"\w")


@dataclass(frozen=True, slots=True)
class AddedToken:
    """One added token (see the module docstring)."""

    content: str
    id: int
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool = False
    special: bool = False


class AddedTokens:
    """Added tokens ready to be found: their pattern compiled once (longest first at a place)."""

    def __init__(self, tokens: Sequence[AddedToken]) -> None:
        self.tokens = tuple(tokens)
        self._by_content = {t.content: t for t in self.tokens}
        alternatives = sorted(self._by_content, key=len, reverse=True)
        self._pattern = (
            regex.compile("|".join(regex.escape(a) for a in alternatives)) if alternatives else None
        )

    def split(self, parts: Sequence[Aligned]) -> list[tuple[Aligned, int | None]]:
        """Each part cut at the added tokens it holds: ``(text, id)`` for a token, ``(text, None)`` for
        the text between (empty texts dropped)."""
        if self._pattern is None:
            return [(p, None) for p in parts if p.text]
        out: list[tuple[Aligned, int | None]] = []
        for part in parts:
            s = part.text
            pos = 0
            for m in self._pattern.finditer(s):
                t = self._by_content[m.group()]
                start, stop = m.span()
                if t.single_word:
                    before = start == 0 or not _WORD.match(s[start - 1])
                    after = stop == len(s) or not _WORD.match(s[stop])
                    if not (before and after):
                        continue
                if t.lstrip:
                    k = start
                    while k > 0 and is_white_space(s[k - 1]):
                        k -= 1
                    start = max(k, pos)
                if t.rstrip:
                    while stop < len(s) and is_white_space(s[stop]):
                        stop += 1
                if start < pos:  # overlaps what the token before took with its rstrip
                    continue
                if pos < start:
                    out.append((part.slice(pos, start), None))
                out.append((part.slice(start, stop), t.id))
                pos = stop
            if pos < len(s):
                out.append((part.slice(pos, len(s)), None))
        return out


def split_added(parts: Sequence[Aligned], tokens: Sequence[AddedToken]) -> list[tuple[Aligned, int | None]]:
    """Each part cut at the added ``tokens`` it holds (:meth:`AddedTokens.split`, the pattern compiled for
    this call)."""
    return AddedTokens(tokens).split(parts)
