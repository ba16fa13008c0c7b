"""Merge order is part of a tokenizer: the same merges applied in another order cut text differently.

Encoding applies, again and again, the merge of lowest rank among the pairs
present (:meth:`Tokenizer._bpe`), so the ranks (the order) decide which
merges win where two overlap.  The classic example: with ``(a, b) -> ab``
and ``(b, c) -> bc``, ``abc`` is ``ab c`` in training order and ``a bc`` the
other way.  The vocabulary is the same, so every order decodes to the same
text; a model only ever saw the training order's cut.

>>> tok = abc_tokenizer()
>>> [tok.vocab[i] for i in tok.encode("abc")]
[b'ab', b'c']
>>> other = reordered(tok, reversed_order(len(tok.merges)))
>>> [other.vocab[i] for i in other.encode("abc")]
[b'a', b'bc']
>>> other.decode(other.encode("abc")) == tok.decode(tok.encode("abc")) == "abc"
True

An order is a permutation of the merges' positions, 0-based: ``order[r]`` is
the position (in the training order) of the merge given rank ``r``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .bpe import Tokenizer


def check_order(order: Sequence[int], n: int) -> list[int]:
    """``order`` as a list, if it is a permutation of ``0..n-1``; else a ValueError saying what is wrong.

    >>> check_order([1, 0, 0], 3)
    Traceback (most recent call last):
    ...
    ValueError: the order lists merge position 0 twice and lacks 2; an order lists each of 0..2 once
    """
    order = list(order)
    if any(isinstance(i, bool) or not isinstance(i, int) for i in order):
        raise ValueError(
            f"an order is a list of merge positions (whole numbers 0..{n - 1}), not {order[:5]!r}"
        )
    if len(order) != n:
        raise ValueError(f"the order lists {len(order)} merges but the tokenizer has {n}; list each once")
    counts = Counter(order)
    outside = sorted(i for i in counts if not 0 <= i < n)
    if outside:
        raise ValueError(f"the order lists {outside[0]}, which is not a merge position (0..{n - 1})")
    twice = sorted(i for i, c in counts.items() if c > 1)
    if twice:  # as long as n and inside 0..n-1: then some position is missing
        missing = min(set(range(n)) - set(counts))
        raise ValueError(
            f"the order lists merge position {twice[0]} twice and lacks {missing}; "
            f"an order lists each of 0..{n - 1} once"
        )
    return order


def reordered(tokenizer: Tokenizer, order: Sequence[int]) -> Tokenizer:
    """``tokenizer`` with its merges applied in ``order``: same vocabulary, ids and special tokens."""
    order = check_order(order, len(tokenizer.merges))
    return Tokenizer(
        tokenizer.vocab,
        [tokenizer.merges[i] for i in order],
        special_tokens=tokenizer.special_tokens,
        pattern=tokenizer.pattern,
    )


def reversed_order(n: int) -> list[int]:
    """The last merge first.

    >>> reversed_order(3)
    [2, 1, 0]
    """
    return list(range(n - 1, -1, -1))


def shuffled_order(n: int, *, seed: int) -> list[int]:
    """A random order, the same for the same ``seed`` (``random.Random(seed)``).

    >>> shuffled_order(5, seed=1) == shuffled_order(5, seed=1) != list(range(5))
    True
    """
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return order


def swapped_order(n: int, i: int, j: int) -> list[int]:
    """The training order with the merges at positions ``i`` and ``j`` (0-based) swapped.

    >>> swapped_order(4, 0, 2)
    [2, 1, 0, 3]
    """
    for k in (i, j):
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < n:
            raise ValueError(f"merge position {k!r} is not one of 0..{n - 1} (the tokenizer has {n} merges)")
    order = list(range(n))
    order[i], order[j] = order[j], order[i]
    return order


def abc_tokenizer() -> Tokenizer:
    """The lesson's tokenizer: the 256 bytes and two merges, ``(a, b) -> ab`` then ``(b, c) -> bc``."""
    a, b, c = b"abc"
    vocab = {i: bytes([i]) for i in range(256)} | {256: b"ab", 257: b"bc"}
    return Tokenizer(vocab, [(a, b), (b, c)], pattern="none")


@dataclass(frozen=True, slots=True)
class OrderChange:
    """A swap of two merges that cuts a text differently: 0-based positions, the token they share, and
    the number of stretches of the text cut differently."""

    first: int
    second: int
    shared: int  # the id of the token the two merges share (one's right, the other's left)
    stretches: int


@dataclass(frozen=True, slots=True)
class OrderSearch:
    """What :func:`swaps_that_change` found: the swaps, and how many pairs of merges could compete at all
    (share a token) and how many of those meet in the text."""

    changes: tuple[OrderChange, ...]
    sharing: int  # pairs of merges where one's right token is the other's left token
    meeting: int  # of those, the ones whose three tokens occur together in the text
    tried: int  # swaps encoded (at most ``tries``)


def competing_pairs(merges: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Positions ``(i, j)``, ``i < j``, of merges that can compete for one place, and the token they share:
    ``(a, b)`` and ``(b, c)`` both want the ``b`` of ``abc``, whichever order they come in.

    >>> competing_pairs([(97, 98), (98, 99), (120, 121)])
    [(0, 1, 98)]
    """
    by_left: dict[int, list[int]] = {}
    by_right: dict[int, list[int]] = {}
    for k, (a, b) in enumerate(merges):
        by_left.setdefault(a, []).append(k)
        by_right.setdefault(b, []).append(k)
    out: set[tuple[int, int, int]] = set()
    for k, (_, b) in enumerate(merges):
        for m in by_left.get(b, ()):
            if m != k:
                out.add((min(k, m), max(k, m), b))
    return sorted(out, key=lambda t: (t[1], t[0]))


def swaps_that_change(tokenizer: Tokenizer, text: str, *, limit: int = 8, tries: int = 150) -> OrderSearch:
    """Swaps of two merges that change how ``text`` is cut (up to ``limit``, encoding at most ``tries``).

    The candidates are the pairs of merges that share a token (:func:`competing_pairs`) and whose three
    tokens meet in the text: there the two can compete for one place.  Each is checked by encoding
    (a swap also moves each of the two past the merges between them, which can matter too).

    >>> found = swaps_that_change(abc_tokenizer(), "abc abc")
    >>> found.changes, found.sharing, found.meeting
    ((OrderChange(first=0, second=1, shared=98, stretches=2),), 1, 1)
    >>> swaps_that_change(abc_tokenizer(), "ab bc").changes  # they never meet: no swap changes it
    ()
    """
    merges, vocab = tokenizer.merges, tokenizer.vocab
    data = text.encode("utf-8", errors="surrogatepass")
    sharing = competing_pairs(merges)
    meeting = [
        (i, j, shared)
        for i, j, shared in sharing
        if _triple(merges, vocab, i, j) in data or _triple(merges, vocab, j, i) in data
    ]
    changes: list[OrderChange] = []
    tried = 0
    trained = _ends(tokenizer.encode(text), vocab) if meeting else []
    for i, j, shared in meeting:
        if len(changes) >= limit or tried >= tries:
            break
        tried += 1
        other = reordered(tokenizer, swapped_order(len(merges), i, j))
        stretches = _stretches(trained, _ends(other.encode(text), vocab))
        if stretches:
            changes.append(OrderChange(first=i, second=j, shared=shared, stretches=stretches))
    return OrderSearch(changes=tuple(changes), sharing=len(sharing), meeting=len(meeting), tried=tried)


def _triple(merges: Sequence[tuple[int, int]], vocab: Mapping[int, bytes], i: int, j: int) -> bytes:
    """The bytes where merge ``i``'s left token, the shared one, and merge ``j``'s right token meet
    (``i``'s right token is ``j``'s left); bytes no UTF-8 text holds when they do not chain that way."""
    (a, b), (c, d) = merges[i], merges[j]
    if b != c:
        return b"\xff\xfe\xff"  # never in UTF-8 text
    return vocab[a] + vocab[b] + vocab[d]


def _ends(ids: Sequence[int], vocab: Mapping[int, bytes]) -> list[int]:
    """The byte offset where each token ends."""
    out, at = [], 0
    for i in ids:
        at += len(vocab[i])
        out.append(at)
    return out


def _stretches(left: Sequence[int], right: Sequence[int]) -> int:
    """How many stretches of the text two cuts (their tokens' end offsets) cut differently.

    >>> _stretches([2, 3, 5], [1, 3, 5]), _stretches([1, 2, 3, 4], [2, 4]), _stretches([3], [3])
    (1, 2, 0)
    """
    common = set(left) & set(right)
    count, inside = 0, False
    for end in sorted(set(left) | set(right)):
        if end in common:
            inside = False
        elif not inside:
            count, inside = count + 1, True
    return count
