"""Stepping through a trainer across Streamlit reruns, without ever retraining.

A :class:`TrainingRun` holds the engine's trainer, every record pulled so far
and a position.  Next pulls one more record (or reuses one already pulled);
Back and Reset only move the position; jumping pulls up to the target.  The
Train page keeps its run in ``session_state`` (:data:`mergescope_ui.shared.keys.RUN`);
the Tokenize page reads it there.

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

from bpe_core import MergeStep, Trainer, TrainOptions

from .digest import digest
from .workers.remote_trainer import RemoteTrainer


@dataclass(frozen=True, slots=True)
class RunIdentity:
    """What a run was trained from: the text (by digest) and the settings.

    A page compares the identity of the run it has with the one the widgets
    describe, to tell when to start afresh and what changed.
    """

    text_digest: str
    settings: TrainOptions

    @classmethod
    def of(cls, text: str, settings: TrainOptions) -> RunIdentity:
        return cls(text_digest=digest(text), settings=settings)


@dataclass(eq=False)
class TrainingRun:
    """A trainer, the records pulled from it, and where the viewer is.

    ``position`` is the number of merges shown: 0 is the raw bytes, ``k``
    shows ``records[k - 1]``.  ``identity`` names the text and settings the
    trainer was built from.
    """

    trainer: Trainer
    identity: RunIdentity
    records: list[MergeStep] = field(default_factory=list)
    position: int = 0
    finished: bool = False
    """True when the trainer has no more merges (the page says why)."""

    @property
    def pulled(self) -> int:
        return len(self.records)

    @property
    def current(self) -> MergeStep | None:
        """The record of the merge at ``position`` (None at step 0)."""
        return self.records[self.position - 1] if self.position else None

    @property
    def at_end(self) -> bool:
        """True when Next cannot move: training has finished and the last record is shown."""
        return self.finished and self.position == len(self.records)

    @property
    def stop_reason(self) -> str | None:
        return self.trainer.stop_reason if self.finished else None

    def sequence(self, position: int | None = None) -> tuple[int, ...]:
        """Preview ids after ``position`` merges (default: the current one)."""
        k = self.position if position is None else position
        if not 0 <= k <= len(self.records):
            raise ValueError(f"position {k} is outside 0..{len(self.records)} (the records pulled so far)")
        return self.records[k - 1].sequence if k else tuple(self.trainer.initial_sequence)

    def pull(self) -> bool:
        """Pull one more record from the trainer; False when it has none left."""
        if self.finished:
            return False
        try:
            self.records.append(next(self.trainer))
        except StopIteration:
            self.finished = True
            return False
        return True

    def peek(self) -> MergeStep | None:
        """The record after ``position`` (pulled if needed, position unchanged)."""
        if self.position == len(self.records) and not self.pull():
            return None
        return self.records[self.position]

    def forward(self) -> bool:
        """Show the next merge; False when training has finished."""
        if self.peek() is None:
            return False
        self.position += 1
        return True

    def back(self) -> bool:
        """Show the previous merge (records are kept, nothing retrains); False at step 0."""
        if self.position == 0:
            return False
        self.position -= 1
        return True

    def reset(self) -> None:
        """Back to step 0 (the records stay for replay)."""
        self.position = 0

    def jump(
        self, target: int, *, progress: Callable[[int, int], object] | None = None, every: int = 25
    ) -> int:
        """Move to step ``target``, pulling records as needed; returns the step reached.

        It stops early when training finishes.  ``progress(done, total)`` is
        called every ``every`` pulls while pulling.
        """
        if target < 0:
            raise ValueError(f"step {target} is negative; steps start at 0 (the raw bytes)")
        start = len(self.records)
        need = target - start
        if need > 0 and isinstance(self.trainer, RemoteTrainer):  # the records come in batches
            self.trainer.prefetch(need, progress=progress)
        while len(self.records) < target and self.pull():
            done = len(self.records) - start
            if progress is not None and done % every == 0:
                progress(done, need)
        self.position = min(target, len(self.records))
        return self.position
