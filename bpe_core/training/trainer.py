"""A training run you can step through, and the two ways to start one: :func:`train_steps` and :func:`train`.

>>> trainer = train_steps("aaabdaaabac", vocab_size=259, pattern="none", tie_break="lowest-id")
>>> [(s.left + s.right, s.count, s.replaced) for s in trainer]
[(b'aa', 4, 2), (b'ab', 2, 2), (b'aaab', 2, 2)]
>>> trainer.stop_reason, trainer.merges
('reached the requested vocab size', [(97, 97), (97, 98), (256, 257)])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal

from ..pretokenizer import PreTokenizer
from ..tokenizer import Tokenizer
from .corpus import Corpus
from .incremental import incremental_steps
from .options import TrainOptions
from .preview import Preview
from .records import MergeStep
from .textbook import textbook_steps

Method = Literal["fast", "textbook"]
METHODS: tuple[Method, ...] = ("fast", "textbook")


class Trainer(Iterator[MergeStep]):
    """One training run: iterate it for its :class:`MergeStep` records, one per merge.

    It pre-tokenizes the text when made, then merges one pair per ``next()``.
    ``vocab`` and ``merges`` hold what was learned so far, ``stop_reason`` why
    it stopped (None while it can go on), :meth:`tokenizer` the result.
    ``method`` picks the trainer: ``"fast"`` (:mod:`.incremental`) or
    ``"textbook"`` (:mod:`.textbook`), which yield the same steps.  With
    ``records`` off the steps carry no pair table, ties or sequence (plain
    training).  ``workers`` processes pre-tokenize texts of 4M+ characters.
    """

    def __init__(
        self,
        text: str,
        options: TrainOptions,
        *,
        method: Method = "fast",
        records: bool = True,
        workers: int | None = None,
    ) -> None:
        if method not in METHODS:
            raise ValueError(f"method {method!r} is unknown; use one of {', '.join(METHODS)}")
        if records is False and method == "textbook":
            raise ValueError(
                "the textbook trainer always keeps its records; use method='fast' for plain training"
            )
        self.options = options
        self.pretokenizer: PreTokenizer = options.pretokenizer()
        self.special_tokens: dict[str, int] = options.special_ids()
        self.corpus = Corpus.count(text, self.pretokenizer, workers=workers)
        self.preview = Preview.of(
            text, self.pretokenizer, special_tokens=self.special_tokens, preview_chars=options.preview_chars
        )
        self.vocab: dict[int, bytes] = options.initial_vocab()
        self.merges: list[tuple[int, int]] = []
        self.tokens = self.corpus.initial_tokens
        self.stop_reason: str | None = None
        if method == "textbook":
            self._steps = textbook_steps(self.corpus, options, self.preview)
        else:
            self._steps = incremental_steps(self.corpus, options, self.preview, records=records)

    def __iter__(self) -> Trainer:
        return self

    def __next__(self) -> MergeStep:
        if self.stop_reason is not None:
            raise StopIteration
        try:
            step = next(self._steps)
        except StopIteration as end:
            self.stop_reason = end.value
            raise StopIteration from None
        self.vocab[step.new_id] = step.token
        self.merges.append(step.pair)
        self.tokens = step.tokens_after
        return step

    @property
    def done(self) -> bool:
        return self.stop_reason is not None

    def run(self) -> Trainer:
        """Consume every remaining step; returns self."""
        for _ in self:
            pass
        return self

    def tokenizer(self) -> Tokenizer:
        """A :class:`~bpe_core.tokenizer.Tokenizer` with the merges made so far."""
        return Tokenizer(
            dict(self.vocab),
            list(self.merges),
            special_tokens=dict(self.special_tokens),
            pattern=self.pattern,
        )

    # ----- facts about the corpus and the preview -----
    @property
    def pattern(self) -> str:
        return self.options.pattern

    @property
    def tie_break(self) -> str:
        return self.options.tie_break

    @property
    def vocab_size(self) -> int:
        return self.options.vocab_size

    @property
    def corpus_bytes(self) -> int:
        return self.corpus.bytes

    @property
    def initial_tokens(self) -> int:
        return self.corpus.initial_tokens

    @property
    def preview_text(self) -> str:
        return self.preview.text

    @property
    def initial_sequence(self) -> tuple[int, ...]:
        return self.preview.initial


def train_steps(
    text: str,
    *,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Iterable[str] = (),
    tie_break: str = "lexicographic",
    min_frequency: int = 1,
    top_k: int = 20,
    preview_chars: int = 2000,
    method: Method = "fast",
    workers: int | None = None,
) -> Trainer:
    """Train byte-level BPE on ``text``, one :class:`MergeStep` per ``next()``.

    The options are :class:`~.options.TrainOptions`' (each checked; a bad value
    is a ValueError that says how to fix it); ``method`` and ``workers`` are
    :class:`Trainer`'s.
    """
    options = TrainOptions(
        vocab_size=vocab_size,
        pattern=pattern,
        special_tokens=_tuple(special_tokens),
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=top_k,
        preview_chars=preview_chars,
    )
    return Trainer(text, options, method=method, workers=workers)


def train(
    text: str,
    *,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Iterable[str] = (),
    tie_break: str = "lexicographic",
    min_frequency: int = 1,
    workers: int | None = None,
) -> Tokenizer:
    """Train and return the :class:`~bpe_core.tokenizer.Tokenizer` (the merges of :func:`train_steps`,
    without its step records)."""
    options = TrainOptions(
        vocab_size=vocab_size,
        pattern=pattern,
        special_tokens=_tuple(special_tokens),
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=0,
        preview_chars=0,
    )
    return Trainer(text, options, records=False, workers=workers).run().tokenizer()


def _tuple(special_tokens: Iterable[str]) -> tuple[str, ...] | str:
    """Special tokens as a tuple; one string stays as it is, for TrainOptions' clear error."""
    return special_tokens if isinstance(special_tokens, str) else tuple(special_tokens)
