"""A WordPiece or Unigram run on the Train page, stepped across reruns: the small interface the page uses.

The page never touches a trainer itself: it builds a :class:`SchemeRun` with :func:`start_scheme_run`
(the one heavy call: counting the words, and for Unigram the seed and its first EM) and then only pulls
records, one per step, and reads them.  Everything a run holds is plain data (the engine's step
records, and for Unigram each round's piece scores), so the run can move into a worker process as
the BPE run does (``shared/training_run.py``) without the page changing.

A step is a WordPiece merge (:class:`~bpe_core.training.wordpiece_records.WordPieceStep`) or a
Unigram pruning round (:class:`~bpe_core.training.unigram_records.UnigramRound`); ``position`` is the
number of steps shown (0: before the first).

>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> run = start_scheme_run(text, SchemeSettings(scheme="wordpiece", steps=3))
>>> run.forward(), run.current.token, run.jump(9), run.finished, run.stop_reason
(True, '##gs', 3, True, 'reached the requested vocab size')
>>> run = start_scheme_run(text, SchemeSettings(scheme="unigram", vocab_size=12))
>>> run.jump(9), [len(s) for s in run.scores]
(4, [31, 23, 17, 12, 11])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from bpe_core.pretokenizer import check_text
from bpe_core.unigram import SHRINKING_FACTOR, UnigramRound, UnigramTrainer, unigram_steps
from bpe_core.wordpiece import (
    BERT_SPECIAL_TOKENS,
    WordPieceOptions,
    WordPieceStep,
    WordPieceTrainer,
    word_counts,
)
from mergescope_ui.shared.digest import digest

Scheme = Literal["bpe", "wordpiece", "unigram"]
SCHEMES: tuple[Scheme, ...] = ("bpe", "wordpiece", "unigram")
SCHEME_NAMES: dict[str, str] = {"bpe": "Byte-level BPE", "wordpiece": "WordPiece", "unigram": "Unigram"}
TOP_K = 20  # rows of each step's tables (WordPiece's pairs, Unigram's closest pieces)
UNIGRAM_SEED_SIZE = 20_000
"""The most pieces in a Unigram seed on this page: a bigger seed only makes the first rounds (which
throw most of it away) slower; SentencePiece's own default is 1,000,000."""
MAX_STEPS = 20_000
MAX_UNIGRAM_VOCAB = 100_000

Step = WordPieceStep | UnigramRound


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
        if self.scheme not in ("wordpiece", "unigram"):
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


@dataclass(eq=False)
class SchemeRun:
    """A WordPiece or Unigram trainer, the steps pulled from it, and the step shown.

    ``scores`` (Unigram): the pieces' scores (log probabilities) at each step, ``scores[k]`` after
    ``k`` rounds (``scores[0]``: the seed after its EM); ``recut[k - 1]``: the words (first-occurrence
    order) whose best cut round ``k`` changed, from the trainer's cuts before and after it.
    """

    identity: SchemeIdentity
    trainer: WordPieceTrainer | UnigramTrainer
    records: list[Step] = field(default_factory=list)
    scores: list[dict[str, float]] = field(default_factory=list)
    recut: list[list[str]] = field(default_factory=list)
    position: int = 0
    finished: bool = False

    @property
    def scheme(self) -> Scheme:
        return self.identity.settings.scheme

    @property
    def pulled(self) -> int:
        return len(self.records)

    @property
    def current(self) -> Step | None:
        return self.records[self.position - 1] if self.position else None

    @property
    def stop_reason(self) -> str | None:
        return self.trainer.stop_reason if self.finished else None

    @property
    def max_steps(self) -> int:
        """The most steps the settings allow (Unigram: rounds are not known ahead; an upper bound)."""
        settings = self.identity.settings
        if settings.scheme == "wordpiece":
            return settings.steps
        return self.pulled if self.finished else MAX_STEPS

    def pull(self) -> bool:
        """Pull one more step from the trainer; False when it has none left."""
        if self.finished:
            return False
        trainer = self.trainer
        before = trainer.cuts if isinstance(trainer, UnigramTrainer) else {}
        try:
            steps: Iterator[Step] = trainer
            record = next(steps)
        except StopIteration:
            self.finished = True
            return False
        self.records.append(record)
        if isinstance(trainer, UnigramTrainer):
            self.scores.append(dict(trainer.scores))
            after = trainer.cuts
            self.recut.append([w for w in trainer.words if before[w][1] != after[w][1]])
        return True

    def peek(self) -> Step | None:
        """The step after ``position`` (pulled if needed, position unchanged)."""
        if self.position == len(self.records) and not self.pull():
            return None
        return self.records[self.position]

    def forward(self) -> bool:
        if self.peek() is None:
            return False
        self.position += 1
        return True

    def jump(self, target: int, *, progress: Callable[[int, int], object] | None = None) -> int:
        """Move to step ``target`` (pulling as needed, stopping where training stops); the step reached."""
        if target < 0:
            raise ValueError(f"step {target} is negative; steps start at 0")
        start = len(self.records)
        while len(self.records) < target and self.pull():
            if progress is not None:
                progress(len(self.records) - start, target - start)
        self.position = min(target, len(self.records))
        return self.position


def start_scheme_run(
    text: str, settings: SchemeSettings, *, progress: Callable[[int, int], object] | None = None
) -> SchemeRun:
    """A fresh run of ``settings`` on ``text`` (a ValueError that says how to fix a bad text or size);
    ``progress(done, 1000)`` follows Unigram's seed and its first EM."""
    identity = SchemeIdentity(text_digest=digest(text), settings=settings)
    if settings.scheme == "wordpiece":
        check_text(text)
        if not text.strip():
            raise ValueError("the text is empty; give WordPiece a text to learn from")
        counts = word_counts(text, special_tokens=BERT_SPECIAL_TOKENS)
        alphabet = WordPieceOptions(vocab_size=10**6).initial_vocab(counts)
        options = WordPieceOptions(vocab_size=len(alphabet) + settings.steps, top_k=TOP_K)
        return SchemeRun(identity=identity, trainer=WordPieceTrainer(counts, options))
    trainer = unigram_steps(
        text,
        vocab_size=settings.vocab_size,
        shrinking_factor=settings.shrinking_factor,
        seed_size=UNIGRAM_SEED_SIZE,
        top_k=TOP_K,
        progress=progress,
    )
    trainer.progress = None
    run = SchemeRun(identity=identity, trainer=trainer)
    run.scores.append(dict(trainer.scores))
    if trainer.stop_reason is not None:
        run.finished = True
    return run
