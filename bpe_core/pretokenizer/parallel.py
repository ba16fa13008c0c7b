"""Counting the chunks of a long text in several processes.

The text is cut only at safe points (a lone newline, see
:func:`~bpe_core.pretokenizer.patterns.safe_cut`), so every process sees whole
chunks and the summed counts equal one count over the whole text.  Batches
are dealt out in text order and their counts added back in that order, so the
counts keep first-occurrence order.

The workers are fresh Python processes started with :mod:`subprocess`, never
forked: a process forked from a threaded program (a Streamlit server, a web
server, a notebook with background threads) inherits the locks other threads
held at that moment and the parent's signal handlers, and can hang for good.
Nor do they go through ``multiprocessing``'s ``spawn``, which runs the main
script again in every worker (a script that trains at top level, without an
``if __name__ == "__main__":`` guard, would then start workers forever).  Each
worker reads its batch (pickled) on stdin and writes its counts on stdout.
They live for one call: every worker is waited for before the call returns,
and killed if anything goes wrong (an error in a worker, Ctrl+C), so no
process outlives the call.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections import Counter
from collections.abc import Callable

from .patterns import safe_cut

PARALLEL_MIN_CHARS = 4_000_000


def split_at_newlines(text: str, parts: int) -> list[str]:
    r"""Cut ``text`` into about ``parts`` parts just after a safe newline (see
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


def batches(texts: list[str], workers: int) -> list[list[str]]:
    """``texts`` cut at safe newlines into ``workers`` batches of about equal size, in text order.

    >>> batches(["ab\\ncd\\nef\\ngh\\n", "ij"], 2)
    [['ab\\n', 'cd\\n', 'ef\\n'], ['gh\\n', 'ij']]
    """
    total = sum(len(t) for t in texts)
    target = max(1, total // (workers * 4))
    parts_made: list[str] = []
    for t in texts:
        parts_made.extend(split_at_newlines(t, max(1, len(t) // target)) if len(t) > target else [t])
    out: list[list[str]] = [[] for _ in range(workers)]
    size, b = 0, 0
    for p in parts_made:
        if size >= total * (b + 1) / workers and b < workers - 1:
            b += 1
        out[b].append(p)
        size += len(p)
    return [batch for batch in out if batch]


# A worker learns the parent's import path first (a pickled list needs no import), then imports bpe_core.
_WORKER = (
    "import pickle, sys; sys.path[:0] = pickle.load(sys.stdin.buffer); "
    "from bpe_core.pretokenizer.parallel import run_worker; run_worker()"
)


def count_parallel(split: Callable[[str], list[str]], texts: list[str], workers: int) -> Counter[str]:
    """The summed chunk counts of ``texts`` under ``split``, counted in ``workers`` processes: this one
    and ``workers - 1`` workers.

    ``split`` is sent to each worker, so it must pickle: a function defined at
    module level, or a :class:`~bpe_core.pretokenizer.PreTokenizer`'s ``split``.
    An error in a worker is raised here (a ValueError stays a ValueError).
    """
    procs: list[subprocess.Popen[bytes]] = []
    counts: Counter[str] = Counter()
    first, *rest = batches(texts, workers) or [[]]
    try:
        for batch in rest:
            proc = subprocess.Popen(
                [sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE
            )
            procs.append(proc)
            _send(proc, sys.path, (split, batch))
        # This process counts the first batch while the workers start (a worker takes
        # about 0.1 s to start Python and import bpe_core): one process fewer to wait for.
        for t in first:
            counts.update(split(t))
        for proc in procs:  # in text order, so the counts keep first-occurrence order
            counts.update(_receive(proc))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    pipe.close()
    return counts


def _send(proc: subprocess.Popen[bytes], *objects: object) -> None:
    pipe = proc.stdin
    if pipe is None:
        raise RuntimeError("a worker process was started without a pipe to its stdin")
    try:
        for obj in objects:
            pickle.dump(obj, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        pipe.close()
    except BrokenPipeError:
        raise RuntimeError(f"pre-tokenizer worker {proc.pid} stopped early; count with workers=1") from None


def _receive(proc: subprocess.Popen[bytes]) -> Counter[str]:
    pipe = proc.stdout
    if pipe is None:
        raise RuntimeError("a worker process was started without a pipe from its stdout")
    try:
        ok, result = pickle.loads(pipe.read())
    except (EOFError, pickle.UnpicklingError):
        raise RuntimeError(
            f"pre-tokenizer worker {proc.pid} stopped early (exit status {proc.wait()}); count with workers=1"
        ) from None
    if not ok:
        raise result
    if not isinstance(result, Counter):
        raise RuntimeError(f"pre-tokenizer worker {proc.pid} sent {type(result).__name__}, not counts")
    return result


def run_worker() -> None:
    """A worker's main: ``(split, texts)`` pickled on stdin, ``(ok, counts or the error)`` on stdout."""
    split, texts = pickle.load(sys.stdin.buffer)
    try:
        counts: Counter[str] = Counter()
        for t in texts:
            counts.update(split(t))
        reply: tuple[bool, object] = (True, counts)
    except Exception as exc:  # sent back to the parent, which raises it
        reply = (False, exc)
    sys.stdout.buffer.write(pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))
    sys.stdout.buffer.flush()
