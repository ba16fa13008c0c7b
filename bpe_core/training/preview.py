"""The preview: the start of the training text, as token ids, merged step by step.

A student watches this sequence change at every merge.  It holds the whole
chunks that start in the first ``preview_chars`` characters; a chunk that runs
past the window read here (with pattern ``"none"`` the whole text is one
chunk) is cut to end at ``preview_chars``, so its last token or two may differ
from the same place in the corpus, whose chunk goes on (the preview is still
exactly ``text``).

>>> from bpe_core.pretokenizer import PreTokenizer
>>> preview = Preview.of("ab ab abc", PreTokenizer("whitespace"), special_tokens={}, preview_chars=5)
>>> preview.text, preview.sequence
('ab ab', (97, 98, 32, 97, 98))
>>> preview.merge((97, 98), 256)
(256, 32, 256)
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain

from ..pretokenizer import PreTokenizer, time_limit
from ..primitives import Pair, merge_pair


class Preview:
    """The preview's chunks as id lists; :meth:`merge` applies one merge and returns the new sequence."""

    def __init__(self, text: str, chunks: list[list[int]]) -> None:
        self.text = text
        self._chunks = chunks
        self._where: dict[int, set[int]] = {}  # token id -> the chunks holding it
        for ci, chunk in enumerate(chunks):
            for i in chunk:
                self._where.setdefault(i, set()).add(ci)
        self.initial: tuple[int, ...] = tuple(chain.from_iterable(chunks))
        self.sequence = self.initial

    @classmethod
    def of(
        cls, text: str, pretokenizer: PreTokenizer, *, special_tokens: Mapping[str, int], preview_chars: int
    ) -> Preview:
        """The preview of ``text``'s first ``preview_chars`` characters, as bytes and special-token ids."""
        window = text[: preview_chars + 1000]
        split = pretokenizer.split
        parts = (
            (part, special)
            for segment, special in pretokenizer.segments(window)
            for part in ([segment] if special else split(segment))
        )
        taken: list[list[int]] = []
        covered = 0
        with time_limit(len(window)):  # one limit for a custom pattern over all the segments
            for part, special in parts:
                if covered >= preview_chars:
                    break
                cut = covered + len(part) >= len(window) and len(window) < len(text)
                if cut:  # this chunk may go on past the window: keep only its start
                    if special:
                        break
                    part = part[: preview_chars - covered]
                taken.append([special_tokens[part]] if special else list(part.encode("utf-8")))
                covered += len(part)
                if cut:
                    break
        return cls(text[:covered], taken)

    @property
    def chunks(self) -> list[list[int]]:
        """The preview's chunks as id lists, as merged so far."""
        return self._chunks

    def merge(self, pair: Pair, new_id: int) -> tuple[int, ...]:
        """Apply one merge, touching only the chunks that hold both ids; the sequence after it."""
        a, b = pair
        where = self._where
        changed = False
        for ci in where.get(a, set()) & where.get(b, set()):
            old = self._chunks[ci]
            new = merge_pair(old, pair, new_id)
            if len(new) == len(old):
                continue
            changed = True
            self._chunks[ci] = new
            where.setdefault(new_id, set()).add(ci)
            for gone in set(old).difference(new):
                where[gone].discard(ci)
        if changed:
            self.sequence = tuple(chain.from_iterable(self._chunks))
        return self.sequence
