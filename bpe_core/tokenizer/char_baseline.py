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

With an ``unk_token`` (the last id), a character unseen in training is that token instead, as
WordPiece's ``[UNK]``, and :meth:`CharTokenizer.lost` says which characters were lost:

>>> tok = CharTokenizer("hello", unk_token="[UNK]")
>>> tok.encode("hex"), tok.decode(tok.encode("hex"))
([1, 0, 4], 'he[UNK]')
>>> tok.lost("hex").unknown
((2, 3),)
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import accumulate

from .bpe import Tokenizer, TokenSpan, TokenSpans
from .scheme import Loss


class CharTokenizer:
    """Vocabulary: the sorted distinct characters of ``corpus`` (then ``unk_token`` if given).
    Unknown characters are errors, or ``unk_token``."""

    scheme = "char"

    def __init__(self, corpus: str, *, unk_token: str | None = None) -> None:
        if not isinstance(corpus, str) or not corpus:
            raise ValueError("the character tokenizer needs a non-empty corpus to take its characters from")
        if unk_token is not None and (not isinstance(unk_token, str) or len(unk_token) < 2):
            raise ValueError(
                f"unk_token must be a string of 2 or more characters (such as '[UNK]'), so that it is not "
                f"a character of the text; not {unk_token!r}"
            )
        self.chars: list[str] = sorted(set(corpus))
        self._id = {c: i for i, c in enumerate(self.chars)}
        self.unk_token = unk_token
        self.unk_id = len(self.chars) if unk_token is not None else None

    @property
    def vocab_size(self) -> int:
        return len(self.chars) + (self.unk_token is not None)

    @property
    def special_ids(self) -> frozenset[int]:
        """None: every token is one character (the unknown token is no special token).

        >>> CharTokenizer("ab", unk_token="[UNK]").special_ids
        frozenset()
        """
        return frozenset()

    def as_bpe(self) -> Tokenizer | None:
        """None: one id per character, no merges (see :mod:`.scheme`).

        >>> CharTokenizer("ab").as_bpe() is None
        True
        """
        return None

    def unknown(self, text: str) -> list[tuple[int, str]]:
        """``(position, character)`` of every character of ``text`` not in the vocabulary."""
        return [(i, c) for i, c in enumerate(text) if c not in self._id]

    def encode(self, text: str) -> list[int]:
        try:
            return [self._id[c] for c in text]
        except KeyError:
            if self.unk_id is not None:
                return [self._id.get(c, self.unk_id) for c in text]
            pos, c = self.unknown(text)[0]
            raise ValueError(
                f"character {c!r} (U+{ord(c):04X}) at position {pos} is not in the vocabulary of "
                f"{self.vocab_size} characters; train on a corpus that contains it"
            ) from None

    def piece(self, token_id: int) -> str:
        """The token: its character, or the unknown token."""
        if token_id == self.unk_id and self.unk_token is not None:
            return self.unk_token
        if isinstance(token_id, bool) or not isinstance(token_id, int) or not 0 <= token_id < len(self.chars):
            raise ValueError(
                f"token id {token_id!r} is not in the vocabulary (vocab size {self.vocab_size}, ids "
                f"0..{self.vocab_size - 1})"
            )
        return self.chars[token_id]

    def decode(self, ids: Iterable[int]) -> str:
        return "".join([self.piece(i) for i in ids])

    def token_spans(self, text: str) -> TokenSpans:
        """One span per character (an unknown one is the unknown token, or a ValueError without one).

        >>> [(s.id, s.token, s.byte_start, s.byte_end) for s in CharTokenizer("hé").token_spans("éh")]
        [(1, b'\\xc3\\xa9', 0, 2), (0, b'h', 2, 3)]
        """
        ids = self.encode(text)
        ends = list(accumulate((len(c.encode("utf-8")) for c in text), initial=0))
        return TokenSpans(
            TokenSpan(i, c.encode("utf-8"), k, k + 1, ends[k], ends[k + 1])
            for k, (i, c) in enumerate(zip(ids, text, strict=True))
        )

    def lost(self, text: str) -> Loss:
        """What ``decode(encode(text))`` loses: the characters unseen in training (a
        :class:`~.scheme.Loss`)."""
        unknown = tuple((i, i + 1) for i, _ in self.unknown(text))
        if not unknown:
            return Loss(True, text)
        if self.unk_id is None:
            return Loss(False, "", unknown)
        decoded = self.decode(self.encode(text))
        return Loss(decoded == text, decoded, unknown)
