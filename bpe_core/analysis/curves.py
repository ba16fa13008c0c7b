"""Token counts after every number of merges, from one training run and one pass per text.

BPE merges are a prefix order: the tokenizer with the first ``k`` merges is
``tok.with_merges(k)``, and encoding with it is exactly the first part of
encoding with all merges (a merge only ever creates pairs of a *later*
rank).  So one pass of merge-by-rank over each distinct pre-tokenization
chunk, noting the rank of every merge it applies, gives the chunk's token
count for *every* ``k``: each applied merge of rank ``r`` removes one token
from ``k = r + 1`` on.  Adding ``chunk count x 1`` to ``delta[r]`` for each
applied merge and taking prefix sums gives ``tokens(k)`` for ``k = 0..K``,
for about the cost of encoding the text once (not once per ``k``).

For the training text the curve costs nothing extra: the trainer already
knows how many tokens each merge replaced.

Per-script counts (``by_script=True``) give each token to the category of
the character its first byte belongs to (see :mod:`bpe_core.analysis.scripts`), so a
merge of ``A + B`` removes one token from the category of ``B``'s first
byte.  Bytes and characters are counted per category from the same
resolution, so per-category figures add up to the text's totals.

>>> from bpe_core import train
>>> tok = train("low lower lowest low low", vocab_size=262, pattern="gpt2")
>>> curve = text_curve(tok, "low lowest")
>>> curve.tokens
(10, 8, 6, 5, 4, 3, 2)
>>> [len(tok.with_merges(k).encode("low lowest")) for k in range(len(tok.merges) + 1)]
[10, 8, 6, 5, 4, 3, 2]
>>> from bpe_core import TrainOptions
>>> options = TrainOptions(vocab_size=262)
>>> run = compression_curve("low lower lowest low low", options, heldout={"test": "low lowest"})
>>> run.train.tokens[0], run.train.tokens[-1], run.heldout[0].tokens == curve.tokens
(24, 6, True)
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, pairwise

from ..pretokenizer import check_text
from ..tokenizer import Tokenizer
from ..training import Trainer, TrainOptions
from .scripts import SPECIAL, byte_categories, resolve_chunk

Progress = Callable[[float, str], object]  # what it returns is not used

# Chunks longer than this (in bytes) use the heap-based pass; shorter ones the
# plain rescan, which is faster for word-sized chunks.
LONG_CHUNK = 96


@dataclass(frozen=True, slots=True)
class TextCurve:
    """Token counts of one text after ``k = 0..K`` merges, and its size.

    ``tokens[k]`` is the length of ``tok.with_merges(k).encode(text)``.
    ``words`` counts whitespace-separated runs (``len(text.split())``).
    ``script_tokens[cat][k]``, ``script_bytes[cat]`` and ``script_chars[cat]``
    are filled when the curve was computed ``by_script`` (else empty).
    """

    name: str
    chars: int
    bytes: int
    words: int
    tokens: tuple[int, ...]
    script_chars: Mapping[str, int] = field(default_factory=dict)
    script_bytes: Mapping[str, int] = field(default_factory=dict)
    script_tokens: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def merges(self) -> int:
        """The largest ``k`` the curve covers."""
        return len(self.tokens) - 1

    def at(self, k: int) -> int:
        """Tokens after ``k`` merges; ``k`` past the end is the final count (no more merges exist)."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"k must be a whole number of merges >= 0, not {k!r}")
        return self.tokens[min(k, self.merges)]

    def bytes_per_token(self, k: int) -> float:
        """UTF-8 bytes per token after ``k`` merges (0.0 for an empty text)."""
        t = self.at(k)
        return self.bytes / t if t else 0.0


@dataclass(frozen=True, slots=True, eq=False)
class CompressionCurve:
    """One training run and the curves it gives (see :func:`compression_curve`).

    ``gains[k]`` is how many training-text tokens merge ``k + 1`` saved;
    ``counts[k]`` how many adjacent occurrences its pair had when chosen.
    ``base_vocab`` is the vocab size before any merge (256 + special tokens),
    so ``k`` merges mean a vocab of ``base_vocab + k``.
    """

    tokenizer: Tokenizer
    train: TextCurve
    heldout: tuple[TextCurve, ...]
    gains: tuple[int, ...]
    counts: tuple[int, ...]
    stop_reason: str
    base_vocab: int
    requested_vocab: int

    @property
    def merges(self) -> int:
        return len(self.gains)

    def vocab_size(self, k: int) -> int:
        """The vocab size after ``k`` merges."""
        return self.base_vocab + k

    def merges_for(self, vocab_size: int) -> int:
        """The merges a vocab of ``vocab_size`` holds, capped at what training reached.

        >>> run = compression_curve("aaab", TrainOptions(vocab_size=300, pattern="none"))
        >>> run.merges, run.merges_for(257), run.merges_for(4096)
        (3, 1, 3)
        """
        if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < self.base_vocab:
            raise ValueError(
                f"vocab size must be a whole number >= {self.base_vocab} (the bytes and special tokens), "
                f"not {vocab_size!r}"
            )
        return min(vocab_size - self.base_vocab, self.merges)


# ----- the one pass ------------------------------------------------------------------


class _Ranks:
    """A tokenizer's merges as ``(a, b) -> (rank, new id)``, checked to be a prefix order."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        if not isinstance(tokenizer, Tokenizer):
            raise ValueError(
                f"expected a bpe_core.Tokenizer, not {type(tokenizer).__name__}; train one with "
                "bpe_core.train"
            )
        created = {new_id: rank for rank, new_id in enumerate(tokenizer.merge_ids)}
        ranks: dict[tuple[int, int], tuple[int, int]] = {}
        for rank, (a, b) in enumerate(tokenizer.merges):
            if created.get(a, -1) >= rank or created.get(b, -1) >= rank:
                raise ValueError(
                    f"merge {rank + 1} uses a token made by a later merge, so the merges are not a prefix "
                    "order "
                    "and a smaller tokenizer cannot be cut from them; list each merge after the merges it "
                    "builds on"
                )
            ranks.setdefault((a, b), (rank, tokenizer.merge_ids[rank]))
        self.ranks = ranks
        self.byte_id = tokenizer.byte_ids()
        self.merges = len(tokenizer.merges)


def _events_short(data: bytes, r: _Ranks, starts_wanted: bool) -> list[tuple[int, int]]:
    """Merge ``data`` by rank (rescanning): ``(rank, byte offset of the right token)`` per applied merge."""
    byte_id = r.byte_id
    ranks = r.ranks
    ids = [byte_id[b] for b in data]
    starts = list(range(len(ids))) if starts_wanted else None
    events: list[tuple[int, int]] = []
    while len(ids) > 1:
        best = None
        for pair in pairwise(ids):
            found = ranks.get(pair)
            if found is not None and (best is None or found[0] < best[0]):
                best, best_pair = found, pair
        if best is None:
            break
        a, b = best_pair
        rank, new_id = best
        out: list[int] = []
        out_starts: list[int] = []
        i, n = 0, len(ids)
        while i < n:
            if i + 1 < n and ids[i] == a and ids[i + 1] == b:
                out.append(new_id)
                if starts is not None:
                    out_starts.append(starts[i])
                    events.append((rank, starts[i + 1]))
                else:
                    events.append((rank, 0))
                i += 2
            else:
                out.append(ids[i])
                if starts is not None:
                    out_starts.append(starts[i])
                i += 1
        ids = out
        if starts is not None:
            starts = out_starts
    return events


def _events_long(data: bytes, r: _Ranks) -> list[tuple[int, int]]:
    """Same as :func:`_events_short` in O(n log n): a linked list of tokens, a heap of ``(rank, position)``.

    Equal ranks pop left to right, which is the encoder's left-to-right,
    non-overlapping replacement; a merge only creates pairs of later ranks.
    Positions are byte offsets where tokens start.
    """
    byte_id = r.byte_id
    ranks = r.ranks
    n = len(data)
    tok = [byte_id[b] for b in data]
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    heap: list[tuple[int, int]] = []
    for i in range(n - 1):
        found = ranks.get((tok[i], tok[i + 1]))
        if found is not None:
            heap.append((found[0], i))
    heapq.heapify(heap)
    events: list[tuple[int, int]] = []
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        rank, i = pop(heap)
        a = tok[i]
        if a < 0:
            continue  # consumed by an earlier merge
        j = nxt[i]
        if j < 0:
            continue
        found = ranks.get((a, tok[j]))
        if found is None or found[0] != rank:
            continue  # stale: the pair here changed
        new_id = found[1]
        events.append((rank, j))
        tok[i] = new_id
        tok[j] = -1
        q = nxt[j]
        nxt[i] = q
        if q >= 0:
            prv[q] = i
            f = ranks.get((new_id, tok[q]))
            if f is not None:
                push(heap, (f[0], i))
        p = prv[i]
        if p >= 0:
            f = ranks.get((tok[p], new_id))
            if f is not None:
                push(heap, (f[0], p))
    return events


def _chunk_events(data: bytes, r: _Ranks, starts_wanted: bool) -> list[tuple[int, int]]:
    if len(data) > LONG_CHUNK:
        return _events_long(data, r)
    return _events_short(data, r, starts_wanted)


def _curve_from_chunks(
    r: _Ranks,
    chunk_counts: Mapping[str, int],
    special_counts: Mapping[str, int],
    *,
    name: str,
    chars: int,
    nbytes: int,
    words: int,
    by_script: bool,
    progress: Progress | None = None,
) -> TextCurve:
    K = r.merges
    delta = [0] * (K + 1)
    initial = 0
    script_delta: dict[str, list[int]] = {}
    script_bytes: Counter[str] = Counter()
    script_chars: Counter[str] = Counter()
    total = len(chunk_counts)
    every = max(1, total // 50)
    for n, (chunk, count) in enumerate(chunk_counts.items()):
        if progress is not None and n % every == 0:
            progress(n / total, f"{name}: {n:,} of {total:,} distinct chunks")
        data = chunk.encode("utf-8")
        initial += len(data) * count
        if not by_script:
            for rank, _ in _chunk_events(data, r, False):
                delta[rank] += count
            continue
        cats = resolve_chunk(chunk)
        for cat in cats:
            script_chars[cat] += count
        first = cats[0] if cats else ""
        if cats and all(c == first for c in cats):  # one category: no need to know where tokens start
            script_bytes[first] += len(data) * count
            sd = script_delta.get(first)
            if sd is None:
                sd = script_delta[first] = [0] * (K + 1)
            for rank, _ in _chunk_events(data, r, False):
                delta[rank] += count
                sd[rank] += count
            continue
        bcats = byte_categories(chunk, cats)
        for cat in bcats:
            script_bytes[cat] += count
        for rank, start in _chunk_events(data, r, True):
            delta[rank] += count
            cat = bcats[start]
            sd = script_delta.get(cat)
            if sd is None:
                sd = script_delta[cat] = [0] * (K + 1)
            sd[rank] += count
    specials = sum(special_counts.values())
    tokens = _curve(initial + specials, delta, K)
    script_tokens: dict[str, tuple[int, ...]] = {}
    if by_script:
        for cat, b in script_bytes.items():
            script_tokens[cat] = _curve(b, script_delta.get(cat, [0] * (K + 1)), K)
        if specials:
            script_tokens[SPECIAL] = (specials,) * (K + 1)
            script_bytes[SPECIAL] = sum(len(s.encode("utf-8")) * c for s, c in special_counts.items())
            script_chars[SPECIAL] = sum(len(s) * c for s, c in special_counts.items())
    if progress is not None:
        progress(1.0, f"{name}: done")
    return TextCurve(
        name=name,
        chars=chars,
        bytes=nbytes,
        words=words,
        tokens=tokens,
        script_chars=dict(script_chars),
        script_bytes=dict(script_bytes),
        script_tokens=script_tokens,
    )


def _curve(initial: int, delta: list[int], K: int) -> tuple[int, ...]:
    """``initial`` minus the running sum of ``delta`` (``delta[r]`` = tokens removed by merge rank ``r``)."""
    return (initial,) + tuple(initial - s for s in accumulate(delta[:K]))


def text_curve(
    tokenizer: Tokenizer,
    text: str,
    *,
    name: str = "text",
    by_script: bool = False,
    progress: Progress | None = None,
) -> TextCurve:
    """Tokens of ``text`` after every ``k = 0..len(tokenizer.merges)`` merges, in one pass.

    ``tokens[k] == len(tokenizer.with_merges(k).encode(text))``.  A tokenizer
    whose merges are not a prefix order (a merge using a token of a later
    merge) is a ValueError.

    >>> from bpe_core import train
    >>> tok = train("ab ab abc", vocab_size=258, pattern="whitespace")
    >>> text_curve(tok, "abc abc", by_script=True).script_tokens
    {'Latin': (6, 4, 2), 'space & punctuation': (1, 1, 1)}
    """
    data = check_text(text)
    r = _Ranks(tokenizer)
    chunks, specials = tokenizer.pretokenizer.count_chunks(text)
    return _curve_from_chunks(
        r,
        chunks,
        specials,
        name=name,
        chars=len(text),
        nbytes=len(data),
        words=len(text.split()),
        by_script=by_script,
        progress=progress,
    )


def _named(texts: Mapping[str, str] | Sequence[str]) -> list[tuple[str, str]]:
    if isinstance(texts, str):
        raise ValueError(
            "texts must be a list of texts or a mapping name -> text, not one string; wrap it in a list"
        )
    if isinstance(texts, Mapping):
        items = list(texts.items())
    else:
        items = [(f"text {i + 1}", t) for i, t in enumerate(texts)]
    for name, t in items:
        if not isinstance(t, str):
            raise ValueError(
                f"text {name!r} must be a str, not {type(t).__name__}; decode bytes with .decode('utf-8') "
                "first"
            )
    return items


def _sub_progress(progress: Progress, low: float, high: float) -> Progress:
    return lambda f, message: progress(low + (high - low) * f, message)


def compression_curve(
    train_text: str,
    options: TrainOptions,
    *,
    heldout: Mapping[str, str] | Sequence[str] = (),
    by_script: bool = False,
    workers: int | None = None,
    progress: Progress | None = None,
) -> CompressionCurve:
    """Train once up to ``options.vocab_size``, and count tokens after every merge on the training and
    held-out texts.

    The training curve comes from the trainer's own counts (free); each
    held-out text costs one pass (:func:`text_curve`).  With ``by_script``,
    the training text also gets one pass over its distinct chunks (kept from
    training, not pre-tokenized again).  ``progress(fraction, message)`` is
    called now and then.  ``options.top_k`` and ``preview_chars`` are not used.

    >>> options = TrainOptions(vocab_size=259, pattern="none", tie_break="lowest-id")
    >>> run = compression_curve("aaabdaaabac", options)
    >>> run.train.tokens, run.gains, run.stop_reason
    ((11, 9, 7, 5), (2, 2, 2), 'reached the requested vocab size')
    """
    named = _named(heldout)
    if progress is not None:
        progress(0.0, "pre-tokenizing the training text")
    plain = options.replace(top_k=0, preview_chars=0)
    trainer = Trainer(train_text, plain, records=False, workers=workers)
    wanted = max(1, options.max_merges)
    # Rough shares of the work: training, the training text's per-script pass, held-out passes.
    share_train = 0.8 if (named or by_script) else 1.0
    share_script = 0.1 if by_script else 0.0
    gains: list[int] = []
    counts: list[int] = []
    tokens = [trainer.initial_tokens]
    every = max(1, wanted // 100)
    for step in trainer:
        gains.append(step.replaced)
        counts.append(step.count)
        tokens.append(step.tokens_after)
        if progress is not None and step.index % every == 0:
            progress(share_train * step.index / wanted, f"training: merge {step.index:,} of {wanted:,}")
    tok = trainer.tokenizer()
    text_bytes = trainer.corpus_bytes
    if by_script:
        r = _Ranks(tok)
        sub = (
            _sub_progress(progress, share_train, share_train + share_script) if progress is not None else None
        )
        train = _curve_from_chunks(
            r,
            trainer.corpus.chunk_counts,
            trainer.corpus.special_counts,
            name="train",
            chars=len(train_text),
            nbytes=text_bytes,
            words=len(train_text.split()),
            by_script=True,
            progress=sub,
        )
        if train.tokens != tuple(tokens):  # the two counts must agree; if not, this is a bug to report
            raise RuntimeError("the one-pass training curve disagrees with the trainer's counts")
    else:
        train = TextCurve(
            name="train",
            chars=len(train_text),
            bytes=text_bytes,
            words=len(train_text.split()),
            tokens=tuple(tokens),
        )
    held: list[TextCurve] = []
    done = share_train + share_script
    for n, (name, text) in enumerate(named):
        sub = None
        if progress is not None:
            low = done + (1 - done) * n / len(named)
            sub = _sub_progress(progress, low, done + (1 - done) * (n + 1) / len(named))
        held.append(text_curve(tok, text, name=name, by_script=by_script, progress=sub))
    if progress is not None:
        progress(1.0, "done")
    return CompressionCurve(
        tokenizer=tok,
        train=train,
        heldout=tuple(held),
        gains=tuple(gains),
        counts=tuple(counts),
        stop_reason=trainer.stop_reason or "",
        base_vocab=options.base_vocab,
        requested_vocab=options.vocab_size,
    )
