"""The naive trainer: the textbook loop, kept short so it can be read in class.

Every step recounts all adjacent pairs in the corpus, picks the most frequent
(ties by the same :class:`~bpe_core.tie_break.TieRule` as the fast trainer),
and rewrites every chunk.  It is the test oracle for the fast trainer and the
app's "why the fast one matters" demo: a step costs the whole corpus.
"""

from __future__ import annotations

import itertools

from .step_trainer import StepTrainer, merge_ids


class NaiveTrainer(StepTrainer):
    """Iterator of merge steps; build it with :func:`bpe_core.naive_train_steps`."""

    def _setup(self, chunk_counts: dict[str, int]) -> None:
        # Distinct chunks in first-occurrence order, each with how often it occurs.
        self._words = [(list(chunk.encode("utf-8")), c) for chunk, c in chunk_counts.items()]

    def _choose(self):
        counts: dict[tuple[int, int], int] = {}
        first: dict[tuple[int, int], int] = {}
        pos = 0
        for ids, c in self._words:
            for i, pair in enumerate(itertools.pairwise(ids)):
                counts[pair] = counts.get(pair, 0) + c
                first.setdefault(pair, pos + i)
            pos += len(ids)
        if not counts:
            return None
        key = self.rule.key
        ranked = sorted(counts, key=lambda p: (-counts[p], key(p[0], p[1], first[p])))
        best = counts[ranked[0]]
        ties = [p for p in ranked if counts[p] == best]
        table = [(p, counts[p]) for p in ranked[: self.top_k]]
        return ranked[0], best, ties, table

    def _merge(self, a: int, b: int, new_id: int) -> int:
        replaced = 0
        for n, (ids, c) in enumerate(self._words):
            new = merge_ids(ids, a, b, new_id)
            replaced += (len(ids) - len(new)) * c
            self._words[n] = (new, c)
        return replaced
