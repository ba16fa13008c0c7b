"""Training from files: time and peak memory on a 1 GB generated corpus, ours and HF tokenizers'.

    python bench/bench_files.py [--megabytes 1000] [--vocab-size 8192] [--runs one,processes,dask,hf,rustbpe]

The corpus is written from a seed by bench/make_corpus.py into bench/out/ (4 files)
the first time.  Each run is its own process; a sampler adds up the resident
memory of that process and all its children (workers, a Dask cluster) every
50 ms, and prints the peak of that sum, the wall time and the CPU time of the
whole tree (user + system; less sensitive than wall time to a shared machine's load).  Runs:

- one:       bpe_core, train(files=...) in one process (blocks of 1 MB)
- processes: bpe_core, the same with one counting process per CPU (forkserver)
- dask:      bpe_core, counting on a local Dask cluster (needs requirements-dask.txt)
- hf:        HF tokenizers' BpeTrainer on the same files (ByteLevel, as bench_engine.py)
- rustbpe:   karpathy's rustbpe, fed the files' documents (split at <|endoftext|>)

All runs of bpe_core print a digest of their merges, which must agree.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
EOT = "<|endoftext|>"


def tree_stats(pid: int) -> tuple[int, dict[int, float]]:
    """Resident bytes of ``pid`` and every process below it, and each one's CPU seconds so far (/proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    cpu: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        p = int(entry)
        parents[p] = int(fields[1])
        rss[p] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        cpu[p] = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    total, seen, todo = 0, {}, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        seen[p] = cpu.get(p, 0.0)
        todo.extend(c for c, parent in parents.items() if parent == p)
    return total, seen


def measure(kind: str, files: list[Path], vocab_size: int) -> dict:
    """Run ``kind`` in a child process: wall time, CPU time of its whole tree, and peak tree RSS."""
    cmd = [sys.executable, __file__, "--run", kind, "--vocab-size", str(vocab_size), *map(str, files)]
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        peak = 0
        cpu_of: dict[int, float] = {}  # the last CPU time seen of each process of the tree
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            rss, cpus = tree_stats(child.pid)
            peak = max(peak, rss)
            cpu_of.update(cpus)
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            lines = err.read().strip().splitlines()
            return {"kind": kind, "error": lines[-1] if lines else "failed"}
        result = json.loads(out.read().strip().splitlines()[-1])
    # The child with the descendants it waited for, or the sum sampled over the tree (pool
    # workers and Dask processes are reaped by others), whichever saw more.
    cpu = max(usage.ru_utime + usage.ru_stime, sum(cpu_of.values()))
    return {"kind": kind, "seconds": seconds, "cpu": cpu, "peak_mb": peak / 1e6, **result}


def run(kind: str, files: list[str], vocab_size: int) -> dict:
    """One training run, in this process (the child of :func:`measure`)."""
    if kind in ("one", "processes", "dask"):
        from bpe_core import train

        workers = {"one": 1, "processes": os.cpu_count() or 1, "dask": None}[kind]
        tok = train(
            files=files,
            vocab_size=vocab_size,
            special_tokens=[EOT],
            workers=workers,
            dask="local" if kind == "dask" else None,
        )
        digest = hashlib.sha1(repr(tok.merges_bytes()).encode()).hexdigest()[:12]
        return {"merges": len(tok.merges), "digest": digest}
    if kind == "hf":
        sys.path.insert(0, str(ROOT / "bench"))
        from bench_engine import hf_train

        hf_train([Path(f) for f in files], vocab_size)
        return {"merges": vocab_size - 257}
    if kind == "rustbpe":
        import rustbpe

        def documents():
            for name in files:
                with open(name, encoding="utf-8", errors="replace") as f:
                    rest = ""
                    while block := f.read(1 << 20):
                        *docs, rest = (rest + block).split(EOT)
                        yield from docs
                    yield rest

        tok = rustbpe.Tokenizer()
        tok.train_from_iterator(documents(), vocab_size)
        return {"merges": vocab_size - 256}
    raise ValueError(f"unknown run {kind!r}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="*", help="(with --run) the files to train on")
    parser.add_argument("--run", help=argparse.SUPPRESS)
    parser.add_argument("--megabytes", type=float, default=1000)
    parser.add_argument("--vocab-size", type=int, default=8192)
    parser.add_argument("--runs", default="one,processes,dask,hf,rustbpe")
    args = parser.parse_args()
    if args.run:
        print(json.dumps(run(args.run, args.files, args.vocab_size)))
        return
    stem = ROOT / "bench" / "out" / f"gen{args.megabytes:g}MB.txt"
    files = [stem.with_name(f"{stem.stem}-{k}{stem.suffix}") for k in range(4)]
    if not all(f.exists() for f in files):
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "bench" / "make_corpus.py"),
                str(stem),
                "--megabytes",
                str(args.megabytes),
            ]
            + ["--files", "4"],
            check=True,
        )
    size = sum(f.stat().st_size for f in files)
    print(
        f"corpus: {size / 1e6:,.0f} MB in {len(files)} files; vocab {args.vocab_size}; load {os.getloadavg()}"
    )
    for kind in args.runs.split(","):
        r = measure(kind, files, args.vocab_size)
        if "error" in r:
            print(f"{kind:<10} error: {r['error']}")
            continue
        extra = f"merges {r['merges']}" + (f", digest {r['digest']}" if "digest" in r else "")
        print(
            f"{kind:<10} {r['seconds']:7.1f} s wall {r['cpu']:7.1f} s CPU   peak RSS (process tree) "
            f"{r['peak_mb']:6.0f} MB   {extra}   load {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
