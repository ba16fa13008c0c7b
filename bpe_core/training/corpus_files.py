"""A :class:`~.corpus.Corpus` counted from files, in bounded memory: the text is never held whole.

The files (several, globs, ``-`` for stdin) are one stream, their
concatenation, read in blocks of ``BLOCK_BYTES`` and counted with
:mod:`bpe_core.pretokenizer.blocks`, so the counts, and the merges trained on
them, are those of the concatenated text.  Memory holds the counts, one block
per process, and the longest stretch without a safe cut.  A special token such
as ``<|endoftext|>`` separates documents as it does in a text.

With ``workers`` > 1 each file is cut into ranges of bytes counted in a pool
of processes (started with ``forkserver`` or ``spawn``, never ``fork``); their
counts are combined in file order.  :mod:`.corpus_dask` does the same on a
Dask cluster.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "a.txt").write_text("the cat<|eot|>the ", encoding="utf-8")
>>> _ = (folder / "b.txt").write_text("hat", encoding="utf-8")
>>> from bpe_core.pretokenizer import PreTokenizer
>>> pre = PreTokenizer("gpt2", special_tokens=["<|eot|>"])
>>> corpus = count_files([folder / "*.txt"], pre)
>>> dict(corpus.chunk_counts) == dict(Corpus.count("the cat<|eot|>the hat", pre).chunk_counts)
True
"""

from __future__ import annotations

import glob
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import BinaryIO

from ..pretokenizer import PreTokenizer
from ..pretokenizer.blocks import BlockCounter, BlockCounts, InvalidUtf8, combine
from .corpus import Corpus

BLOCK_BYTES = 1 << 20  # counted at a time: ~1 MB of text, its chunk list, its counts
RANGE_BYTES = 32 << 20  # one task of a process pool or a Dask worker
STDIN = "-"


@dataclass(frozen=True, slots=True)
class Progress:
    """How far counting is: ``bytes_read`` of ``total_bytes`` (None when reading stdin),
    ``pretokens`` counted (chunks and special tokens)."""

    bytes_read: int
    total_bytes: int | None
    pretokens: int


ProgressFn = Callable[[Progress], None]


def expand_files(files: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The paths named by ``files`` in order: globs expanded (sorted), ``-`` kept for stdin.

    A glob that matches nothing, a missing file or a directory is a ValueError.
    """
    if isinstance(files, str | os.PathLike):
        files = [files]
    out: list[str] = []
    for name in files:
        name = os.fspath(name)
        if name == STDIN:
            out.append(name)
            continue
        if glob.has_magic(name):
            matches = sorted(p for p in glob.glob(name, recursive=True) if os.path.isfile(p))
            if not matches:
                raise ValueError(f"{name}: no file matches this pattern")
            out.extend(matches)
            continue
        if not os.path.exists(name):
            raise ValueError(f"{name}: does not exist; pass a UTF-8 text file, a glob or - for stdin")
        if not os.path.isfile(name):
            raise ValueError(f"{name}: is not a regular file; pass text files (a glob such as 'dir/*.txt')")
        out.append(name)
    if not out:
        raise ValueError("no files given: pass one or more text files, globs, or - for stdin")
    if out.count(STDIN) > 1:
        raise ValueError("- (stdin) can be read only once")
    return out


def count_files(
    files: Iterable[str | os.PathLike[str]],
    pretokenizer: PreTokenizer,
    *,
    workers: int | None = 1,
    progress: ProgressFn | None = None,
    stdin: BinaryIO | None = None,
    block_bytes: int = BLOCK_BYTES,
    range_bytes: int | None = None,
) -> Corpus:
    """Count the concatenation of ``files`` (see the module docstring).

    ``workers``: processes (None: one per CPU for more than ``RANGE_BYTES``
    of files, else one); stdin is always read here, in this process.
    ``range_bytes``: the size of one process's task (default: a quarter of
    each worker's share, between 1 and 32 MB, so the workers stay balanced).
    """
    paths = expand_files(files)
    sizes = {p: os.path.getsize(p) for p in paths if p != STDIN}
    total = None if STDIN in paths else sum(sizes.values())
    if workers is None:
        workers = (os.cpu_count() or 1) if (total or 0) > RANGE_BYTES else 1
    check_workers(workers)
    counter = BlockCounter(pretokenizer)
    if workers > 1 and total is not None:
        if range_bytes is None:
            range_bytes = min(RANGE_BYTES, max(1 << 20, total // (4 * workers)))
        ranges = list(file_ranges(paths, sizes, range_bytes=range_bytes))
        parts = _pool_parts(ranges, pretokenizer, workers=workers, block_bytes=block_bytes)
    else:
        parts = _read_parts(paths, counter, sizes, stdin=stdin, block_bytes=block_bytes)
    try:
        run = combine(_reporting(parts, total, progress), counter, starts_stream=True)
        chunks, specials = run.finish(counter)
    except InvalidUtf8 as exc:
        raise named_utf8_error(exc, paths, sizes) from None
    return Corpus(dict(chunks), dict(specials), run.bytes)


def check_workers(workers: object) -> int:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number of processes, 1 or more, not {workers!r}")
    return workers


@dataclass(frozen=True, slots=True)
class FileRange:
    """Bytes ``start:end`` of ``path``, which is at ``offset`` in the stream of all the files."""

    path: str
    start: int
    end: int
    offset: int


def file_ranges(paths: Sequence[str], sizes: dict[str, int], *, range_bytes: int) -> Iterator[FileRange]:
    """Each file cut into ranges of about ``range_bytes``, in stream order."""
    offset = 0
    for path in paths:
        size = sizes[path]
        for start in range(0, size, range_bytes):
            yield FileRange(path, start, min(size, start + range_bytes), offset + start)
        offset += size


def count_range(
    file_range: FileRange, pattern: str, special_tokens: Sequence[str], block_bytes: int
) -> BlockCounts:
    """Count one range of one file (a map task: it runs in a worker process or on a Dask worker)."""
    counter = counter_for(pattern, tuple(special_tokens))
    with open(file_range.path, "rb") as f:
        f.seek(file_range.start)
        parts = _blocks_of(
            f, file_range.end - file_range.start, counter, offset=file_range.offset, block_bytes=block_bytes
        )
        return combine(parts, counter, starts_stream=False)


_COUNTERS: dict[tuple[str, tuple[str, ...]], BlockCounter] = {}


def counter_for(pattern: str, special_tokens: tuple[str, ...]) -> BlockCounter:
    """One BlockCounter per process for each pre-tokenizer (its regexes are compiled once)."""
    key = (pattern, special_tokens)
    if key not in _COUNTERS:
        _COUNTERS[key] = BlockCounter(PreTokenizer(pattern, special_tokens=special_tokens))
    return _COUNTERS[key]


def _blocks_of(
    f: BinaryIO, size: int | None, counter: BlockCounter, *, offset: int, block_bytes: int
) -> Iterator[BlockCounts]:
    """Count ``size`` bytes of ``f`` (None: to its end) block by block."""
    done = 0
    while size is None or done < size:
        data = f.read(block_bytes if size is None else min(block_bytes, size - done))
        if not data:
            break
        yield counter.count_block(data, at_start=offset + done == 0, offset=offset + done)
        done += len(data)


def _read_parts(
    paths: Sequence[str],
    counter: BlockCounter,
    sizes: dict[str, int],
    *,
    stdin: BinaryIO | None,
    block_bytes: int,
) -> Iterator[BlockCounts]:
    """The blocks of every file in order, read and counted here (stdin's size goes in ``sizes``)."""
    offset = 0
    for path in paths:
        if path == STDIN:
            f = stdin if stdin is not None else os.fdopen(os.dup(0), "rb")
        else:
            f = open(path, "rb")  # noqa: SIM115 (closed below, after the last block is counted)
        read = 0
        try:
            for part in _blocks_of(f, None, counter, offset=offset, block_bytes=block_bytes):
                read += part.bytes
                yield part
        finally:
            if f is not stdin:
                f.close()
        sizes[path] = read
        offset += read


def _pool_parts(
    ranges: list[FileRange], pretokenizer: PreTokenizer, *, workers: int, block_bytes: int
) -> Iterator[BlockCounts]:
    """The ranges counted in a pool of ``workers`` processes, yielded in stream order.

    At most two ranges per worker are in flight, so that the counts of ranges
    done early do not pile up while an earlier one is still being counted.
    """
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    specials = tuple(pretokenizer.special_tokens)
    workers = max(1, min(workers, len(ranges)))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        todo = iter(ranges)
        flying: deque[Future[BlockCounts]] = deque()
        try:
            for file_range in todo:
                flying.append(
                    pool.submit(count_range, file_range, pretokenizer.pattern, specials, block_bytes)
                )
                if len(flying) >= 2 * workers:
                    yield flying.popleft().result()
            while flying:
                yield flying.popleft().result()
        finally:
            for future in flying:
                future.cancel()


def _reporting(
    parts: Iterable[BlockCounts], total: int | None, progress: ProgressFn | None
) -> Iterator[BlockCounts]:
    read = counted = 0
    for part in parts:
        read += part.bytes
        counted += part.pretokens
        if progress is not None:
            progress(Progress(read, total, counted))
        yield part


def named_utf8_error(exc: InvalidUtf8, paths: Sequence[str], sizes: dict[str, int]) -> ValueError:
    """The error with the file, line and offset in that file."""
    offset = exc.offset
    for path in paths:
        size = sizes.get(path)
        if size is None or offset < size:
            local = offset
            line = None
            if path != STDIN:
                with open(path, "rb") as f:
                    line = f.read(local).count(b"\n") + 1
            where = f"{path}, line {line}" if line else path
            return ValueError(
                f"{where}: byte 0x{exc.byte:02X} at offset {local} is not valid UTF-8; "
                "convert the file to UTF-8"
            )
        offset -= size
    return ValueError(str(exc))
