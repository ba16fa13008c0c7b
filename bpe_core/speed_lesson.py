"""Why the fast trainer matters: time the naive and the fast trainer on one text, then extrapolate.

The naive trainer recounts every pair of its whole word table at every
merge, so its time grows as (table size x merges).  The fast trainer
touches only the places where the merged pair occurs; each such visit
removes a token, and a text cannot lose more tokens than it has bytes, so
apart from the heap its total work grows with the corpus, not with the
number of merges.  The extrapolation uses exactly these two models:

- naive: ``seconds x (target bytes / bytes) x (target merges / merges)``
- fast: ``seconds x (target bytes / bytes)``

Both ignore that a larger corpus repeats more words (so both over-estimate
alike); they are orders of magnitude, not forecasts.  A "GPT-2-sized run"
here means 50,000 merges on 40 GB of text (the size of WebText).

>>> lesson = time_trainers("low lower lowest newest widest " * 20, merges=10, clock=iter(range(100)).__next__)
>>> lesson.same_merges, lesson.naive_seconds, lesson.fast_seconds
(True, 1, 1)
>>> est = lesson.extrapolate(target_bytes=lesson.text_bytes * 10, target_merges=20)
>>> est.naive_seconds, est.fast_seconds
(20.0, 10.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .naive_trainer import NaiveTrainer
from .step_trainer import check_text
from .trainer import MergeTrainer

GPT2_MERGES = 50_000
GPT2_BYTES = 40 * 10**9  # WebText, about 40 GB of text


@dataclass(frozen=True, slots=True)
class Extrapolation:
    """Estimated seconds for both trainers on ``target_bytes`` with ``target_merges``."""

    target_bytes: int
    target_merges: int
    naive_seconds: float
    fast_seconds: float


@dataclass(frozen=True, slots=True)
class SpeedLesson:
    """Both trainers timed on one text for ``merges`` merges (each stops early if the text runs out of pairs)."""

    text_bytes: int
    merges: int  # merges both made
    naive_seconds: float
    fast_seconds: float
    same_merges: bool  # the two learned the same merges, in the same order

    @property
    def speedup(self) -> float:
        return self.naive_seconds / self.fast_seconds if self.fast_seconds > 0 else float("inf")

    def extrapolate(
        self, *, target_bytes: int = GPT2_BYTES, target_merges: int = GPT2_MERGES
    ) -> Extrapolation:
        """Scale both timings to a bigger run with the models of the module doc."""
        if target_bytes < 1 or target_merges < 1:
            raise ValueError(
                f"target bytes and merges must be at least 1, not {target_bytes} and {target_merges}"
            )
        if self.text_bytes == 0 or self.merges == 0:
            raise ValueError("nothing was trained (empty text or no pair to merge); time a longer text first")
        scale = target_bytes / self.text_bytes
        return Extrapolation(
            target_bytes=target_bytes,
            target_merges=target_merges,
            naive_seconds=self.naive_seconds * scale * target_merges / self.merges,
            fast_seconds=self.fast_seconds * scale,
        )


def time_trainers(
    text: str,
    *,
    merges: int,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    tie_break: str = "lexicographic",
    clock: Callable[[], float] = time.perf_counter,
) -> SpeedLesson:
    """Run the naive and the fast trainer for ``merges`` merges on ``text``; each time includes its setup.

    Keep the text small (a few KB) for the naive one.  ``clock`` is for tests.
    """
    data = check_text(text)
    if isinstance(merges, bool) or not isinstance(merges, int) or not 1 <= merges <= 100_000:
        raise ValueError(f"merges must be a whole number from 1 to 100000, not {merges!r}")
    specials = list(special_tokens)
    options = dict(
        vocab_size=256 + len(specials) + merges,
        pattern=pattern,
        special_tokens=specials,
        tie_break=tie_break,
        top_k=0,
        preview_chars=0,
    )
    start = clock()
    naive = NaiveTrainer(text, **options, workers=1).run()
    naive_seconds = clock() - start
    start = clock()
    fast = MergeTrainer(text, **options, records=False, workers=1).run()
    fast_seconds = clock() - start
    return SpeedLesson(
        text_bytes=len(data),
        merges=min(len(naive.merges), len(fast.merges)),
        naive_seconds=naive_seconds,
        fast_seconds=fast_seconds,
        same_merges=naive.merges == fast.merges,
    )
