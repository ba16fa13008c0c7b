"""Merges as pairs of byte strings, the shape other libraries and the CS336 assignment use.

``vocab: dict[int, bytes]`` and ``merges: list[tuple[bytes, bytes]]`` (the two
tokens each merge joins, in merge order) become the id pairs
:class:`~bpe_core.tokenizer.Tokenizer` takes, checked on the way.

>>> vocab = {i: bytes([i]) for i in range(256)} | {256: b"lo", 257: b"low"}
>>> merge_ids(vocab, [(b"l", b"o"), (b"lo", b"w")])
[(108, 111), (256, 119)]
>>> merge_ids(vocab, [(b"l", b"ow")])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: merge 1 (b'l', b'ow'): b'ow' is not in the vocab; ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence


def check_vocab(vocab: Mapping[int, bytes]) -> dict[bytes, int]:
    """``bytes -> id`` for a vocab whose ids are 0..n-1 and whose byte strings are all different."""
    if not isinstance(vocab, Mapping):
        raise ValueError(f"vocab must be a dict of id -> bytes, not {type(vocab).__name__}")
    id_of: dict[bytes, int] = {}
    for i, token in vocab.items():
        if isinstance(i, bool) or not isinstance(i, int):
            raise ValueError(f"vocab id {i!r} is not a whole number; ids are 0, 1, 2, ...")
        if not isinstance(token, bytes):
            raise ValueError(
                f"vocab[{i}] is a {type(token).__name__}, not bytes; give each token's bytes "
                "(str.encode('utf-8') for text)"
            )
        if token in id_of:
            raise ValueError(
                f"vocab ids {id_of[token]} and {i} both hold {_show(token)}; each byte string needs one id"
            )
        id_of[token] = i
    if vocab and sorted(vocab) != list(range(len(vocab))):
        missing = next(k for k in range(len(vocab) + 1) if k not in vocab)
        raise ValueError(
            f"vocab ids must be 0..{len(vocab) - 1} without gaps, but {missing} is missing "
            f"(largest id {max(vocab)}); renumber them"
        )
    return id_of


def merge_ids(vocab: Mapping[int, bytes], merges: Iterable[tuple[bytes, bytes]]) -> list[tuple[int, int]]:
    """The id pair of each byte-string merge; each part and each result must be in ``vocab``."""
    id_of = check_vocab(vocab)
    out: list[tuple[int, int]] = []
    for number, merge in enumerate(merges, 1):
        if not (isinstance(merge, Sequence) and len(merge) == 2 and all(isinstance(x, bytes) for x in merge)):
            raise ValueError(f"merge {number} is {merge!r}, not a pair of byte strings like (b'l', b'o')")
        left, right = merge
        for part in (left, right):
            if part not in id_of:
                raise ValueError(
                    f"merge {number} ({_show(left)}, {_show(right)}): {_show(part)} is not in the vocab; "
                    "every token a merge joins must be in the vocab"
                )
        if left + right not in id_of:
            raise ValueError(
                f"merge {number} ({_show(left)}, {_show(right)}) makes {_show(left + right)}, which is not "
                "in the vocab; add it, or check that the merges and the vocab come from the same tokenizer"
            )
        out.append((id_of[left], id_of[right]))
    return out


def _show(token: bytes, limit: int = 40) -> str:
    """A token for a message, cut short when long."""
    text = repr(token)
    return text if len(text) <= limit else text[: limit - 5] + "...'"
