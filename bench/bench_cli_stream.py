"""The CLI both ways on one generated text: ``encode --input`` and ``decode``, time and peak memory.

    python bench/bench_cli_stream.py [--text-mb 20] [--vocab-size 1000] [--timeout 600] [--code DIR]

A text of about ``--text-mb`` MB (made-up words, some accents, CJK and emoji, from a fixed seed) is
written to a temporary directory, a tokenizer of ``--vocab-size`` is trained on its first 1 MB, then
``python -m bpe_core encode --input TEXT > ids.json`` and ``python -m bpe_core decode < ids.json`` run
as child processes, one at a time (and ``--help``, for what importing ``bpe_core`` costs).  Each row:
wall seconds, CPU seconds and the child's peak RSS (``ru_maxrss``, taken by a small launcher process); a
child past ``--timeout`` is killed and its row says so, so the bench ends in bounded time.
``--code DIR`` runs another checkout's ``bpe_core`` (e.g. the code before a change:
``git archive HEAD~1 bpe_core | tar -x -C DIR``).  Asserts nothing; says whether the round trip gave the
text back.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = [
    "the",
    "keeper",
    "lamp",
    "light",
    "sea",
    "stone",
    "wind",
    "night",
    "ship",
    "harbour",
    "café",
    "naïve",
]
EXTRA = ["灯塔", "自然语言", "🌊", "🤷🏽‍♀️", "Привет", "ça", "—"]


def make_text(megabytes: float, seed: int = 45) -> bytes:
    """About ``megabytes`` MB of UTF-8 lines: Zipf-ish words, numbers, punctuation, some non-ASCII."""
    rng = random.Random(seed)
    vocab = WORDS + [
        "".join(rng.choice("bcdfghklmnprstvwz") + rng.choice("aeiou") for _ in range(rng.randint(1, 4)))
        for _ in range(3000)
    ]
    weights = [1 / (rank + 1) for rank in range(len(vocab))]
    lines, size, want = [], 0, int(megabytes * 1_000_000)
    while size < want:
        words = rng.choices(vocab, weights, k=rng.randint(4, 16))
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), rng.choice(EXTRA))
        if rng.random() < 0.2:
            words.append(str(rng.randint(0, 99999)))
        line = (" ".join(words) + rng.choice([".", ",", "!", "?", ";"]) + "\n").encode()
        lines.append(line)
        size += len(line)
    return b"".join(lines)


# The child's parent: Linux counts the RSS of the process that spawns a child in the child's ru_maxrss,
# so the bench (which holds the text) spawns each through this small one, which reports the child's.
LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:])
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status), file=sys.stderr)
"""


def run(argv: list[str], *, stdin: Path | None, stdout: Path, code: Path, timeout: float) -> str:
    """One child ``python -m bpe_core ARGV``: its wall and CPU seconds and peak RSS, as a row's figures."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    command = [sys.executable, "-c", LAUNCHER, sys.executable, "-m", "bpe_core", *argv]
    with open(stdin or os.devnull, "rb") as fin, open(stdout, "wb") as fout:
        start = time.perf_counter()
        launcher = subprocess.Popen(
            command, stdin=fin, stdout=fout, stderr=subprocess.PIPE, env=env, cwd=code, start_new_session=True
        )
        try:
            _, err = launcher.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(launcher.pid, signal.SIGKILL)
            launcher.communicate()
            return f"killed after {timeout:g} s"
        wall = time.perf_counter() - start
    *said, figures = err.decode(errors="replace").strip().splitlines()
    peak_kb, cpu, status = figures.split()
    failed = f", exit {status}: {said[-1] if said else ''}" if status != "0" else ""
    return f"{wall:6.1f} s wall, {float(cpu):6.1f} s CPU, peak RSS {int(peak_kb) / 1024:7,.1f} MB{failed}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text-mb", type=float, default=20.0)
    parser.add_argument("--vocab-size", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per child before it is killed")
    parser.add_argument("--code", type=Path, default=ROOT, help="the directory whose bpe_core runs")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; code: {args.code}")
    with tempfile.TemporaryDirectory(prefix="bench_cli_") as tmp:
        d = Path(tmp)
        text = make_text(args.text_mb)
        (d / "text.txt").write_bytes(text)
        (d / "sample.txt").write_bytes(text[: text.index(b"\n", 1_000_000) + 1])
        print(f"text: {len(text):,} bytes")
        train = [
            "train",
            str(d / "sample.txt"),
            "--vocab-size",
            str(args.vocab_size),
            "--out",
            str(d / "tok"),
        ]
        row = run([*train, "--quiet"], stdin=None, stdout=d / "x", code=args.code, timeout=args.timeout)
        print(f"train (1 MB):   {row}")
        row = run(["--help"], stdin=None, stdout=d / "x", code=args.code, timeout=args.timeout)
        print(f"--help:         {row}")
        tok = ["--tokenizer", str(d / "tok")]
        row = run(
            ["encode", *tok, "--input", str(d / "text.txt")],
            stdin=None,
            stdout=d / "ids.json",
            code=args.code,
            timeout=args.timeout,
        )
        ids = (d / "ids.json").read_bytes()
        print(f"encode --input: {row}  ({ids.count(b',') + 1:,} ids, {len(ids):,} bytes of JSON)")
        del ids
        row = run(
            ["decode", *tok],
            stdin=d / "ids.json",
            stdout=d / "back.txt",
            code=args.code,
            timeout=args.timeout,
        )
        print(f"decode:         {row}")
        same = (d / "back.txt").read_bytes() == text
        print(f"round trip: {'the text back, byte for byte' if same else 'NOT the text'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
