"""Counting the chunks of a long text in several processes.

The text is cut only at safe points (a lone newline, see
:func:`~bpe_core.pretokenizer.patterns.safe_cut`), so every process sees whole
chunks and the summed counts equal one count over the whole text.  Batches
are dealt out in text order, so the counts keep first-occurrence order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .patterns import safe_cut

PARALLEL_MIN_CHARS = 4_000_000


def split_at_newlines(text: str, parts: int) -> list[str]:
    r"""Cut ``text`` into about ``parts`` pieces just after a safe newline (see
    :func:`safe_cut`).

    >>> split_at_newlines("ab\r\ncd\nef", 2)
    ['ab\r\ncd\n', 'ef']
    """
    out, start, n = [], 0, len(text)
    for k in range(1, parts):
        target = max(start, n * k // parts)
        cut = -1
        pos = target
        while True:
            pos = text.find("\n", pos)
            if pos < 0 or pos + 1 >= n:
                break
            if safe_cut(text, pos):
                cut = pos + 1
                break
            pos += 1
        if cut < 0:
            break
        out.append(text[start:cut])
        start = cut
    out.append(text[start:])
    return out


_WORKER_SPLIT: Callable[[str], list[str]] | None = None


def _count_batch(texts: list[str]) -> Counter[str]:
    """Count the chunks of ``texts`` with the split function the parent set before forking."""
    split = _WORKER_SPLIT
    if split is None:
        raise RuntimeError("_count_batch runs only in a worker forked by count_parallel")
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(split(t))
    return counts


def count_parallel(split: Callable[[str], list[str]], texts: list[str], workers: int) -> Counter[str]:
    """The summed chunk counts of ``texts`` under ``split``, counted in ``workers`` processes."""
    import multiprocessing

    global _WORKER_SPLIT
    # Balance by size: cut long texts at safe newlines, then deal them out in order
    # so that concatenating the batches keeps the text order (first-seen order).
    total = sum(len(t) for t in texts)
    target = max(1, total // (workers * 4))
    pieces: list[str] = []
    for t in texts:
        pieces.extend(split_at_newlines(t, max(1, len(t) // target)) if len(t) > target else [t])
    batches: list[list[str]] = [[] for _ in range(workers)]
    size, b = 0, 0
    for p in pieces:
        if size >= total * (b + 1) / workers and b < workers - 1:
            b += 1
        batches[b].append(p)
        size += len(p)
    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform: count here
        return Counter(chunk for batch in batches for t in batch for chunk in split(t))
    _WORKER_SPLIT = split
    try:
        with ctx.Pool(workers) as pool:
            results = pool.map(_count_batch, batches)
    finally:
        _WORKER_SPLIT = None
    counts: Counter[str] = Counter()
    for r in results:
        counts.update(r)
    return counts
