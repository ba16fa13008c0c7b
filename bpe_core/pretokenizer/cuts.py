r"""Safe cuts: where a text can be cut so that each side pre-tokenizes as it would inside the whole.

Streaming needs them: to encode a 5 GB file, or to count its chunks for
training, it is read block by block, and each block must end where the whole
text would end a chunk.  Encoding line by line is wrong with GPT-2's pattern:
``\s+(?!\S)`` joins whitespace across lines, so ``"\n\n\nTom"`` is
``"\n\n"``, ``"\n"``, ``"Tom"`` and not three ``"\n"``.

A *safe cut* of ``text`` is a position ``c`` such that, whatever text comes
before ``text[c - reach_back:]`` or after ``text[:c + reach_ahead]``, the chunks
of the whole are the chunks of the part before ``c`` followed by those of the
part after it.  What makes a cut safe, by pattern (``\s`` as the ``regex``
module reads it, as the patterns do):

- ``gpt2``: a non-space, then a space (any, newlines too): no GPT-2 chunk holds
  a space after its first character, and none looks behind.
- ``gpt4``: a non-space, then a space that is not ``\r``/``\n`` (a punctuation
  run takes the newlines after it, ``".\n"``); or just after a lone newline
  (a non-space on both sides).
- ``o200k``: as ``gpt4``, and the character after a lone newline is not ``/``
  (o200k's punctuation runs take ``[\r\n/]*``).
- ``whitespace``: between a space and a non-space, either way.
- ``none`` and custom regexes: only at the end of a special token (with
  ``none`` the text between special tokens is one chunk; a custom regex may
  look anywhere, so no other cut is known to be safe).

Every cut is also outside every occurrence of a special token, so the special
tokens split both sides as they split the whole.  A hypothesis test checks all
of this against one pre-tokenization of the whole text.

>>> cuts = SafeCuts(PreTokenizer("gpt2"))
>>> text = "Tom sat.\n\n\nThen"
>>> c = cuts.last(text)
>>> text[:c], text[c:]
('Tom sat.', '\n\n\nThen')
>>> cuts = SafeCuts(PreTokenizer("none", special_tokens=["<|eot|>"]))
>>> text = "one doc<|eot|>another"
>>> text[: cuts.last(text)]
'one doc<|eot|>'
"""

from __future__ import annotations

import regex

from .patterns import GPT2_PATTERN, GPT4_PATTERN, O200K_PATTERN, PATTERNS
from .pretokenizer import PreTokenizer

# The cut rules above as zero-width regexes: a match at c is a cut at c.
_CUT_RULES: dict[str, str] = {
    "gpt2": r"(?<=\S)(?=\s)",
    "gpt4": r"(?<=\S)(?=[^\S\r\n])|(?<=\S\n)(?=\S)",
    "o200k": r"(?<=\S)(?=[^\S\r\n])|(?<=\S\n)(?=[^\s/])",
    "whitespace": r"(?<=\S)(?=\s)|(?<=\s)(?=\S)",
}
# Only the named patterns' own regexes get these rules (a custom regex named "gpt2" does not).
_NAMED = {GPT2_PATTERN, GPT4_PATTERN, O200K_PATTERN, PATTERNS["whitespace"]}


class SafeCuts:
    """Finds safe cuts (see the module docstring) for one :class:`PreTokenizer`.

    ``reach_back``/``reach_ahead``: how many characters before and after a cut
    its safety depends on.  :meth:`first` and :meth:`last` look for cuts ``c``
    with ``lo <= c`` whose context ends by ``hi``; the caller makes sure
    ``text[lo - reach_back:]`` is the real text (``lo=0`` is the stream's start).
    """

    def __init__(self, pretokenizer: PreTokenizer) -> None:
        self.pretokenizer = pretokenizer
        self._specials = sorted(pretokenizer.special_tokens, key=len, reverse=True)
        longest = len(self._specials[0]) if self._specials else 0
        rule = _CUT_RULES.get(pretokenizer.name) if pretokenizer.source in _NAMED else None
        self._rule = regex.compile(rule) if rule else None
        parts = [rule] if rule else []
        if self._specials:  # just after a special token
            parts.append("(?<=" + "|".join(regex.escape(s) for s in self._specials) + ")")
        self._candidates = regex.compile("|".join(parts)) if parts else None
        self._special_regex = (
            regex.compile("|".join(regex.escape(s) for s in self._specials)) if self._specials else None
        )
        # The pattern rules look two characters back and one ahead; a special
        # token of length L covers a cut from L - 1 characters either side, and
        # one that ends at a cut is checked for overlaps up to 2L back.
        self.reach_back = max(2, 2 * longest)
        self.reach_ahead = max(1, longest)

    def last(self, text: str, lo: int = 0, hi: int | None = None) -> int:
        """The last safe cut in ``text[lo:hi]`` (see the class docstring), or -1 if there is none."""
        if self._candidates is None:
            return -1
        end = (len(text) if hi is None else hi) - self.reach_ahead + 1
        if end < lo:
            return -1
        size = 256
        while True:  # windows from the end, growing, so a cut near the end is found in O(window)
            start = max(lo, end - size)
            found = [m.start() for m in self._candidates.finditer(text, start, end)]
            for c in reversed(found):
                if self._admissible(text, c):
                    return c
            if start == lo:
                return -1
            end, size = start, size * 2

    def first(self, text: str, lo: int = 0, hi: int | None = None) -> int:
        """The first safe cut in ``text[lo:hi]`` (see the class docstring), or -1 if there is none."""
        if self._candidates is None:
            return -1
        end = (len(text) if hi is None else hi) - self.reach_ahead + 1
        if end < lo:
            return -1
        for m in self._candidates.finditer(text, lo, end):
            if self._admissible(text, m.start()):
                return m.start()
        return -1

    def _admissible(self, text: str, c: int) -> bool:
        """No special token covers ``c``, and the cut is a pattern rule's or ends a special token for sure."""
        if c <= 0:
            return False
        for s in self._specials:
            n = len(s)
            if s in text[max(c - n + 1, 0) : c + n - 1]:  # an occurrence across c
                return False
        if self._rule is not None and self._rule.match(text, c):
            return True
        return self._ends_a_special(text, c)

    def _ends_a_special(self, text: str, c: int) -> bool:
        """Whether the special tokens split ``text`` with a special token ending at ``c``.

        The occurrence ending at ``c`` must be the longest one starting where it
        starts, and no other occurrence may overlap it (an earlier match would
        take its first characters), so every split of a text holding it keeps it.
        """
        s = next((s for s in self._specials if text.endswith(s, 0, c)), None)
        if s is None or self._special_regex is None:
            return False
        start = c - len(s)
        window_start = max(0, start - len(self._specials[0]) + 1)
        return all(
            m.start() == start or m.end() <= start
            for m in self._special_regex.finditer(text, window_start, c, overlapped=True)
        )
