"""A training run you can step through, and the two ways to start one: :func:`train_steps` and :func:`train`.

>>> trainer = train_steps("aaabdaaabac", vocab_size=259, pattern="none", tie_break="lowest-id")
>>> [(s.left + s.right, s.count, s.replaced) for s in trainer]
[(b'aa', 4, 2), (b'ab', 2, 2), (b'aaab', 2, 2)]
>>> trainer.stop_reason, trainer.merges
('reached the requested vocab size', [(97, 97), (97, 98), (256, 257)])
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from operator import mul
from typing import Literal

from ..pretokenizer import PreTokenizer, check_special_tokens
from ..primitives import Pair, count_pairs, merge_pair
from ..tokenizer import Tokenizer
from ..tokenizer.notebook_html import merges_html
from .corpus import Corpus
from .corpus_dask import count_files_dask
from .corpus_files import ProgressFn, count_files
from .incremental import incremental_steps
from .options import TrainOptions, force_items
from .preview import Preview
from .records import MergeStep, PairCount
from .state import RunState, rewind
from .textbook import textbook_steps
from .tie_rules import TieRule

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
    ``text`` may also be a :class:`Corpus` counted already (from files, see
    :mod:`.corpus_files`); its preview is then empty.
    """

    def __init__(
        self,
        text: str | Corpus,
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
        pretokenizer = options.pretokenizer()
        if isinstance(text, Corpus):
            corpus, text = text, ""
        else:
            corpus = Corpus.count(text, pretokenizer, workers=workers)
        preview = Preview.of(
            text, pretokenizer, special_tokens=options.special_ids(), preview_chars=options.preview_chars
        )
        state = RunState(None, options.initial_vocab(), corpus.initial_tokens)
        self._begin(options, corpus, preview, state, merges=[], method=method, records=records)
        self.initial_sequence: tuple[int, ...] = preview.initial  # the preview before any merge

    def _begin(
        self,
        options: TrainOptions,
        corpus: Corpus,
        preview: Preview,
        state: RunState,
        *,
        merges: list[tuple[int, int]],
        method: Method,
        records: bool,
    ) -> None:
        """Set up a run from ``state`` (after ``merges``); the trainer's generator starts there."""
        self.options, self.method, self.records = options, method, records
        self.pretokenizer: PreTokenizer = options.pretokenizer()
        self.special_tokens: dict[str, int] = options.special_ids()
        self.corpus, self.preview, self._state = corpus, preview, state
        self.vocab: dict[int, bytes] = dict(state.vocab)
        self.merges: list[tuple[int, int]] = list(merges)
        self.first_step = len(merges) + 1  # the index of the first step this trainer yields
        self.tokens = state.tokens
        self.stop_reason: str | None = None
        if method == "textbook":  # the textbook trainer always starts at step 1: a branch replays its steps
            self._steps = textbook_steps(corpus, options, preview)
            for _ in merges:
                self.tokens = next(self._steps).tokens_after
        else:
            self._steps = incremental_steps(corpus, options, preview, records=records, state=state)

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
    def finished(self) -> bool:
        """True when training can make no more merges (``stop_reason`` says why)."""
        return self.stop_reason is not None

    def _repr_html_(self) -> str:
        """The merges so far as a table in a notebook, and why training stopped (if it did)."""
        base = self.options.base_vocab
        rows = (
            (n, (a, self.vocab[a]), (b, self.vocab[b]), base + n - 1)
            for n, (a, b) in enumerate(self.merges, start=1)
        )
        note = f"training stopped: {self.stop_reason}" if self.stop_reason else "training goes on"
        return merges_html(rows, note=note)

    def run(self) -> Trainer:
        """Consume every remaining step; returns self."""
        for _ in self:
            pass
        return self

    def branch(
        self,
        at: int,
        *,
        block: Iterable[tuple[int, int]] = (),
        force: Mapping[int, tuple[int, int]] | None = None,
    ) -> Trainer:
        """A new run that shares this one's first ``at - 1`` merges and goes its own way from step ``at``.

        ``block`` adds pairs never merged; ``force`` maps steps from ``at`` on to the
        pair merged there (:class:`TrainOptions`).  Nothing is pre-tokenized or
        counted again: the corpus is shared and the chunks are rewound to step
        ``at - 1`` (:func:`.state.rewind`).  The branch yields steps ``at``, ``at + 1``, ...;
        its ``merges`` and ``vocab`` start with this run's first ``at - 1``.

        >>> real = train_steps("low low low lower", vocab_size=262, pattern="none", tie_break="lowest-id")
        >>> [s.token for s in real]
        [b'lo', b'low', b' low', b' low low', b'er', b'low low low']
        >>> what_if = real.branch(3, force={3: (257, 32)})  # merge b'low' + b' ' at step 3
        >>> [(s.index, s.token, s.forced) for s in what_if][:3]
        [(3, b'low ', True), (4, b'low low ', False), (5, b'er', False)]
        >>> [s.token for s in real.branch(2, block=[(256, 119)])]  # never b'lo' + b'w'
        [b' lo', b'w lo', b'w low lo', b'er', b'wer']
        """
        done = len(self.merges)
        if isinstance(at, bool) or not isinstance(at, int) or not 1 <= at <= done + 1:
            raise ValueError(
                f"a branch starts at a step from 1 to {done + 1} (the steps made so far, or the next), "
                f"not {at!r}"
            )
        force = dict(force or {})
        early = sorted(step for step in force if isinstance(step, int) and step < at)
        if early:
            raise ValueError(
                f"step {early[0]} is before the branch point {at}: the branch shares steps 1 to {at - 1} "
                f"with this run; branch at step {early[0]} to change it"
            )
        options = self.options.replace(  # checks the pairs
            block=self.options.block + tuple(block),
            force=[(step, pair) for step, pair in self.options.force if step < at] + list(force.items()),
        )
        made = {pair: n + 1 for n, pair in enumerate(self.merges[: at - 1])}
        for pair in options.block:
            if pair in made:
                raise ValueError(
                    f"pair {pair} was merged at step {made[pair]}, before the branch point "
                    f"{at}; branch at step {made[pair]} to block it"
                )
        base, kept = options.base_vocab, self.merges[: at - 1]
        vocab = {i: t for i, t in self.vocab.items() if i < base + at - 1}
        if self.method == "textbook":  # it replays steps 1 to at - 1 from the corpus's bytes
            chunks, shared, tokens = None, 0, self.corpus.initial_tokens
        else:
            chunks, shared = rewind(self._state.chunk_ids(), self.merges, base=base, steps=at - 1), at - 1
            weights = self.corpus.chunk_counts.values()
            tokens = sum(map(mul, map(len, chunks), weights)) + sum(self.corpus.special_counts.values())
        preview = Preview(
            self.preview.text, rewind(self.preview.chunks, self.merges, base=base, steps=shared)
        )
        child = Trainer.__new__(Trainer)
        child._begin(
            options,
            self.corpus,
            preview,
            RunState(chunks, vocab, tokens),
            merges=kept,
            method=self.method,
            records=self.records,
        )
        child.initial_sequence = self.initial_sequence
        return child

    def pair_table(self, step: int) -> tuple[PairCount, ...]:
        """Every distinct pair counted before merge ``step`` (blocked ones left out), in the rule's
        order: the step's ``top_pairs`` are its first rows and its ``distinct_pairs`` its length.

        >>> run = train_steps("low lower lowest", vocab_size=258, pattern="none", tie_break="lowest-id")
        >>> steps = list(run)
        >>> table = run.pair_table(2)
        >>> len(table) == steps[1].distinct_pairs, table[:3] == steps[1].top_pairs[:3]
        (True, True)
        >>> [(r.left + r.right, r.count) for r in table][:3]
        [(b'low', 3), (b' lo', 2), (b'we', 2)]
        """
        done = len(self.merges)
        if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= done + 1:
            raise ValueError(
                f"the pair table is there for steps 1 to {done + 1} (the steps made so far, "
                f"and the next), not {step!r}"
            )
        base = self.options.base_vocab
        if self._state.read is not None:  # the fast trainer: its chunks now, rewound
            chunks = rewind(self._state.chunk_ids(), self.merges, base=base, steps=step - 1)
        else:  # the textbook trainer keeps no ids: replay the merges on the chunks' bytes
            chunks = [list(chunk.encode("utf-8")) for chunk in self.corpus.chunk_counts]
            for n, pair in enumerate(self.merges[: step - 1]):
                chunks = [merge_pair(ids, pair, base + n) for ids in chunks]
        counts: dict[Pair, int] = {}
        for ids, weight in zip(chunks, self.corpus.chunk_counts.values(), strict=True):
            count_pairs(ids, counts, weight)
        rule = TieRule(self.options.tie_break, [self.vocab[i] for i in range(base)])
        for i in range(base, base + step - 1):
            rule.add_token(self.vocab[i])
        seen = {p: i for i, p in enumerate(counts)}
        blocked = set(self.options.block)
        ranked = sorted(
            (p for p in counts if p not in blocked), key=lambda p: (-counts[p], rule.key(p[0], p[1], seen[p]))
        )
        return tuple(PairCount(p, self.vocab[p[0]], self.vocab[p[1]], counts[p]) for p in ranked)

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
    block: Iterable[tuple[int, int]] = (),
    force: Mapping[int, tuple[int, int]] | None = None,
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
        special_tokens=tuple(check_special_tokens(special_tokens)),
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=top_k,
        preview_chars=preview_chars,
        block=tuple(block),
        force=force_items(force),
    )
    return Trainer(text, options, method=method, workers=workers)


def train(
    text: str | None = None,
    *,
    files: Iterable[str | os.PathLike[str]] | None = None,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Iterable[str] = (),
    tie_break: str = "lexicographic",
    min_frequency: int = 1,
    block: Iterable[tuple[int, int]] = (),
    force: Mapping[int, tuple[int, int]] | None = None,
    workers: int | None = None,
    dask: str | None = None,
    progress: ProgressFn | None = None,
) -> Tokenizer:
    """Train and return the :class:`~bpe_core.tokenizer.Tokenizer` (the merges of :func:`train_steps`,
    without its step records).

    Give the ``text``, or ``files``: paths, globs or ``-`` for stdin, read in
    blocks so that memory holds the chunk counts and not the text; the merges
    are those of the concatenated text (:mod:`.corpus_files`).  ``workers``
    processes count the files (default: one per CPU past 32 MB), or ``dask``
    (``"local"`` or ``"tcp://HOST:PORT"``) counts them on a Dask cluster
    (:mod:`.corpus_dask`); ``progress`` is called as blocks are counted.
    """
    if (text is None) == (files is None):
        raise ValueError("give train() either a text or files=[...] (paths, globs or '-'), not both")
    if dask is not None and files is None:
        raise ValueError("dask= counts files: pass files=[...] instead of a text")
    options = TrainOptions(
        vocab_size=vocab_size,
        pattern=pattern,
        special_tokens=tuple(check_special_tokens(special_tokens)),
        tie_break=tie_break,
        min_frequency=min_frequency,
        top_k=0,
        preview_chars=0,
        block=tuple(block),
        force=force_items(force),
    )
    if files is None:
        return Trainer(text or "", options, records=False, workers=workers).run().tokenizer()
    pretokenizer = options.pretokenizer()
    if dask is not None:
        corpus = count_files_dask(files, pretokenizer, scheduler=dask, progress=progress)
    else:
        corpus = count_files(files, pretokenizer, workers=workers, progress=progress)
    return Trainer(corpus, options, records=False).run().tokenizer()
