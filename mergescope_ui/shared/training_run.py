"""Stepping through a trainer across Streamlit reruns, without ever retraining.

A :class:`Stepper` holds the records pulled so far from a trainer of any scheme and a position.
Next pulls one more record (or reuses one already pulled); Back and Reset only move the position;
jumping pulls up to the target.  What a scheme does beyond that is a hook: :meth:`Stepper._draw`
(pull one record, and keep what else the scheme needs of it) and :meth:`Stepper._ahead` (have the
next records at hand, as a trainer in a worker fetches them in batches).

A :class:`TrainingRun` is BPE's (its trainer here or in a session worker,
:class:`~.workers.remote_trainer.RemoteTrainer`); the Train page keeps it in ``session_state``
(:data:`mergescope_ui.shared.keys.RUN`), where the Tokenize page reads it.  WordPiece's and Unigram's
is :class:`mergescope_ui.train.scheme_run.SchemeRun`.

>>> from bpe_core import TrainOptions, Trainer
>>> text, settings = "aaabdaaabac", TrainOptions(vocab_size=300, pattern="none")
>>> run = TrainingRun(Trainer(text, settings), identity=RunIdentity.of(text, settings))
>>> run.forward(), run.forward(), run.back(), run.position, run.pulled
(True, True, True, 1, 2)
>>> run.jump(99), run.position, run.finished, run.stop_reason
(7, 7, True, 'no pair of adjacent tokens is left to merge')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from bpe_core import MergeStep, TrainOptions

from .digest import digest
from .workers.remote_trainer import BpeTrainer, prefetch

StepT = TypeVar("StepT")
StepT_co = TypeVar("StepT_co", covariant=True)
Progress = Callable[[int, int], object]


class Source(Protocol[StepT_co]):
    """What a stepper pulls its records from: a trainer of any scheme."""

    def __next__(self) -> StepT_co: ...

    @property
    def stop_reason(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class RunIdentity:
    """What a run was trained from: the text (by digest) and the settings (a page compares it with the
    widgets' to tell when to start afresh and what changed)."""

    text_digest: str
    settings: TrainOptions

    @classmethod
    def of(cls, text: str, settings: TrainOptions) -> RunIdentity:
        return cls(text_digest=digest(text), settings=settings)


@dataclass(eq=False)
class Stepper(Generic[StepT]):
    """The records pulled from a trainer, and where the viewer is: ``position`` steps shown (0: before the
    first; ``k`` shows ``records[k - 1]``).  A user names its trainer in :attr:`source`."""

    records: list[StepT] = field(default_factory=list, kw_only=True)
    position: int = field(default=0, kw_only=True)
    finished: bool = field(default=False, kw_only=True)
    """True when the trainer has no more steps (the page says why)."""

    @property
    def source(self) -> Source[StepT]:
        """The trainer the records come from."""
        raise NotImplementedError(f"{type(self).__name__} names no trainer; define its source")

    @property
    def pulled(self) -> int:
        return len(self.records)

    @property
    def current(self) -> StepT | None:
        """The record of the step at ``position`` (None at step 0)."""
        return self.records[self.position - 1] if self.position else None

    @property
    def at_end(self) -> bool:
        """True when Next cannot move: training has finished and the last record is shown."""
        return self.finished and self.position == len(self.records)

    @property
    def stop_reason(self) -> str | None:
        return self.source.stop_reason if self.finished else None

    def _draw(self) -> StepT:
        """Hook: the trainer's next record (StopIteration at the end); a scheme that keeps more of each
        step (Unigram: the round's scores and recut words) keeps it here."""
        return next(self.source)

    def _ahead(self, n: int, progress: Progress | None) -> None:
        """Hook: have the next ``n`` records at hand before they are pulled one by one (a trainer in a
        worker fetches them in batches, reporting ``progress(done, n)``)."""

    def pull(self) -> bool:
        """Pull one more record from the trainer; False when it has none left."""
        if self.finished:
            return False
        try:
            self.records.append(self._draw())
        except StopIteration:
            self.finished = True
            return False
        return True

    def peek(self) -> StepT | None:
        """The record after ``position`` (pulled if needed, position unchanged)."""
        if self.position == len(self.records) and not self.pull():
            return None
        return self.records[self.position]

    def forward(self) -> bool:
        """Show the next step; False when training has finished."""
        if self.peek() is None:
            return False
        self.position += 1
        return True

    def back(self) -> bool:
        """Show the previous step (records are kept, nothing retrains); False at step 0."""
        if self.position == 0:
            return False
        self.position -= 1
        return True

    def reset(self) -> None:
        """Back to step 0 (the records stay for replay)."""
        self.position = 0

    def jump(self, target: int, *, progress: Progress | None = None, every: int = 25) -> int:
        """Move to step ``target``, pulling records as needed (fewer where training finishes); the step
        reached.  ``progress(done, total)`` every ``every`` pulls."""
        if target < 0:
            raise ValueError(f"step {target} is negative; steps start at 0 (before the first)")
        start = len(self.records)
        need = target - start
        if need > 0:
            self._ahead(need, progress)
        while len(self.records) < target and self.pull():
            done = len(self.records) - start
            if progress is not None and done % every == 0:
                progress(done, need)
        self.position = min(target, len(self.records))
        return self.position


@dataclass(eq=False)
class TrainingRun(Stepper[MergeStep]):
    """A BPE trainer, the records pulled from it, and the merges shown (0: the raw bytes)."""

    trainer: BpeTrainer
    identity: RunIdentity

    @property
    def source(self) -> BpeTrainer:
        return self.trainer

    @property
    def max_steps(self) -> int:
        return self.identity.settings.max_merges

    def _ahead(self, n: int, progress: Progress | None) -> None:
        prefetch(self.trainer, n, progress=progress)

    def sequence(self, position: int | None = None) -> tuple[int, ...]:
        """Preview ids after ``position`` merges (default: the current one)."""
        k = self.position if position is None else position
        if not 0 <= k <= len(self.records):
            raise ValueError(f"position {k} is outside 0..{len(self.records)} (the records pulled so far)")
        return self.records[k - 1].sequence if k else tuple(self.trainer.initial_sequence)
