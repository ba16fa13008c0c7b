"""The textbook encoder: split the text, then in each chunk merge the earliest-learned pair, repeat.

This is encoding as a lesson states it, short enough to read in one sitting.
A trained tokenizer keeps its merges in the order training learned them; a
merge's *rank* is its place in that list (0 for the first).  To encode a text:

1. cut out the special tokens, each one id, and split the rest into chunks
   with the split pattern, as training did (:mod:`bpe_core.pretokenizer`);
2. write each chunk as the ids of its UTF-8 bytes;
3. among the adjacent pairs of the chunk, find the one whose merge has the
   lowest rank, and merge it everywhere in the chunk (left to right, with
   :func:`~bpe_core.primitives.merge_pair`); repeat until no adjacent pair is
   a merge.

So encoding replays training on each chunk: what was learned first is merged
first.  Each round reads the whole chunk again; :meth:`.bpe.Tokenizer.encode`
gives exactly the same ids, faster (it looks the ranks up once and then
updates only the pairs beside a merge, and keeps the chunks it has seen), and
a hypothesis test compares the two (``tests/engine/tokenizer/test_textbook.py``).

>>> from bpe_core import train
>>> tok = train("low low low lower lowest", vocab_size=259, pattern="gpt2")
>>> [tok.vocab[a] + tok.vocab[b] for a, b in tok.merges]  # ranks 0, 1, 2
[b'ow', b'low', b' low']

``slow`` is one chunk: ``s l o w``; rank 0 makes ``s l ow``, rank 1 ``s low``,
and no pair of ``s low`` is a merge.

>>> [tok.vocab[i] for i in textbook_encode(tok, "slow lowly")]
[b's', b'low', b' low', b'l', b'y']
>>> textbook_encode(tok, "slow lowly") == tok.encode("slow lowly")
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from ..pretokenizer import check_text
from ..primitives import Pair, merge_pair
from .bpe import Tokenizer


def textbook_encode(tokenizer: Tokenizer, text: str) -> list[int]:
    """The token ids of ``text``, as :meth:`Tokenizer.encode <.bpe.Tokenizer.encode>` gives them.

    >>> vocab = {i: bytes([i]) for i in range(256)} | {256: b"ab"}
    >>> tok = Tokenizer.from_merges(vocab, [(b"a", b"b")], ["<|eot|>"])
    >>> textbook_encode(tok, "abc<|eot|>ab")
    [256, 99, 257, 256]
    """
    check_text(text)  # a lone surrogate has no UTF-8: a ValueError that says where it is
    # A pair's rank is where it is first in the merges (a later copy of a pair never applies).
    ranks: dict[Pair, int] = {}
    for rank, pair in enumerate(tokenizer.merges):
        ranks.setdefault(pair, rank)
    byte_ids = tokenizer.byte_ids()
    ids: list[int] = []
    # 1. Special tokens out (each is one id), the rest split into chunks.
    for segment, special in tokenizer.pretokenizer.segments(text):
        if special:
            ids.append(tokenizer.special_tokens[segment])
            continue
        for chunk in tokenizer.pretokenizer.split(segment):
            # 2. The chunk's bytes, as ids.
            chunk_ids = [byte_ids[b] for b in chunk.encode("utf-8")]
            # 3. Merge the lowest-rank pair, until none is left.
            ids += merge_chunk(chunk_ids, ranks, tokenizer.merge_ids)
    return ids


def merge_chunk(ids: Sequence[int], ranks: Mapping[Pair, int], merge_ids: Sequence[int]) -> list[int]:
    """One chunk's ids after applying the merges: each round merges the lowest-rank pair present.

    ``ranks`` maps a merge's pair to its rank; ``merge_ids[rank]`` is the id that merge makes.
    With the merges (a, a) -> 256 and (256, a) -> 257, ``aaaa`` is merged in two rounds:
    ``a a a a`` -> ``256 256`` (pair (a, a), left to right, no overlap), then no pair left.

    >>> ranks, made = {(97, 97): 0, (256, 97): 1}, [256, 257]
    >>> merge_chunk(list(b"aaaa"), ranks, made), merge_chunk(list(b"aaa"), ranks, made)
    ([256, 256], [257])
    """
    ids = list(ids)
    while len(ids) > 1:
        # The adjacent pair learned earliest; a pair that is no merge ranks after every merge.
        pair = min(pairwise(ids), key=lambda p: ranks.get(p, len(merge_ids)))
        if pair not in ranks:
            break  # no adjacent pair is a merge: the chunk is encoded
        ids = merge_pair(ids, pair, merge_ids[ranks[pair]])
    return ids
