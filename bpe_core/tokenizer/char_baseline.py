"""The character-level baseline: one id per distinct character of a corpus.

>>> tok = CharTokenizer("hello")
>>> tok.encode("hole")
[1, 3, 2, 0]
>>> tok.decode([1, 0, 2, 2, 3])
'hello'
>>> tok.encode("hex")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: character 'x' (U+0078) at position 2 is not in the vocabulary of 4 characters; ...
"""

from __future__ import annotations

from collections.abc import Iterable


class CharTokenizer:
    """Vocabulary: the sorted distinct characters of ``corpus``. Unknown characters are errors."""

    def __init__(self, corpus: str) -> None:
        if not isinstance(corpus, str) or not corpus:
            raise ValueError("the character tokenizer needs a non-empty corpus to take its characters from")
        self.chars: list[str] = sorted(set(corpus))
        self._id = {c: i for i, c in enumerate(self.chars)}

    @property
    def vocab_size(self) -> int:
        return len(self.chars)

    def unknown(self, text: str) -> list[tuple[int, str]]:
        """``(position, character)`` of every character of ``text`` not in the vocabulary."""
        return [(i, c) for i, c in enumerate(text) if c not in self._id]

    def encode(self, text: str) -> list[int]:
        try:
            return [self._id[c] for c in text]
        except KeyError:
            pos, c = self.unknown(text)[0]
            raise ValueError(
                f"character {c!r} (U+{ord(c):04X}) at position {pos} is not in the vocabulary of "
                f"{self.vocab_size} characters; train on a corpus that contains it"
            ) from None

    def decode(self, ids: Iterable[int]) -> str:
        out = []
        for i in ids:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(self.chars):
                raise ValueError(
                    f"token id {i!r} is not in the vocabulary (vocab size {self.vocab_size}, ids "
                    f"0..{self.vocab_size - 1})"
                )
            out.append(self.chars[i])
        return "".join(out)
