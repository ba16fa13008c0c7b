"""A WordPiece or Unigram run on the Train page, stepped across reruns.

A :class:`SchemeRun` is built by :func:`start_scheme_run` (the one heavy call: counting the words, and
for Unigram the seed and its first EM) and then only pulls records, one per step (a WordPiece merge, a
Unigram pruning round).  It is the same stepper as BPE's
(:class:`~mergescope_ui.shared.training_run.Stepper`); what differs between the schemes is a
:class:`SchemeSteps` of each, found by the scheme's name in :data:`SCHEME_STEPS`.

>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> run = start_scheme_run(text, SchemeSettings(scheme="wordpiece", steps=3))
>>> run.forward(), run.current.token, run.jump(9), run.finished, run.stop_reason
(True, '##gs', 3, True, 'reached the requested vocab size')
>>> run = start_scheme_run(text, SchemeSettings(scheme="unigram", vocab_size=12))
>>> run.jump(9), [len(s) for s in run.scores]
(4, [31, 23, 17, 12, 11])
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar

from bpe_core.pretokenizer import check_text
from bpe_core.unigram import (
    SHRINKING_FACTOR,
    Lattice,
    UnigramRound,
    UnigramTrainer,
    lattice,
    unigram_steps,
)
from bpe_core.wordpiece import (
    BERT_SPECIAL_TOKENS,
    WordPieceOptions,
    WordPieceStep,
    WordPieceTrainer,
    word_counts,
)
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.stage.contract import AHEAD
from mergescope_ui.shared.training_run import Progress, Stepper

Scheme = Literal["wordpiece", "unigram"]
TOP_K = 20  # rows of each step's tables (WordPiece's pairs, Unigram's closest pieces)
UNIGRAM_SEED_SIZE = 20_000
"""The most pieces in a Unigram seed on this page: a bigger seed only makes the first rounds (which
throw most of it away) slower; SentencePiece's own default is 1,000,000."""
MAX_STEPS = 20_000
MAX_UNIGRAM_VOCAB = 100_000
LATTICE_WORDS = 12  # words offered for the lattice: the ones the round shown cut anew, then the most frequent

Step = WordPieceStep | UnigramRound
TrainerT = TypeVar("TrainerT", WordPieceTrainer, UnigramTrainer)


@dataclass(frozen=True, slots=True)
class SchemeSettings:
    """What a WordPiece or Unigram run is asked for on this page.

    WordPiece: ``steps`` merges after the alphabet (the vocabulary is the special tokens, the text's
    alphabet and the merges).  Unigram: prune down to ``vocab_size`` pieces (``<unk>`` counted), keeping
    ``shrinking_factor`` of them each round.
    """

    scheme: Scheme
    steps: int = 100
    vocab_size: int = 100
    shrinking_factor: float = SHRINKING_FACTOR

    def __post_init__(self) -> None:
        if self.scheme not in SCHEME_STEPS:
            raise ValueError(f"scheme {self.scheme!r} has no step-by-step run here; use wordpiece or unigram")
        for name, value, high in (
            ("steps", self.steps, MAX_STEPS),
            ("vocab_size", self.vocab_size, MAX_UNIGRAM_VOCAB),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
                raise ValueError(f"{name} is {value!r}; give a whole number from 1 to {high:,}")
        f = self.shrinking_factor
        if isinstance(f, bool) or not isinstance(f, int | float) or not 0.05 <= f <= 0.95:
            raise ValueError(f"the shrinking factor is {f!r}; give a number from 0.05 to 0.95")


@dataclass(frozen=True, slots=True)
class SchemeIdentity:
    """What a run was trained from: the text (by digest) and the settings."""

    text_digest: str
    settings: SchemeSettings


class SchemeSteps(Generic[TrainerT]):
    """A scheme's trainer as this page steps it: the hooks its run, its driver and its panel call (one
    subclass per scheme, in :data:`SCHEME_STEPS`)."""

    noun: ClassVar[str] = "step"
    """What one step is called in the page's sentences."""
    ahead: ClassVar[int] = AHEAD
    """How many steps the page trains past the one shown."""
    has_lattice: ClassVar[bool] = False
    """True when the page draws a word's lattice under the step shown."""

    def __init__(self, trainer: TrainerT) -> None:
        self.trainer: TrainerT = trainer

    @classmethod
    def start(cls, text: str, settings: SchemeSettings, *, progress: Progress | None = None) -> SchemeRun:
        """A fresh run of ``settings`` on ``text`` (a ValueError that says how to fix a bad text or size)."""
        raise NotImplementedError

    def draw(self, run: SchemeRun) -> Step:
        """The trainer's next step (StopIteration at the end), and what else the run keeps of it."""
        raise NotImplementedError

    def max_steps(self, run: SchemeRun) -> int:
        """The most steps the settings allow (an upper bound when steps are not known ahead)."""
        raise NotImplementedError

    def during(self, progress: Progress | None) -> None:
        """Report ``progress(done, 1000)`` inside the next steps too (None: stop); only where
        ``progress`` cannot raise (an exception inside a step would leave the trainer half changed)."""

    def lattice_words(self, run: SchemeRun) -> list[str]:
        """The words offered for the lattice at the step shown (none without a lattice)."""
        return []

    def lattice(self, run: SchemeRun, word: str) -> Lattice:
        """``word``'s lattice at the step shown (a ValueError for a word too long)."""
        raise ValueError("a lattice is drawn for a Unigram run; choose Unigram")


@dataclass(eq=False)
class SchemeRun(Stepper[Step]):
    """A WordPiece or Unigram trainer (in ``steps``, its scheme's hooks), the steps pulled, the step shown.

    Unigram's ``scores[k]``: the pieces' log probabilities after ``k`` rounds (``scores[0]``: the seed
    after its EM); ``recut[k - 1]``: the words (first-occurrence order) whose best cut round ``k`` changed.
    """

    identity: SchemeIdentity
    steps: SchemeSteps[Any]
    scores: list[dict[str, float]] = field(default_factory=list)
    recut: list[list[str]] = field(default_factory=list)

    @property
    def source(self) -> WordPieceTrainer | UnigramTrainer:
        return self.steps.trainer

    @property
    def trainer(self) -> WordPieceTrainer | UnigramTrainer:
        return self.steps.trainer

    @property
    def scheme(self) -> Scheme:
        return self.identity.settings.scheme

    @property
    def max_steps(self) -> int:
        """The most steps the settings allow (Unigram: rounds are not known ahead; an upper bound)."""
        return self.steps.max_steps(self)

    def _draw(self) -> Step:
        return self.steps.draw(self)

    def jump(self, target: int, *, progress: Progress | None = None, every: int = 1) -> int:
        """:meth:`Stepper.jump`, with ``progress`` after every step (a step may be long)."""
        return super().jump(target, progress=progress, every=every)


class WordPieceSteps(SchemeSteps[WordPieceTrainer]):
    """WordPiece: one merge a step, up to the settings' ``steps``."""

    @classmethod
    def start(cls, text: str, settings: SchemeSettings, *, progress: Progress | None = None) -> SchemeRun:
        check_text(text)
        if not text.strip():
            raise ValueError("the text is empty; give WordPiece a text to learn from")
        counts = word_counts(text, special_tokens=BERT_SPECIAL_TOKENS)
        alphabet = WordPieceOptions(vocab_size=10**6).initial_vocab(counts)
        options = WordPieceOptions(vocab_size=len(alphabet) + settings.steps, top_k=TOP_K)
        identity = SchemeIdentity(text_digest=digest(text), settings=settings)
        return SchemeRun(identity=identity, steps=cls(WordPieceTrainer(counts, options)))

    def draw(self, run: SchemeRun) -> WordPieceStep:
        return next(self.trainer)

    def max_steps(self, run: SchemeRun) -> int:
        return run.identity.settings.steps


class UnigramSteps(SchemeSteps[UnigramTrainer]):
    """Unigram: one pruning round a step, each round's scores and recut words kept; the lattice."""

    noun = "round"
    ahead = 1  # rounds are few and slow: one ahead is enough to step without waiting
    has_lattice = True

    @classmethod
    def start(cls, text: str, settings: SchemeSettings, *, progress: Progress | None = None) -> SchemeRun:
        trainer = unigram_steps(
            text,
            vocab_size=settings.vocab_size,
            shrinking_factor=settings.shrinking_factor,
            seed_size=UNIGRAM_SEED_SIZE,
            top_k=TOP_K,
            progress=progress,
        )
        trainer.progress = None
        identity = SchemeIdentity(text_digest=digest(text), settings=settings)
        run = SchemeRun(identity=identity, steps=cls(trainer))
        run.scores.append(dict(trainer.scores))
        if trainer.stop_reason is not None:
            run.finished = True
        return run

    def draw(self, run: SchemeRun) -> UnigramRound:
        trainer = self.trainer
        before = trainer.cuts
        record = next(trainer)
        run.scores.append(dict(trainer.scores))
        after = trainer.cuts
        run.recut.append([w for w in trainer.words if before[w][1] != after[w][1]])
        return record

    def max_steps(self, run: SchemeRun) -> int:
        return run.pulled if run.finished else MAX_STEPS

    def during(self, progress: Progress | None) -> None:
        self.trainer.progress = progress

    def lattice_words(self, run: SchemeRun) -> list[str]:
        """The words that the round shown cut anew, then the most frequent."""

        def offered(w: str) -> bool:
            return bool(w.strip()) and len(w) <= 24

        k = run.position
        changed = [w for w in (run.recut[k - 1] if k else []) if offered(w)][:LATTICE_WORDS]
        counts = self.trainer.words
        frequent = heapq.nsmallest(
            LATTICE_WORDS, (w for w in counts if offered(w)), key=lambda w: (-counts[w], w)
        )
        return list(dict.fromkeys([*changed, *frequent]))[:LATTICE_WORDS]

    def lattice(self, run: SchemeRun, word: str) -> Lattice:
        return lattice(word, run.scores[run.position], max_piece_length=self.trainer.longest)


SCHEME_STEPS: dict[Scheme, type[SchemeSteps[Any]]] = {"wordpiece": WordPieceSteps, "unigram": UnigramSteps}
"""Every scheme with a step-by-step run here, by name (BPE's run is
:class:`~mergescope_ui.shared.training_run.TrainingRun`)."""


def start_scheme_run(text: str, settings: SchemeSettings, *, progress: Progress | None = None) -> SchemeRun:
    """A fresh run of ``settings`` on ``text`` (a ValueError that says how to fix a bad text or size);
    ``progress(done, 1000)`` follows Unigram's seed and its first EM."""
    return SCHEME_STEPS[settings.scheme].start(text, settings, progress=progress)
