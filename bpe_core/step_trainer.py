"""What the fast and the naive trainer share: options, ids, the preview, the records.

A trainer is an iterator of :class:`~bpe_core.merge_step.MergeStep`.  Ids are
laid out as: 0..255 the raw bytes, then the special tokens, then one id per
merge in order, so ``vocab_size = 256 + len(special_tokens) + merges``.
Subclasses supply the pair bookkeeping: ``_setup``, ``_choose`` and ``_merge``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain

from .merge_step import (
    STOP_MIN_FREQUENCY,
    STOP_NO_PAIRS,
    STOP_VOCAB_SIZE,
    MergeStep,
    PairCount,
)
from .pretokenizer import PreTokenizer, check_special_tokens
from .tie_break import TieRule

MAX_VOCAB_SIZE = 1_000_000


def check_text(text: str) -> bytes:
    """The UTF-8 bytes of ``text``; a lone surrogate is a ValueError naming where it is."""
    if not isinstance(text, str):
        raise ValueError(
            f"text must be a str, not {type(text).__name__}; decode bytes with .decode('utf-8') first"
        )
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        ch = text[exc.start]
        raise ValueError(
            f"text has a lone surrogate U+{ord(ch):04X} at character {exc.start}, which is not valid "
            "Unicode and has no UTF-8 bytes; remove it or re-decode the source with errors='replace'"
        ) from None


def _check_int(name: str, value: object, low: int, high: int, hint: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} is {value}, out of range {low}..{high}; {hint}")
    return value


def merge_ids(ids: list[int], a: int, b: int, new_id: int) -> list[int]:
    """Replace each ``(a, b)`` in ``ids`` by ``new_id``, left to right, without overlap.

    >>> merge_ids([1, 1, 1, 2], 1, 1, 9)
    [9, 1, 2]
    """
    out: list[int] = []
    i, n = 0, len(ids)
    while i < n:
        if i + 1 < n and ids[i] == a and ids[i + 1] == b:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class StepTrainer(Iterator[MergeStep]):
    """Base class of the trainers; see ``bpe_core.train_steps`` for the options."""

    def __init__(
        self,
        text: str,
        *,
        vocab_size: int,
        pattern: str = "gpt2",
        special_tokens: Iterable[str] = (),
        tie_break: str = "lexicographic",
        min_frequency: int = 1,
        top_k: int = 20,
        preview_chars: int = 2000,
        records: bool = True,
        workers: int | None = None,
    ) -> None:
        data = check_text(text)
        self.pretokenizer = PreTokenizer(pattern, special_tokens=check_special_tokens(special_tokens))
        self.pattern = pattern
        specials = self.pretokenizer.special_tokens
        self.special_tokens: dict[str, int] = {s: 256 + i for i, s in enumerate(specials)}
        smallest = 256 + len(specials)
        self.vocab_size = _check_int(
            "vocab_size",
            vocab_size,
            smallest,
            MAX_VOCAB_SIZE,
            f"it counts the 256 bytes + {len(specials)} special token(s) + the merges, so ask for at least {smallest}",
        )
        self.min_frequency = _check_int(
            "min_frequency", min_frequency, 1, 2**62, "use 1 to merge any pair that occurs"
        )
        self.top_k = _check_int("top_k", top_k, 0, 10_000, "it is the number of rows in the pair table")
        self.preview_chars = _check_int(
            "preview_chars", preview_chars, 0, 10_000_000, "keep the preview short"
        )
        self.records = records
        self.vocab: dict[int, bytes] = {i: bytes([i]) for i in range(256)}
        for s, i in self.special_tokens.items():
            self.vocab[i] = s.encode("utf-8")
        self.rule = TieRule(tie_break, list(self.vocab.values()))
        self.tie_break = tie_break
        self.merges: list[tuple[int, int]] = []
        self.stop_reason: str | None = None
        self._last_rows: dict[tuple[tuple[int, int], int], PairCount] = {}  # see _table_rows
        self.corpus_bytes = len(data)

        chunk_counts, special_counts = self.pretokenizer.count_chunks(text, workers=workers)
        self._setup(chunk_counts)
        self.initial_tokens = (
            self.corpus_bytes
            - sum(len(s.encode()) * c for s, c in special_counts.items())
            + sum(special_counts.values())
        )
        self.tokens = self.initial_tokens
        self._init_preview(text)

    # ----- preview: the first few thousand characters, merged step by step -----
    def _init_preview(self, text: str) -> None:
        """The preview: the whole chunks that start in the first ``preview_chars``
        characters.  A chunk that runs past the window read here (with pattern
        ``"none"`` the whole text is one chunk) is cut to end at ``preview_chars``;
        its last token or two may then differ from the same place in the corpus,
        whose chunk goes on (the preview is still exactly ``preview_text``).
        """
        window = text[: self.preview_chars + 1000]
        split = self.pretokenizer.split
        parts = (
            (part, special)
            for piece, special in self.pretokenizer.pieces(window)
            for part in ([piece] if special else split(piece))
        )
        taken: list[list[int]] = []
        covered = 0
        for part, special in parts:
            if covered >= self.preview_chars:
                break
            cut = covered + len(part) >= len(window) and len(window) < len(text)
            if cut:  # this chunk may go on past the window: keep only its start
                if special:
                    break
                part = part[: self.preview_chars - covered]
            taken.append([self.special_tokens[part]] if special else list(part.encode("utf-8")))
            covered += len(part)
            if cut:
                break
        self.preview_text = text[:covered]
        self._preview = taken
        self._preview_where: dict[int, set[int]] = {}  # token id -> preview chunks holding it
        for ci, chunk in enumerate(taken):
            for i in chunk:
                self._preview_where.setdefault(i, set()).add(ci)
        self.initial_sequence: tuple[int, ...] = tuple(chain.from_iterable(taken))
        self._sequence = self.initial_sequence

    def _merge_preview(self, a: int, b: int, new_id: int) -> tuple[int, ...]:
        """Apply one merge to the preview, touching only chunks that hold both ids."""
        where = self._preview_where
        holders = where.get(a, set()) & where.get(b, set())
        changed = False
        for ci in holders:
            old = self._preview[ci]
            new = merge_ids(old, a, b, new_id)
            if len(new) == len(old):
                continue
            changed = True
            self._preview[ci] = new
            where.setdefault(new_id, set()).add(ci)
            for gone in set(old).difference(new):
                where[gone].discard(ci)
        if changed:
            self._sequence = tuple(chain.from_iterable(self._preview))
        return self._sequence

    # ----- the iterator -----
    @property
    def done(self) -> bool:
        return self.stop_reason is not None

    def __iter__(self) -> StepTrainer:
        return self

    def __next__(self) -> MergeStep:
        if self.stop_reason is not None:
            raise StopIteration
        if len(self.vocab) >= self.vocab_size:
            return self._stop(STOP_VOCAB_SIZE)
        chosen = self._choose()
        if chosen is None:
            return self._stop(STOP_NO_PAIRS)
        (a, b), count, ties, table = chosen
        if count < self.min_frequency:
            return self._stop(STOP_MIN_FREQUENCY)
        new_id = len(self.vocab)
        token = self.vocab[a] + self.vocab[b]
        self.rule.add_token(token)  # before the merge: new pairs need the new token's key
        replaced = self._merge(a, b, new_id)
        self.vocab[new_id] = token
        self.merges.append((a, b))
        before = self.tokens
        self.tokens -= replaced
        if not self.records:
            return MergeStep(
                len(self.merges),
                (a, b),
                self.vocab[a],
                self.vocab[b],
                new_id,
                token,
                count,
                replaced,
                (),
                (),
                self.tie_break,
                before,
                self.tokens,
                (),
            )
        return MergeStep(
            index=len(self.merges),
            pair=(a, b),
            left=self.vocab[a],
            right=self.vocab[b],
            new_id=new_id,
            token=token,
            count=count,
            replaced=replaced,
            top_pairs=self._table_rows(table),
            ties=tuple(ties),
            tie_break=self.tie_break,
            tokens_before=before,
            tokens_after=self.tokens,
            sequence=self._merge_preview(a, b, new_id),
        )

    def _table_rows(self, table: list[tuple[tuple[int, int], int]]) -> tuple[PairCount, ...]:
        """The pair table as records.  From one step to the next most rows stay the
        same, so a row whose pair and count did not change reuses last step's record."""
        last, vocab = self._last_rows, self.vocab
        rows: dict[tuple[tuple[int, int], int], PairCount] = {}
        for pair, count in table:
            row = last.get((pair, count))
            rows[pair, count] = (
                row if row is not None else PairCount(pair, vocab[pair[0]], vocab[pair[1]], count)
            )
        self._last_rows = rows
        return tuple(rows.values())

    def _stop(self, reason: str) -> MergeStep:
        self.stop_reason = reason
        raise StopIteration

    def run(self) -> StepTrainer:
        """Consume every remaining step; returns self."""
        for _ in self:
            pass
        return self

    def tokenizer(self):
        """A :class:`~bpe_core.tokenizer.Tokenizer` with the merges made so far."""
        from .tokenizer import Tokenizer

        return Tokenizer(
            dict(self.vocab),
            list(self.merges),
            special_tokens=dict(self.special_tokens),
            pattern=self.pattern,
        )

    # ----- supplied by subclasses -----
    def _setup(self, chunk_counts: dict[str, int]) -> None:
        raise NotImplementedError

    def _choose(self):
        """``((a, b), count, ties, table)`` for the winning pair, or None when no pair is left.

        ``ties`` lists the pairs with the winning count, winner first; ``table``
        the top ``top_k`` ``((a, b), count)`` rows, winner first (both may be
        empty when ``records`` is off and the rule does not need them).
        """
        raise NotImplementedError

    def _merge(self, a: int, b: int, new_id: int) -> int:
        """Merge every ``(a, b)`` in the corpus; return the number replaced (weighted)."""
        raise NotImplementedError
