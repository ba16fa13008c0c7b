"""Tie rules: which pair wins when several have the highest count.

Each rule gives every candidate pair a sort key; the smallest key wins.  The
fast and the textbook trainer both use these keys, so they cannot disagree.

- ``lexicographic``: the greatest ``(left bytes, right bytes)`` wins (the
  CS336 assignment's rule; ``b"b"`` beats ``b"a"``, and ``b"ab"`` beats ``b"a"``).
- ``lowest-id``: the smallest ``(left id, right id)`` wins (the classic
  lesson's table order; bytes have id = byte value, merges follow).
- ``first-seen``: the pair whose first occurrence comes first in the corpus
  wins (what minbpe's ``max(stats, key=stats.get)`` does).
- ``hf``: HF `tokenizers`' trainer: the smallest ``(id, id)`` where the 256
  bytes are numbered by their GPT-2 byte-to-unicode character and merges
  follow in order, which is how HF numbers its vocabulary.

>>> rule = TieRule("lexicographic", [bytes([i]) for i in range(256)])
>>> sorted([(97, 98), (98, 97), (97, 97)], key=lambda p: rule.key(*p))
[(98, 97), (97, 98), (97, 97)]
>>> rule = TieRule("hf", [bytes([i]) for i in range(256)])
>>> min([(ord(" "), 97), (97, 97)], key=lambda p: rule.key(*p))  # 'Ġ' sorts after 'a'
(97, 97)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..byte_level import HF_BYTE_RANK
from .id_bits import ID_BITS, ID_MASK

TIE_BREAKS: tuple[str, ...] = ("lexicographic", "lowest-id", "first-seen", "hf")

TIE_BREAK_HELP: dict[str, str] = {
    "lexicographic": "greatest (left, right) byte strings win, as in the CS336 assignment",
    "lowest-id": "smallest (left id, right id) wins, as in the classic lesson's table",
    "first-seen": "the pair that occurs first in the corpus wins, as in minbpe",
    "hf": "smallest ids in HF tokenizers' numbering (bytes by their GPT-2 character), as HF's trainer",
}

SortKey = str | int  # a str for lexicographic, an int for the other rules; one run compares one kind


def check_tie_break(name: str) -> str:
    if name not in TIE_BREAKS:
        raise ValueError(f"tie_break {name!r} is unknown; use one of {', '.join(TIE_BREAKS)}")
    return name


def _descending(token: bytes) -> str:
    """A key that sorts byte strings in *descending* order (a prefix sorts after its extensions).

    Byte ``x`` becomes ``chr(255 - x)`` and the end ``chr(256)``, above every byte,
    so two keys joined still compare left string first (the end mark is unique to
    the end).  A str compares in C, faster than a tuple of ints.

    >>> sorted([b"a", b"ab", b"b", b"a\\x00"], key=_descending)
    [b'b', b'ab', b'a\\x00', b'a']
    """
    return token.translate(_FLIP).decode("latin-1") + "\u0100"


_FLIP = bytes(range(255, -1, -1))


class TieRule:
    """Sort keys for one tie rule over a growing vocabulary (smallest key wins).

    ``static`` is False for ``first-seen``, whose key depends on where the pair
    currently occurs; callers pass that position as ``first_pos``.
    """

    def __init__(self, name: str, vocab: Sequence[bytes]) -> None:
        self.name = check_tie_break(name)
        self.static = name != "first-seen"
        self._text_key: list[str] = []  # lexicographic: each token's descending key
        self._token_key: list[int] = []  # the others: each token's number (its id, or HF's for hf)
        self._merged = 0
        for token in vocab:
            self.add_token(token, merged=False)

    def add_token(self, token: bytes, *, merged: bool = True) -> None:
        """Register the next id (in id order): a byte, a special token or a merge result."""
        if self.name == "lexicographic":
            self._text_key.append(_descending(token))
            return
        i = len(self._token_key)
        if self.name == "hf":
            if merged:
                self._token_key.append(256 + self._merged)
                self._merged += 1
            else:  # bytes by their GPT-2 character; specials never pair, any rank will do
                self._token_key.append(HF_BYTE_RANK[token[0]] if i < 256 else 0)
        else:
            self._token_key.append(i)

    def key(self, a: int, b: int, first_pos: int = 0) -> SortKey:
        """Sort key of pair ``(a, b)``; for first-seen, ``first_pos`` is where it first occurs."""
        if self.name == "lexicographic":
            return self._text_key[a] + self._text_key[b]
        if self.name == "first-seen":
            return first_pos
        return (self._token_key[a] << ID_BITS) | self._token_key[b]

    def packed_keys(self, packed: list[int]) -> Sequence[SortKey]:
        """``key(a, b)`` for many pairs packed as ``(a << ID_BITS) | b``, in one pass (the
        fast trainer makes thousands per merge); first-seen gets 0, its position comes later.

        >>> rule = TieRule("lowest-id", [bytes([i]) for i in range(256)])
        >>> rule.packed_keys([(97 << ID_BITS) | 98]) == [rule.key(97, 98)]
        True
        """
        if self.name == "lexicographic":
            text = self._text_key
            return [text[k >> ID_BITS] + text[k & ID_MASK] for k in packed]
        tk = self._token_key
        if self.name == "first-seen":
            return [0] * len(packed)
        return [(tk[k >> ID_BITS] << ID_BITS) | tk[k & ID_MASK] for k in packed]
