"""Where a run starts, and how a branch goes back to an earlier step without retraining.

A run from scratch starts from each chunk's bytes.  A branch at step ``k``
starts where its parent was after ``k - 1`` merges, and that state is cheap to
get back: a merge only ever joins two neighbouring tokens, so splitting every
token made at step ``k`` or later back into the two it was made from (and
those again, down to tokens older than step ``k``) gives exactly the chunks
after step ``k - 1``.  No pair is counted and no pair is chosen again.

>>> merges = [(97, 98), (256, 99)]  # 256 = ab, then 257 = abc
>>> rewind([[257, 32, 256], [97]], merges, base=256, steps=1)  # keep merge 1 only
[[256, 99, 32, 256], [97]]
>>> rewind([[257, 32, 256]], merges, base=256, steps=0)
[[97, 98, 99, 32, 97, 98]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain

from ..primitives import Pair


@dataclass(eq=False, slots=True)
class RunState:
    """What a trainer starts from, and (once it runs) how to read where it is.

    ``chunks``: each distinct chunk's token ids, in the corpus's order (None:
    their UTF-8 bytes, a run from scratch); ``vocab``: id -> bytes so far;
    ``tokens``: the corpus's token count.  The trainer that runs from a state
    sets ``read`` to a function giving the chunks' ids *now*, which is what
    ``Trainer.branch`` rewinds.
    """

    chunks: list[list[int]] | None
    vocab: dict[int, bytes]
    tokens: int
    read: Callable[[], list[list[int]]] | None = None

    def chunk_ids(self) -> list[list[int]]:
        """Each chunk's ids now (as the trainer left them)."""
        if self.read is None:
            raise ValueError("this state has not been run yet; start a trainer from it first")
        return self.read()


def rewind(chunks: Iterable[list[int]], merges: Sequence[Pair], *, base: int, steps: int) -> list[list[int]]:
    """Each chunk as it was after the first ``steps`` merges of ``merges`` (merge ``n`` made id ``base + n``).

    Every id from ``base + steps`` on is split into its pair, recursively; each
    such id's pieces are worked out once, so a chunk costs one pass in C.
    """
    cut = base + steps
    pieces: list[tuple[int, ...]] = [(i,) for i in range(cut)]
    for a, b in merges[steps:]:  # ids cut, cut + 1, ... in order, each made of two earlier ones
        pieces.append(pieces[a] + pieces[b])
    get = pieces.__getitem__
    return [list(chain.from_iterable(map(get, ids))) if max(ids, default=0) >= cut else ids for ids in chunks]
