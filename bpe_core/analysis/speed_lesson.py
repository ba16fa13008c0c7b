"""Why the fast trainer matters: time the textbook and the fast trainer on one text, then extrapolate.

The textbook trainer recounts every pair of its whole word table at every
merge, so its time grows as (table size x merges).  The fast trainer
touches only the places where the merged pair occurs; each such visit
removes a token, and a text cannot lose more tokens than it has bytes, so
apart from the heap its total work grows with the corpus, not with the
number of merges.  The extrapolation uses exactly these two models:

- textbook: ``seconds x (target bytes / bytes) x (target merges / merges)``
- fast: ``seconds x (target bytes / bytes)``

Both ignore that a larger corpus repeats more words (so both over-estimate
alike); they are orders of magnitude, not forecasts.  A "GPT-2-sized run"
here means 50,000 merges on 40 GB of text (the size of WebText).

>>> from bpe_core import TrainOptions
>>> clock = iter(range(100)).__next__
>>> lesson = time_trainers("low lower lowest newest widest " * 20, TrainOptions(vocab_size=266), clock=clock)
>>> lesson.same_merges, lesson.textbook_seconds, lesson.fast_seconds
(True, 1, 1)
>>> est = lesson.extrapolate(target_bytes=lesson.text_bytes * 10, target_merges=20)
>>> est.textbook_seconds, est.fast_seconds
(20.0, 10.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..pretokenizer import check_text
from ..training import Trainer, TrainOptions

GPT2_MERGES = 50_000
GPT2_BYTES = 40 * 10**9  # WebText, about 40 GB of text


@dataclass(frozen=True, slots=True)
class Extrapolation:
    """Estimated seconds for both trainers on ``target_bytes`` with ``target_merges``."""

    target_bytes: int
    target_merges: int
    textbook_seconds: float
    fast_seconds: float


@dataclass(frozen=True, slots=True)
class SpeedLesson:
    """Both trainers timed on one text for ``merges`` merges (each stops early if no pair is left)."""

    text_bytes: int
    merges: int  # merges both made
    textbook_seconds: float
    fast_seconds: float
    same_merges: bool  # the two learned the same merges, in the same order

    @property
    def speedup(self) -> float:
        return self.textbook_seconds / self.fast_seconds if self.fast_seconds > 0 else float("inf")

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
            textbook_seconds=self.textbook_seconds * scale * target_merges / self.merges,
            fast_seconds=self.fast_seconds * scale,
        )


def time_trainers(
    text: str, options: TrainOptions, *, clock: Callable[[], float] = time.perf_counter
) -> SpeedLesson:
    """Run the textbook and the fast trainer up to ``options.vocab_size`` on ``text``; each time
    includes its setup.  Keep the text small (a few KB) for the textbook one.  ``clock`` is for tests.
    """
    data = check_text(text)
    if not 1 <= options.max_merges <= 100_000:
        raise ValueError(
            f"the lesson times 1 to 100000 merges, not {options.max_merges}; "
            f"ask for a vocab size from {options.base_vocab + 1} to {options.base_vocab + 100_000}"
        )
    plain = options.replace(top_k=0, preview_chars=0)
    start = clock()
    textbook = Trainer(text, plain, method="textbook", workers=1).run()
    textbook_seconds = clock() - start
    start = clock()
    fast = Trainer(text, plain, records=False, workers=1).run()
    fast_seconds = clock() - start
    return SpeedLesson(
        text_bytes=len(data),
        merges=min(len(textbook.merges), len(fast.merges)),
        textbook_seconds=textbook_seconds,
        fast_seconds=fast_seconds,
        same_merges=textbook.merges == fast.merges,
    )
