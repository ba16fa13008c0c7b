"""Two tokenizers side by side: where they cut a text differently, which tokens they share, how they compress.

The "What if?" lessons compare a tokenizer with another one: the same merges
in another order (:mod:`bpe_core.tokenizer.merge_order`), or a training run
with one choice changed (``Trainer.branch``).  Token ids mean different things
on the two sides, so everything here compares tokens by their bytes.

>>> from bpe_core.tokenizer.merge_order import abc_tokenizer, reordered
>>> tok = abc_tokenizer()
>>> cuts = compare_cuts(tok, reordered(tok, [1, 0]), "abc abc!")
>>> [(s.left, s.right) for s in cuts.stretches if not s.same]
[((b'ab', b'c'), (b'a', b'bc')), ((b'ab', b'c'), (b'a', b'bc'))]
>>> cuts.left_tokens, cuts.right_tokens, cuts.differing, cuts.same_text
(6, 6, 2, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..tokenizer import Tokenizer
from .metrics import Compression


@dataclass(frozen=True, slots=True)
class Stretch:
    """The shortest run of bytes that both sides cut at both ends: one token on each side
    (``same``), or a place where they cut differently."""

    byte_start: int
    byte_end: int
    left: tuple[bytes, ...]
    right: tuple[bytes, ...]

    @property
    def same(self) -> bool:
        return len(self.left) == 1 and len(self.right) == 1


def align(left: Sequence[bytes], right: Sequence[bytes]) -> list[Stretch]:
    """Cut two tokenizations of the same bytes into :class:`Stretch` es, in order.

    >>> [(s.left, s.right, s.same) for s in align([b"ab", b"c", b"d"], [b"a", b"bc", b"d"])]
    [((b'ab', b'c'), (b'a', b'bc'), False), ((b'd',), (b'd',), True)]
    """
    if b"".join(left) != b"".join(right):
        raise ValueError("the two token lists spell different bytes; align two tokenizations of one text")
    out: list[Stretch] = []
    i = j = 0
    start = end_left = end_right = 0
    taken_left: list[bytes] = []
    taken_right: list[bytes] = []
    while i < len(left) or j < len(right):
        if end_left <= end_right and i < len(left):  # the side behind takes its next token
            taken_left.append(left[i])
            end_left += len(left[i])
            i += 1
        else:
            taken_right.append(right[j])
            end_right += len(right[j])
            j += 1
        if end_left == end_right and taken_left and taken_right:  # both cut here
            out.append(Stretch(start, end_left, tuple(taken_left), tuple(taken_right)))
            start, taken_left, taken_right = end_left, [], []
    return out


@dataclass(frozen=True, slots=True)
class CutComparison:
    """One text under two tokenizers: the stretches, each side's token count, and the round trip."""

    stretches: tuple[Stretch, ...]
    left_tokens: int
    right_tokens: int
    same_text: bool  # both sides decode back to the text

    @property
    def differing(self) -> int:
        """How many stretches the two sides cut differently."""
        return sum(1 for s in self.stretches if not s.same)


def compare_cuts(left: Tokenizer, right: Tokenizer, text: str) -> CutComparison:
    """Encode ``text`` with both tokenizers and line the tokens up (special tokens are one token each)."""
    ids_left, ids_right = left.encode(text), right.encode(text)
    stretches = align([left.vocab[i] for i in ids_left], [right.vocab[i] for i in ids_right])
    same = left.decode(ids_left) == text and right.decode(ids_right) == text
    return CutComparison(tuple(stretches), len(ids_left), len(ids_right), same)


@dataclass(frozen=True, slots=True)
class VocabComparison:
    """The tokens made by merges on each side: how many both have, and those only one has (in id order)."""

    shared: int
    only_left: tuple[bytes, ...]
    only_right: tuple[bytes, ...]

    @property
    def overlap(self) -> float:
        """Shared merged tokens over all merged tokens either side has (1.0 when both have none).

        >>> VocabComparison(3, (b"x",), ()).overlap
        0.75
        """
        total = self.shared + len(self.only_left) + len(self.only_right)
        return self.shared / total if total else 1.0


def compare_vocabs(left: Tokenizer, right: Tokenizer) -> VocabComparison:
    """Compare the tokens ``left`` and ``right`` made by merges (the bytes and special tokens both have).

    >>> from bpe_core import train
    >>> options = dict(vocab_size=258, pattern="none", tie_break="lowest-id")
    >>> a, b = train("low lower", **options), train("low lower", **options, block=[(108, 111)])
    >>> v = compare_vocabs(a, b)
    >>> v.shared, v.only_left, v.only_right
    (1, (b'lo',), (b'ow',))
    """
    return compare_made([left.vocab[i] for i in left.merge_ids], [right.vocab[i] for i in right.merge_ids])


def compare_made(made_left: Sequence[bytes], made_right: Sequence[bytes]) -> VocabComparison:
    """:func:`compare_vocabs` from the tokens each side made, in merge order (a trainer's step tokens).

    >>> compare_made([b"lo", b"low"], [b"ow", b"low"]).only_right
    (b'ow',)
    """
    in_left, in_right = set(made_left), set(made_right)
    return VocabComparison(
        shared=len(in_left & in_right),
        only_left=tuple(t for t in made_left if t not in in_right),
        only_right=tuple(t for t in made_right if t not in in_left),
    )


def compression(tokenizer: Tokenizer, text: str) -> Compression:
    """``text``'s tokens, bytes, characters and whitespace-separated words under ``tokenizer``.

    >>> from bpe_core.tokenizer.merge_order import abc_tokenizer
    >>> compression(abc_tokenizer(), "abc abc").bytes_per_token  # ab c ' ' ab c
    1.4
    """
    return Compression(
        tokens=len(tokenizer.encode(text)),
        bytes=len(text.encode("utf-8")),
        chars=len(text),
        words=len(text.split()),
    )
