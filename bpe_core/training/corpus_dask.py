"""A :class:`~.corpus.Corpus` counted on a Dask cluster (``dask.distributed``): corpora past one machine.

Pre-tokenization is the part of BPE training that parallelizes: the map is
"count the pre-tokens of a range of a file" (:func:`.corpus_files.count_range`,
on the workers), the reduce is "add the counts of two neighbouring ranges"
(:func:`bpe_core.pretokenizer.blocks.combine`, on the workers too, as a tree in
file order).  Only the final counts come back; the merges then run here, where
the counts are.  The counts, and so the merges, are those of one process
reading the concatenated files.

``scheduler="local"`` starts a cluster of processes on this machine (one per
CPU); ``"tcp://HOST:PORT"`` uses a running scheduler, whose workers must be
able to read the same paths (a shared file system) and import ``bpe_core``.
Dask is an optional extra (``pip install -r requirements-dask.txt``): this
module imports it only when asked to count, and nothing else in ``bpe_core``
or the app needs it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from types import ModuleType
from typing import TYPE_CHECKING

from ..pretokenizer import PreTokenizer
from ..pretokenizer.blocks import BlockCounter, BlockCounts, InvalidUtf8, combine
from .corpus import Corpus
from .corpus_files import (
    BLOCK_BYTES,
    RANGE_BYTES,
    STDIN,
    Progress,
    ProgressFn,
    count_range,
    counter_for,
    expand_files,
    file_ranges,
    named_utf8_error,
)

if TYPE_CHECKING:  # the optional extra, for the type checker only
    from distributed import Client, Future

INSTALL_HINT = "pip install -r requirements-dask.txt"
CONNECT_SECONDS = 10  # how long to wait for a remote scheduler


def count_files_dask(
    files: Iterable[str | os.PathLike[str]],
    pretokenizer: PreTokenizer,
    *,
    scheduler: str,
    progress: ProgressFn | None = None,
    workers: int | None = None,
    processes: bool = True,
    block_bytes: int = BLOCK_BYTES,
    range_bytes: int = RANGE_BYTES,
) -> Corpus:
    """Count the concatenation of ``files`` on Dask (see the module docstring).

    ``workers`` and ``processes`` shape the local cluster (default: one
    single-threaded process per CPU); they do not apply to a remote scheduler.
    """
    distributed = _import_distributed()
    if not isinstance(scheduler, str) or not (scheduler == "local" or "://" in scheduler):
        raise ValueError(
            f"dask scheduler {scheduler!r} is neither 'local' nor an address like tcp://HOST:PORT"
        )
    names = [os.fspath(f) for f in ([files] if isinstance(files, str | os.PathLike) else files)]
    if STDIN in names:
        raise ValueError("- (stdin) cannot be read on a Dask cluster; save it to a file the workers can read")
    pattern, specials = pretokenizer.pattern, tuple(pretokenizer.special_tokens)
    with ExitStack() as stack:
        client = stack.enter_context(_client(distributed, scheduler, workers=workers, processes=processes))
        # The workers list and size the files: they are the ones that read them.
        paths, sizes = client.submit(_list_files, names, pure=False).result()
        ranges = list(file_ranges(paths, sizes, range_bytes=range_bytes))
        counter = BlockCounter(pretokenizer)
        if not ranges:
            return Corpus({}, {}, 0)
        try:
            counted = client.map(
                count_range,
                ranges,
                pattern=pattern,
                special_tokens=specials,
                block_bytes=block_bytes,
                pure=False,
            )
            sized = client.map(_summary, counted, pure=False) if progress is not None else []
            final = _tree_combine(client, counted, pattern, specials)
            del counted  # so that each range's counts are freed on its worker once they are combined
            _report(distributed, sized, sum(sizes.values()), progress)
            run = final.result()
            if run.head or run.tail is None:  # one range: its start is the stream's
                run = combine([run], counter, starts_stream=True)
            chunks, special_counts = run.finish(counter)
        except InvalidUtf8 as exc:
            raise named_utf8_error(exc, paths, sizes) from None
    return Corpus(dict(chunks), dict(special_counts), run.bytes)


def _import_distributed() -> ModuleType:
    try:
        import dask.distributed as distributed
    except ImportError:
        raise ValueError(f"Dask is not installed; {INSTALL_HINT}") from None
    return distributed


@contextmanager
def _client(
    distributed: ModuleType, scheduler: str, *, workers: int | None, processes: bool
) -> Iterator[Client]:
    """A client of a new local cluster (closed after) or of the scheduler at ``scheduler``."""
    if scheduler == "local":
        with (
            distributed.LocalCluster(
                n_workers=workers or os.cpu_count() or 1,
                threads_per_worker=1,
                processes=processes,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        raise ValueError(
            f"cannot reach the Dask scheduler at {scheduler} ({exc}); start one with "
            "'dask scheduler' and workers with 'dask worker ADDRESS', or use --dask local"
        ) from None
    with client:
        yield client


def _list_files(names: Sequence[str]) -> tuple[list[str], dict[str, int]]:
    """On a worker: the files as it sees them, and their sizes."""
    paths = expand_files(names)
    return paths, {p: os.path.getsize(p) for p in paths}


def _combine_two(
    left: BlockCounts, right: BlockCounts, pattern: str, specials: tuple[str, ...], starts_stream: bool
) -> BlockCounts:
    """On a worker: two neighbouring ranges as one (the reduce)."""
    return combine([left, right], counter_for(pattern, specials), starts_stream=starts_stream)


def _tree_combine(
    client: Client, futures: list[Future[BlockCounts]], pattern: str, specials: tuple[str, ...]
) -> Future[BlockCounts]:
    """Neighbours combined pairwise on the workers, level by level, until one is left (in stream order)."""
    level = list(futures)
    while len(level) > 1:
        paired = [
            client.submit(_combine_two, level[i], level[i + 1], pattern, specials, i == 0, pure=False)
            for i in range(0, len(level) - 1, 2)
        ]
        level = paired + ([level[-1]] if len(level) % 2 else [])
    return level[0]


def _summary(part: BlockCounts) -> tuple[int, int]:
    return part.bytes, part.pretokens


def _report(
    distributed: ModuleType, sized: list[Future[tuple[int, int]]], total: int, progress: ProgressFn | None
) -> None:
    """Call ``progress`` as ranges finish (only their sizes travel, not their counts)."""
    if progress is None:
        return
    read = pretokens = 0
    for future in distributed.as_completed(sized):
        done, found = future.result()
        read += done
        pretokens += found
        progress(Progress(read, total, pretokens))
