"""The lab's computation and its caches (pure Python; no Streamlit).

One request = the texts + :class:`LabSettings`; the result holds the training run with its curves and
the table of sizes.  Results are immutable, cached per server process by :func:`lab_key` (a digest of
the texts and the settings) and shared between sessions.

>>> s = LabSettings(TrainOptions(vocab_size=300), sizes=(1024,))
>>> s.table_sizes
(300, 512, 1024, 4096, 32768)
>>> settings = LabSettings(TrainOptions(vocab_size=270), samples=500)
>>> r = compute_lab("low lower lowest " * 5, {"held-out": "lowest low"}, settings)
>>> r.run.merges, [row.requested_vocab for row in r.rows][:2]
(7, [270, 270])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bpe_core import Tokenizer, TrainOptions
from bpe_core.analysis import (
    DEFAULT_SAMPLES,
    LESSON_SIZES,
    CompressionCurve,
    SizeRow,
    compression,
    compression_curve,
    oov_rate,
    round_trip,
    sample_chars,
    size_table,
)
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.inputs.tokenizer_files import load_uploaded
from mergescope_ui.shared.settings import APP_WORKERS, CACHE_SECONDS
from mergescope_ui.shared.workers.jobs import MEGABYTE, Limits
from mergescope_ui.shared.workers.progress_cache import ProgressCache

MAX_VOCAB = 32_768
MAX_SIZES = 64  # the user's own sizes in the table
CACHE_ENTRIES = 4  # a 32K-vocab result with per-script curves holds some tens of MB

Progress = Callable[[float, str], object]  # what it returns is not used (st.progress's element, say)


def unwatched(fraction: float, note: str) -> None:
    """The progress of a call no one shows."""


@dataclass(frozen=True, slots=True)
class LabSettings:
    """What the lab trains with (``options``: its ``vocab_size`` is the largest) and measures with."""

    options: TrainOptions
    sizes: tuple[int, ...] = ()  # the user's own sizes for the table
    samples: int = DEFAULT_SAMPLES  # random characters per round-trip check

    @property
    def table_sizes(self) -> tuple[int, ...]:
        """The lessons' sizes, the user's, and the largest vocab, sorted, each once."""
        return tuple(sorted({*LESSON_SIZES, *self.sizes, self.options.vocab_size}))


@dataclass(frozen=True, slots=True, eq=False)
class LabResult:
    """A training run with its curves, the table of sizes, and how long it took; ``left_out`` are the
    sizes asked for that training did not reach (the table has no row for them)."""

    run: CompressionCurve
    rows: tuple[SizeRow, ...]
    seconds: float
    left_out: tuple[int, ...] = ()


def parse_sizes(
    text: str, *, smallest: int = 257, largest: int = MAX_VOCAB, most: int = MAX_SIZES
) -> tuple[int, ...]:
    """Vocab sizes typed as a list (``"1000, 8k 16384"``); each must be within ``smallest..largest``,
    and at most ``most`` different ones.

    >>> parse_sizes("1000, 8k 16384, 1000")
    (1000, 8192, 16384)
    >>> parse_sizes("")
    ()
    >>> parse_sizes("300 400 500", most=2)
    Traceback (most recent call last):
    ...
    ValueError: more than 2 vocab sizes; the table has a row per size, so keep to the few you compare
    """
    out: dict[int, None] = {}  # the sizes in order, each once
    for part in text.replace(",", " ").replace(";", " ").split():
        word = part.strip().lower()
        try:
            value = int(word[:-1]) * 1024 if word.endswith("k") else int(word)
        except ValueError:
            raise ValueError(
                f"{part!r} is not a vocab size; type whole numbers like 1000 or 8k, separated by commas"
            ) from None
        if not smallest <= value <= largest:
            raise ValueError(
                f"vocab size {value} is out of range {smallest}..{largest}; the smallest holds the "
                "256 bytes and the special tokens plus one merge"
            )
        if value not in out:
            if len(out) == most:
                raise ValueError(
                    f"more than {most} vocab sizes; the table has a row per size, so keep to the few you "
                    "compare"
                )
            out[value] = None
    return tuple(out)


def reached_sizes(sizes: Sequence[int], final: int) -> list[int]:
    """The sizes of the table when training stopped at vocab size ``final``: those it reached, and the
    first one past it (its row is the final tokenizer, marked as where training stopped), but no more:
    every bigger size would repeat that row.

    >>> reached_sizes([300, 512, 1024, 4096, 32768], 700)
    [300, 512, 1024]
    >>> reached_sizes([300, 512, 700, 4096], 700), reached_sizes([300, 512], 32768)
    ([300, 512, 700], [300, 512])
    """
    ordered = sorted(set(sizes))
    reached = [s for s in ordered if s <= final]
    beyond = [s for s in ordered if s > final]
    return reached + beyond[:1] if not reached or reached[-1] < final else reached


def compute_lab(
    train_text: str,
    heldout: Mapping[str, str],
    settings: LabSettings,
    *,
    progress: Progress = unwatched,
) -> LabResult:
    """Train once to ``settings.options.vocab_size``, build every curve and the table of sizes."""
    if not train_text.strip():
        raise ValueError("the training text is empty; choose a corpus, paste text or upload a file")
    start = time.perf_counter()
    run = compression_curve(
        train_text,
        settings.options,
        heldout=dict(heldout),
        by_script=True,
        progress=lambda f, m: progress(0.9 * f, m),
        workers=APP_WORKERS,
    )
    progress(0.92, "table: compression, OOV and round-trip rates")
    texts = {run.train.name: train_text, **heldout}
    asked = [s for s in settings.table_sizes if s >= run.base_vocab]
    sizes = reached_sizes(asked, run.vocab_size(run.merges))
    rows = size_table(run, sizes, texts, samples=settings.samples)
    progress(1.0, "done")
    return LabResult(
        run=run,
        rows=tuple(rows),
        seconds=time.perf_counter() - start,
        left_out=tuple(s for s in asked if s not in sizes),
    )


def reference_rows(
    tokenizer: Tokenizer,
    name: str,
    texts: Mapping[str, str],
    *,
    samples: int = DEFAULT_SAMPLES,
    progress: Progress = unwatched,
) -> tuple[SizeRow, ...]:
    """A loaded tokenizer (e.g. GPT-2's files) measured on each text at its own vocab size.

    >>> from bpe_core import train
    >>> tok = train("abab abab", vocab_size=259)
    >>> rows = reference_rows(tok, "mine", {"t": "abab"}, samples=50)
    >>> [(r.tokenizer, r.vocab_size, r.compression.tokens, r.round_trip_rate) for r in rows]
    [('mine', 259, 1, 1.0)]
    """
    rows = []
    for n, (text_name, text) in enumerate(texts.items()):
        progress(n / max(1, len(texts)), f"{name}: encoding the {text_name} text")
        trip = round_trip(tokenizer, text, drawn=sample_chars(text, samples=samples)).rate if text else 1.0
        rows.append(
            SizeRow(
                tokenizer=name,
                requested_vocab=tokenizer.vocab_size,
                vocab_size=tokenizer.vocab_size,
                merges=len(tokenizer.merges),
                text=text_name,
                compression=compression(tokenizer, text),
                oov_rate=oov_rate(tokenizer, text),
                round_trip_rate=trip,
            )
        )
    progress(1.0, "done")
    return tuple(rows)


CACHE: ProgressCache[LabResult] = ProgressCache(entries=CACHE_ENTRIES, seconds=CACHE_SECONDS)
"""Results by :func:`lab_key`."""
REFERENCES: ProgressCache[tuple[SizeRow, ...]] = ProgressCache(entries=CACHE_ENTRIES, seconds=CACHE_SECONDS)
"""A loaded tokenizer's rows by :func:`reference_key`."""

# ----- in a worker process (shared.workers.jobs): the lab's heavy work, off the server's thread -----
LAB_LIMITS = Limits(seconds=300, memory_bytes=2048 * MEGABYTE)
"""A 10 MB text trained to 32,768 tokens with every curve: about a minute and 1 GB on a class's server."""


def lab_key(train_text: str, heldout: Mapping[str, str], settings: LabSettings) -> str:
    """One string naming a lab run (for the cache, and for the job that computes it)."""
    heldout_digests = tuple(sorted((n, digest(t)) for n, t in heldout.items()))
    return "lab:" + digest(repr((digest(train_text), heldout_digests, settings)))


def lab_job(
    train_text: str, heldout: Mapping[str, str], settings: LabSettings, *, progress: Callable[..., None]
) -> LabResult:
    """:func:`compute_lab` as a worker job (its progress in thousandths)."""
    return compute_lab(
        train_text, heldout, settings, progress=lambda f, m: progress(round(1000 * f), 1000, m)
    )


def reference_job(
    files: list[tuple[str, bytes]],
    name: str,
    texts: Mapping[str, str],
    samples: int,
    *,
    progress: Callable[..., None],
) -> tuple[tuple[SizeRow, ...], tuple[str, ...]]:
    """Load uploaded tokenizer files and measure them (:func:`reference_rows`) as a worker job: the
    tokenizer never reaches the server, only its rows, and what the loader had to assume."""
    progress(0, 1000, f"{name}: reading the files")
    notes: list[str] = []
    rows = reference_rows(
        load_uploaded(files, notes=notes),
        name,
        texts,
        samples=samples,
        progress=lambda f, m: progress(round(1000 * f), 1000, m),
    )
    return rows, tuple(notes)


def reference_key(tokenizer_key: str, name: str, texts: Mapping[str, str], samples: int) -> str:
    """One string naming a tokenizer's rows (``tokenizer_key``: a digest of its files), for
    :data:`REFERENCES` and the job that measures it."""
    texts_digests = tuple((n, digest(t)) for n, t in texts.items())
    return "reference:" + digest(repr(("reference", tokenizer_key, name, texts_digests, samples)))


def clear_caches() -> None:
    """Forget every cached result (tests use it for isolation)."""
    CACHE.clear()
    REFERENCES.clear()
