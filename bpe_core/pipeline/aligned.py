"""A text that remembers where each of its characters came from: what every pipeline stage passes on.

HF's ``tokenizers`` calls it a ``NormalizedString``.  :class:`Aligned` holds the text as a stage made it
and, for each character, the span of the *original* text it stands for (``starts[i]:ends[i]``, character
offsets).  A normalizer that turns ``é`` into ``e`` + U+0301 gives both characters the span of ``é``; one
that removes a character drops it with its span; a prefix put in front (``▁``) stands for nothing
before the first character.  So a token over ``aligned.text[i:j]`` covers ``original[starts[i]:ends[j-1]]``.

>>> a = Aligned.of("Héllo")
>>> b = a.map_chars(lambda c: c.upper() if c != "é" else "E\\u0301")
>>> b.text == "HE\u0301LLO", b.span(1, 3)
(True, (1, 2))
>>> [p.text for p in a.split([(1, 2)], "removed")]
['H', 'llo']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

Behavior = Literal["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]
BEHAVIORS: tuple[Behavior, ...] = (
    "removed",
    "isolated",
    "merged_with_previous",
    "merged_with_next",
    "contiguous",
)
"""What a split does with the matched part (HF's ``SplitDelimiterBehavior``, its JSON name in snake case)."""


@dataclass(frozen=True, slots=True)
class Aligned:
    """A stage's text and each character's span of the original text (see the module docstring)."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, text: str, offset: int = 0) -> Aligned:
        """``text`` as the original, its characters at ``offset``, ``offset + 1``, ..."""
        return cls(
            text, tuple(range(offset, offset + len(text))), tuple(range(offset + 1, offset + len(text) + 1))
        )

    def __len__(self) -> int:
        return len(self.text)

    def span(self, i: int, j: int) -> tuple[int, int]:
        """The original span under ``text[i:j]`` (empty ``(k, k)`` where nothing stands under it)."""
        if i >= j:
            k = self.starts[i] if i < len(self.starts) else (self.ends[-1] if self.ends else 0)
            return k, k
        return self.starts[i], self.ends[j - 1]  # every stage keeps the spans in order: they never go back

    def slice(self, i: int, j: int) -> Aligned:
        return Aligned(self.text[i:j], self.starts[i:j], self.ends[i:j])

    def map_chars(self, change: Callable[[str], str]) -> Aligned:
        """Each character replaced by ``change(c)`` (none, one or several), each new one with ``c``'s span."""
        text: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        for c, a, b in zip(self.text, self.starts, self.ends):
            out = change(c)
            text.append(out)
            starts.extend([a] * len(out))
            ends.extend([b] * len(out))
        return Aligned("".join(text), tuple(starts), tuple(ends))

    def map_groups(self, groups: Iterable[tuple[int, int, str]]) -> Aligned:
        """Each group ``(i, j, out)`` (they cover the text in order) becomes ``out``, every character of it
        with the span of ``text[i:j]``."""
        text: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        for i, j, out in groups:
            a, b = self.span(i, j)
            text.append(out)
            starts.extend([a] * len(out))
            ends.extend([b] * len(out))
        return Aligned("".join(text), tuple(starts), tuple(ends))

    def prepend(self, prefix: str) -> Aligned:
        """``prefix`` in front, standing for the first character (as HF aligns it); nothing for an empty
        text (HF's ``prepend`` leaves an empty text empty)."""
        if not self.text:
            return self
        a, b = self.starts[0], self.ends[0]
        return Aligned(prefix + self.text, (a,) * len(prefix) + self.starts, (b,) * len(prefix) + self.ends)

    def split(self, matches: Sequence[tuple[int, int]], behavior: Behavior) -> list[Aligned]:
        """The pieces of this text cut at ``matches`` (sorted, not overlapping), the matched parts kept as
        ``behavior`` says; empty pieces are dropped (HF's ``NormalizedString::split``).

        >>> a = Aligned.of("a  b")
        >>> kinds = ("isolated", "contiguous", "merged_with_next")
        >>> [[p.text for p in a.split([(1, 2), (2, 3)], b)] for b in kinds]
        [['a', ' ', ' ', 'b'], ['a', '  ', 'b'], ['a', ' ', ' b']]
        """
        parts: list[tuple[int, int, bool]] = []  # (start, end, is a match)
        pos = 0
        for start, end in matches:
            if start == end:
                continue
            if pos < start:
                parts.append((pos, start, False))
            parts.append((start, end, True))
            pos = end
        if pos < len(self.text):
            parts.append((pos, len(self.text), False))
        kept: list[list[int]] = []  # [start, end, remove]
        previous = False
        if behavior == "merged_with_next":
            for start, end, is_match in reversed(parts):
                if is_match and not previous and kept:
                    kept[-1][0] = start
                else:
                    kept.append([start, end, 0])
                previous = is_match
            kept.reverse()
        else:
            for start, end, is_match in parts:
                if behavior == "removed":
                    kept.append([start, end, int(is_match)])
                elif behavior == "isolated":
                    kept.append([start, end, 0])
                elif behavior == "contiguous":
                    if is_match == previous and kept:
                        kept[-1][1] = end
                    else:
                        kept.append([start, end, 0])
                elif is_match and not previous and kept:  # merged_with_previous
                    kept[-1][1] = end
                else:
                    kept.append([start, end, 0])
                previous = is_match
        return [self.slice(s, e) for s, e, remove in kept if not remove and s < e]


def concat(parts: Sequence[Aligned]) -> Aligned:
    """The parts one after another."""
    return Aligned(
        "".join(p.text for p in parts),
        tuple(k for p in parts for k in p.starts),
        tuple(k for p in parts for k in p.ends),
    )
