"""The four schemes trained on one text and measured (pure; no Streamlit): what the page shows.

:func:`compare_job` is the page's one heavy call: it takes a ``progress(done, total, note)`` callback and
returns plain records only (no tokenizer), so that it runs in a worker process as it is.

>>> result = compare_job("low lower lowest newest widest " * 20, "slow lowest west", vocab_size=260,
...                      sentence="the lowest", sizes=(), progress=lambda *a: None)
>>> [(s.row.model, s.row.vocab_size) for s in result.schemes]
[('bpe', 260), ('wordpiece', 29), ('unigram', 71), ('char', 12)]
>>> [c.label for c in result.schemes[1].cuts], result.schemes[1].sentence_lost.decoded
(['[UNK]', 'lowest'], '[UNK] lowest')

(WordPiece and Unigram stop when nothing is left to add; the character scheme has the text's characters.)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bpe_core import MODELS, Loss, SchemeTokenizer, lost, train_scheme
from bpe_core.analysis import SchemeRow, compare_schemes, measure
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html.schemes import Cut, cut
from mergescope_ui.shared.settings import CACHE_SECONDS
from mergescope_ui.shared.workers.progress_cache import ProgressCache

NAMES = {"bpe": "Byte-level BPE", "wordpiece": "WordPiece", "unigram": "Unigram", "char": "Characters"}
OPTIONS = {"bpe": {"workers": 1}}  # never a pool of processes from inside the server
MAX_CHARS = 50_000
"""The most characters of a text the page trains on: the four schemes then train within seconds a size."""
MIN_VOCAB, MAX_VOCAB = 20, 5_000
MAX_SIZES = 6  # sizes on the curve: each trains the four schemes again

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True, slots=True)
class LostLine:
    """A line the round trip did not give back: the line, what came back, the spans that became unknown
    tokens, and how many places lost their white space or were changed by normalization."""

    line: str
    decoded: str
    unknown: tuple[tuple[int, int], ...]
    spacing: int
    changed: int


@dataclass(frozen=True, slots=True)
class SchemeResult:
    """One scheme at the asked size: its row of the table, the sentence's tokens, and what is lost
    (of the sentence, and the first line of each text that does not come back)."""

    row: SchemeRow
    cuts: tuple[Cut, ...]
    sentence_lost: LostLine | None
    text_lost: LostLine | None
    held_out_lost: LostLine | None


@dataclass(frozen=True, slots=True)
class Comparison:
    """What the page shows: each scheme at the asked size, and the rows at each size of the curve."""

    schemes: tuple[SchemeResult, ...]
    curve: tuple[SchemeRow, ...]
    seconds: float


CACHE: ProgressCache[Comparison] = ProgressCache(entries=8, seconds=CACHE_SECONDS)
"""Comparisons by :func:`job_key`, shared by the server's sessions (a class on the same text trains once)."""


LOST_WINDOW = 400  # characters of a lost line shown, from a little before its first difference


def _lost_line(tok: SchemeTokenizer, line: str) -> LostLine | None:
    """What the round trip of ``line`` loses, the line cut to :data:`LOST_WINDOW` characters from a
    little before the first place it differs (a text without newlines is one long line).

    >>> from bpe_core import train_scheme
    >>> tok = train_scheme("ab ab " * 400, model="char", vocab_size=4)
    >>> lost_line = _lost_line(tok, "ab " * 300 + "abc " + "ab " * 300)
    >>> lost_line.line[:3], len(lost_line.line), lost_line.unknown, lost_line.decoded[80:88]
    ('…ab', 402, ((81, 82),), 'b[UNK] a')
    """
    loss: Loss = lost(tok, line)
    if loss.round_trip:
        return None
    shorter = min(len(line), len(loss.decoded))  # where they differ when one starts the other
    first = next((i for i, (a, b) in enumerate(zip(line, loss.decoded)) if a != b), shorter)
    start = max(0, first - 80)
    if loss.unknown:
        start = min(start, max(0, loss.unknown[0][0] - 80))
    head = "…" if start else ""
    end = start + LOST_WINDOW
    unknown = tuple(
        (max(a, start) - start + len(head), min(b, end) - start + len(head))
        for a, b in loss.unknown
        if a < end and b > start
    )
    return LostLine(
        head + line[start:end] + ("…" if len(line) > end else ""),
        head + loss.decoded[start:end] + ("…" if len(loss.decoded) > end else ""),
        unknown,
        loss.spacing,
        loss.changed,
    )


def _first_lost(tok: SchemeTokenizer, text: str) -> LostLine | None:
    """The first non-empty line of ``text`` that does not come back (as ``measure`` picks its example)."""
    for line in text.split("\n"):
        if line and (found := _lost_line(tok, line)) is not None:
            return found
    return None


def scheme_result(text: str, held_out: str, *, model: str, vocab_size: int, sentence: str) -> SchemeResult:
    """Train ``model`` and measure it (a scheme that cannot train at this size gets a row with its
    ``error``, as :func:`~bpe_core.analysis.schemes_table.compare_schemes` gives)."""
    start = time.perf_counter()
    try:
        tok = train_scheme(text, model=model, vocab_size=vocab_size, **OPTIONS.get(model, {}))
    except ValueError as exc:
        row = SchemeRow(model, vocab_size, 0, 0.0, None, None, str(exc))
        return SchemeResult(row, (), None, None, None)
    seconds = time.perf_counter() - start
    row = SchemeRow(model, vocab_size, tok.vocab_size, seconds, measure(tok, text), measure(tok, held_out))
    return SchemeResult(
        row,
        tuple(cut(tok, sentence)),
        _lost_line(tok, sentence) if sentence else None,
        _first_lost(tok, text),
        _first_lost(tok, held_out),
    )


def compare_job(
    text: str,
    held_out: str,
    *,
    vocab_size: int,
    sentence: str,
    sizes: Sequence[int],
    progress: Progress,
) -> Comparison:
    """The four schemes at ``vocab_size`` (:func:`scheme_result`), then at each of ``sizes`` (the curve's
    rows, as :func:`~bpe_core.analysis.schemes_table.compare_schemes` gives)."""
    check(text, held_out, vocab_size=vocab_size, sizes=sizes)
    start = time.perf_counter()
    curve_sizes = [v for v in sizes if v != vocab_size]
    total = len(MODELS) * (1 + len(curve_sizes))
    done = 0
    schemes = []
    for model in MODELS:
        progress(done, total, f"{NAMES[model]} to {vocab_size:,} ids")
        schemes.append(scheme_result(text, held_out, model=model, vocab_size=vocab_size, sentence=sentence))
        done += 1
    curve = [s.row for s in schemes]
    for v in curve_sizes:
        for model in MODELS:
            progress(done, total, f"{NAMES[model]} to {v:,} ids (the chart)")
            curve += compare_schemes(text, held_out=held_out, vocab_size=v, models=[model], options=OPTIONS)
            done += 1
    progress(total, total, "done")
    curve.sort(key=lambda r: (r.vocab_size_asked, MODELS.index(r.model)))
    return Comparison(tuple(schemes), tuple(curve), time.perf_counter() - start)


def check(text: str, held_out: str, *, vocab_size: int, sizes: Sequence[int]) -> None:
    """A ValueError saying how to fix inputs the page cannot compare."""
    if not text.strip():
        raise ValueError("the training text is empty; choose a built-in text, paste one or upload one")
    if not held_out.strip():
        raise ValueError("the held-out text is empty; hold out a larger share of the text")
    if len(text) > MAX_CHARS:
        raise ValueError(f"the training text has {len(text):,} characters; cut it to {MAX_CHARS:,}")
    for v in (vocab_size, *sizes):
        if not MIN_VOCAB <= v <= MAX_VOCAB:
            raise ValueError(f"vocab size {v} is out of range; use {MIN_VOCAB} to {MAX_VOCAB:,}")
    if len(sizes) > MAX_SIZES:
        raise ValueError(f"{len(sizes)} sizes for the chart; keep to {MAX_SIZES}")


def job_key(text: str, held_out: str, *, vocab_size: int, sentence: str, sizes: Sequence[int]) -> str:
    """One string naming a comparison (for the cache, and for the job that computes it)."""
    return "schemes:" + digest(text, held_out, sentence, repr((vocab_size, tuple(sizes))))


def parse_sizes(text: str) -> tuple[int, ...]:
    """The chart's vocab sizes typed as a list (``"300, 500 1k"``), sorted, each in range.

    >>> parse_sizes("1k, 300 500 300")
    (300, 500, 1000)
    >>> parse_sizes("300 lots")
    Traceback (most recent call last):
    ...
    ValueError: 'lots' is not a vocab size; type whole numbers such as 300, 500, 1k
    """
    out: set[int] = set()
    for part in text.replace(",", " ").replace(";", " ").split():
        word = part.lower()
        try:
            value = int(float(word[:-1]) * 1000) if word.endswith("k") else int(word)
        except ValueError:
            raise ValueError(
                f"{part!r} is not a vocab size; type whole numbers such as 300, 500, 1k"
            ) from None
        if not MIN_VOCAB <= value <= MAX_VOCAB:
            raise ValueError(f"vocab size {value} is out of range; use {MIN_VOCAB} to {MAX_VOCAB:,}")
        out.add(value)
        if len(out) > MAX_SIZES:
            raise ValueError(f"more than {MAX_SIZES} sizes; each trains the four schemes, so keep to a few")
    return tuple(sorted(out))
