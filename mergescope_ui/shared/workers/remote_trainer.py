"""A trainer whose work runs in a session worker process, for large texts (no Streamlit).

A 10 MB text holds the interpreter lock for seconds at each of its first merges, so
:func:`start_trainer` keeps a small text's :class:`~bpe_core.Trainer` here and puts a larger one in
a :class:`~.session_worker.SessionWorker` of its own behind a :class:`RemoteTrainer` (the members of
a ``Trainer`` the pages use; records come back in batches).  What a page asks differently of the two
(:func:`characters_for`, :func:`replay_for`, :func:`prefetch`) is a hook on the trainer's class.
The worker ends with the run; one let go idle is built again from what was written down (the build,
how far each trainer went, its branches).

>>> from bpe_core import TrainOptions, Trainer
>>> options = TrainOptions(vocab_size=300, pattern="none", tie_break="lowest-id")
>>> remote = RemoteTrainer.start("aaabdaaabac", options)
>>> steps = list(remote)
>>> steps == list(Trainer("aaabdaaabac", options)), len(steps), remote.stop_reason
(True, 7, 'no pair of adjacent tokens is left to merge')
>>> remote.worker.stop()
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import singledispatch
from typing import Final, TypeAlias

from bpe_core import MergeStep, Tokenizer, Trainer, TrainOptions
from bpe_core.bpe import Method, PairCount, TextReplay
from bpe_core.bpe import TextPlace as Place  # (the engine's: the contract's Place is the stage's)
from bpe_core.byte_level import character_counts

from .. import hosting
from .jobs import MEGABYTE, Limits
from .remote import Remote
from .session_worker import Context, ProgressFn, SessionWorker

IN_PROCESS_CHARS: Final = hosting.positive_int("MERGESCOPE_IN_PROCESS_CHARS")
"""Texts up to this many characters train in the server's own process (stepping the built-in texts or
a pasted page stays instant); longer ones in a worker (``MERGESCOPE_IN_PROCESS_CHARS``)."""
TRAINER_LIMITS: Final = Limits(seconds=300, memory_bytes=2560 * MEGABYTE)
"""Per request and per worker: a 10 MB text with pattern ``none`` reaches 1.5 GB at its first merge."""
BATCH: Final = 256  # most merges in one answer (a few hundred KB of records)
FIRST_BATCH: Final = 8


@dataclass(frozen=True, slots=True)
class Facts:
    """What the server keeps of a run trained in the worker: its settings and the corpus's figures."""

    options: TrainOptions
    method: Method
    corpus_bytes: int
    initial_tokens: int
    preview_text: str
    initial_sequence: tuple[int, ...]
    characters: dict[str, int]
    """The text's characters of more than one byte, with their counts (``character_counts``)."""


def start_trainer(
    text: str, options: TrainOptions, *, workers: int | None = None, in_process_chars: int | None = None
) -> BpeTrainer:
    """A trainer for ``text``: here when the text is small, else in a worker (:class:`RemoteTrainer`).

    >>> start_trainer("low lower", TrainOptions(vocab_size=258)).__class__.__name__
    'Trainer'
    """
    limit = IN_PROCESS_CHARS if in_process_chars is None else in_process_chars
    if len(text) <= limit:
        return Trainer(text, options, workers=workers)
    return RemoteTrainer.start(text, options)


class RemoteTrainer(Remote):
    """A :class:`~bpe_core.Trainer` kept in a worker process: it yields the same records; ``vocab``,
    ``merges`` and ``stop_reason`` follow the records handed out, and ``options`` and the corpus's
    figures are the worker's :class:`Facts`."""

    def __init__(
        self,
        worker: SessionWorker,
        handle: int,
        facts: Facts,
        *,
        merges: Sequence[tuple[int, int]] = (),
        vocab: Mapping[int, bytes] | None = None,
    ) -> None:
        super().__init__(worker, handle)
        self.options, self.method = facts.options, facts.method
        self.corpus_bytes, self.initial_tokens = facts.corpus_bytes, facts.initial_tokens
        self.preview_text, self.initial_sequence = facts.preview_text, facts.initial_sequence
        self.characters = facts.characters
        self.pretokenizer = facts.options.pretokenizer()
        self.special_tokens = facts.options.special_ids()
        self.vocab = dict(vocab) if vocab is not None else dict(facts.options.initial_vocab())
        self.merges = list(merges)
        self.stop_reason: str | None = None
        self._buffer: deque[MergeStep] = deque()
        self._end: str | None = None  # why the worker's trainer stopped, once it has
        self._batch = FIRST_BATCH

    @classmethod
    def start(
        cls,
        text: str,
        options: TrainOptions,
        *,
        limits: Limits | None = None,
        idle_after: float | None = None,
    ) -> RemoteTrainer:
        """Start a worker and build the trainer there (a bad text is the engine's ValueError)."""
        remote, (handle, facts) = Remote.open(
            _build, text, options, name="trainer", limits=limits or TRAINER_LIMITS, idle_after=idle_after
        )
        return cls(remote.worker, handle, facts)

    def __del__(self) -> None:
        self.worker.release(self.handle)

    # ----- steps -----
    def __iter__(self) -> RemoteTrainer:
        return self

    def __next__(self) -> MergeStep:
        if self.stop_reason is not None:
            raise StopIteration
        if not self._buffer and self._end is None:
            self._fetch(self._batch)
            self._batch = min(BATCH, self._batch * 2)
        if not self._buffer:
            self.stop_reason = self._end
            raise StopIteration
        step = self._buffer.popleft()
        self.vocab[step.new_id] = step.token
        self.merges.append(step.pair)
        return step

    def prefetch(self, n: int, *, progress: ProgressFn | None = None) -> int:
        """Have the next ``n`` records here, in batches reporting ``progress(done, n)``; how many are here."""
        while len(self._buffer) < n and self._end is None:
            have = len(self._buffer)
            report = None if progress is None else (lambda d, t, have=have: progress(have + d, n))
            self._fetch(min(BATCH, n - have), progress=report)
            if progress is not None:
                progress(len(self._buffer), n)
        return min(n, len(self._buffer))

    def _fetch(self, n: int, *, progress: ProgressFn | None = None) -> None:
        self._took(self.call(_pull, n, progress=progress, late=self._took))

    def _took(self, answer: tuple[list[MergeStep], str | None]) -> None:
        steps, end = answer
        self._buffer.extend(steps)
        self._end = end
        made = len(self.merges) + len(self._buffer)  # the merges the worker's trainer has made
        self.remember(_pull_to, made, key=("pull", self.handle))

    # ----- what the worker makes, or is made here from the merges received -----
    def tokenizer(self) -> Tokenizer:
        """A :class:`~bpe_core.tokenizer.Tokenizer` with the merges made so far (as the engine's)."""
        return Tokenizer(
            dict(self.vocab),
            list(self.merges),
            special_tokens=dict(self.special_tokens),
            pattern=self.options.pattern,
        )

    def _check_step(self, step: int, message: str) -> None:
        """A ValueError (``message`` with the last step there is, and ``step``) unless 1 <= ``step`` <= it."""
        last = len(self.merges) + 1
        if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= last:
            raise ValueError(message.format(last, repr(step)))

    def pair_table(self, step: int) -> tuple[PairCount, ...]:
        self._check_step(
            step, "the pair table is there for steps 1 to {} (the steps made so far, and the next), not {}"
        )
        return self.call(_pair_table, step)

    def branch(
        self,
        at: int,
        *,
        block: Iterable[tuple[int, int]] = (),
        force: Mapping[int, tuple[int, int]] | None = None,
    ) -> RemoteTrainer:
        self._check_step(
            at, "a branch starts at a step from 1 to {} (the steps made so far, or the next), not {}"
        )
        handle, facts = self.call(_branch, at, list(block), dict(force or {}))
        self.remember(_branch, at, list(block), dict(force or {}))
        facts = replace(facts, characters=self.characters)  # the same text
        base = facts.options.base_vocab
        vocab = {i: t for i, t in self.vocab.items() if i < base + at - 1}
        return RemoteTrainer(self.worker, handle, facts, merges=self.merges[: at - 1], vocab=vocab)


BpeTrainer: TypeAlias = Trainer | RemoteTrainer
"""A BPE trainer, here (the engine's) or in a worker."""


class RemoteReplay:
    """The stage's ``TextReplay`` of a remote trainer's text: moving is free, the rest asks the worker."""

    def __init__(self, trainer: RemoteTrainer) -> None:
        self._trainer = trainer
        self._step = 0

    @property
    def step(self) -> int:
        return self._step

    def move_to(self, step: int, merges: Sequence[tuple[tuple[int, int], int]]) -> None:
        if not 0 <= step <= len(merges):
            raise ValueError(f"step {step} is outside 0..{len(merges)} (the merges given)")
        self._step = step

    def head(self, *, max_bytes: int) -> list[int]:
        return self._trainer.call(_replay_head, self._step, max_bytes=max_bytes)

    def places(
        self, token_id: int, *, start: int = 0, limit: int = 5, context_bytes: int = 24
    ) -> list[Place]:
        return self._trainer.call(
            _replay_places, self._step, token_id, start=start, limit=limit, context_bytes=context_bytes
        )


# What a page asks of any BPE trainer, answered here for the engine's and in the worker for a remote
# one: hooks added to the engine's class from outside it (the engine knows nothing of workers).
@singledispatch
def characters_for(trainer: object, text: str) -> dict[str, int]:
    """``character_counts(text)``, counted in the worker for a remote trainer.

    >>> characters_for(Trainer("a语b语", TrainOptions(vocab_size=257)), "a语b语")
    {'语': 2}
    """
    return character_counts(text)


@characters_for.register
def _(trainer: RemoteTrainer, text: str) -> dict[str, int]:
    return trainer.characters


@singledispatch
def replay_for(trainer: BpeTrainer, text: str) -> TextReplay | RemoteReplay:
    """The stage's replay of ``text`` for ``trainer``: here, or in the worker of a remote one."""
    return TextReplay(text, trainer.pretokenizer, special_tokens=trainer.special_tokens)


@replay_for.register
def _(trainer: RemoteTrainer, text: str) -> TextReplay | RemoteReplay:
    return RemoteReplay(trainer)


@singledispatch
def prefetch(trainer: object, n: int, *, progress: ProgressFn | None = None) -> None:
    """Have ``trainer``'s next ``n`` records at hand (a remote one's in batches, reporting ``progress``)."""


@prefetch.register
def _(trainer: RemoteTrainer, n: int, *, progress: ProgressFn | None = None) -> None:
    trainer.prefetch(n, progress=progress)


# ----- in the worker -----
@dataclass(eq=False, slots=True)
class _Hosted:
    """A trainer in the worker, with the text it was made from (shared by its branches)."""

    trainer: Trainer
    text: list[str]  # one item; a list, so that the replay made from it is shared too
    replay: list[TextReplay]


def _facts(trainer: Trainer, characters: dict[str, int]) -> Facts:
    return Facts(
        options=trainer.options,
        method=trainer.method,
        corpus_bytes=trainer.corpus_bytes,
        initial_tokens=trainer.initial_tokens,
        preview_text=trainer.preview_text,
        initial_sequence=tuple(trainer.initial_sequence),
        characters=characters,
    )


def _build(ctx: Context, text: str, options: TrainOptions) -> tuple[int, Facts]:
    trainer = Trainer(text, options, workers=1)
    return ctx.put(_Hosted(trainer, [text], [])), _facts(trainer, character_counts(text))


def _pull(ctx: Context, handle: int, n: int) -> tuple[list[MergeStep], str | None]:
    """Up to ``n`` more records (fewer when the page stopped waiting), and why training ended (or None)."""
    trainer = ctx.get(handle).trainer
    steps: list[MergeStep] = []
    for step in trainer:
        steps.append(step)
        if len(steps) >= n or ctx.stopped():
            break
        ctx.progress(len(steps), n)
    return steps, trainer.stop_reason


def _pull_to(ctx: Context, handle: int, made: int) -> None:
    """Train until the trainer has made ``made`` merges, or training ends (a run built again)."""
    trainer = ctx.get(handle).trainer
    while len(trainer.merges) < made and next(trainer, None) is not None:
        ctx.progress(len(trainer.merges), made)


def _pair_table(ctx: Context, handle: int, step: int) -> tuple[PairCount, ...]:
    hosted: _Hosted = ctx.get(handle)
    return hosted.trainer.pair_table(step)


def _branch(
    ctx: Context, handle: int, at: int, block: list[tuple[int, int]], force: dict[int, tuple[int, int]]
) -> tuple[int, Facts]:
    hosted: _Hosted = ctx.get(handle)
    child = hosted.trainer.branch(at, block=block, force=force)
    return ctx.put(_Hosted(child, hosted.text, hosted.replay)), _facts(child, {})


def _replay_at(hosted: _Hosted, step: int) -> TextReplay:
    trainer = hosted.trainer
    if not hosted.replay:
        hosted.replay.append(
            TextReplay(hosted.text[0], trainer.pretokenizer, special_tokens=trainer.special_tokens)
        )
    base = trainer.options.base_vocab
    merges = [(pair, base + n) for n, pair in enumerate(trainer.merges[:step])]
    replay = hosted.replay[0]
    replay.move_to(step, merges)
    return replay


def _replay_head(ctx: Context, handle: int, step: int, *, max_bytes: int) -> list[int]:
    return _replay_at(ctx.get(handle), step).head(max_bytes=max_bytes)


def _replay_places(
    ctx: Context, handle: int, step: int, token_id: int, *, start: int, limit: int, context_bytes: int
) -> list[Place]:
    return _replay_at(ctx.get(handle), step).places(
        token_id, start=start, limit=limit, context_bytes=context_bytes
    )
