"""Loaders and trainers on 10 MB inputs: a .tiktoken file through the app's loader, a plain text.

    python bench/bench_loaders.py [--tokens 800000] [--text-mb 10] [--merges 2000]

- the app's loader: a generated ``.tiktoken`` file of ``--tokens`` tokens
  (``bench/make_tiktoken.py``) loaded as the Tokenize page does (in a worker
  process of :mod:`mergescope_ui.shared.workers.jobs`, packed, unpacked here) and a
  sentence encoded; then the engine alone (``read_tiktoken_text`` and
  ``tokenizer_from``, as ``load_tokenizer`` builds it) in this process;
- training: one plain ``--text-mb`` MB text with pattern ``none`` to
  ``--merges`` merges (``bpe_core.Trainer``);
- the lab's size list ``257..32768`` written out (32,512 sizes).

Prints wall and CPU seconds and the machine's load; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bpe_core  # noqa: E402
from bpe_core.formats.load import tokenizer_from  # noqa: E402
from bpe_core.formats.tiktoken import read_tiktoken_text  # noqa: E402
from mergescope_ui.lab.compute import MAX_VOCAB, parse_sizes  # noqa: E402
from mergescope_ui.shared.inputs.tokenizer_files import load_packed, unpack  # noqa: E402
from mergescope_ui.shared.workers.jobs import Runner  # noqa: E402
from tests.browser.support import generated_text  # noqa: E402
from tests.engine.formats.support import rank_file  # noqa: E402


class Timer:
    def __enter__(self) -> Timer:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu

    def __str__(self) -> str:
        return f"{self.wall:.1f} s wall, {self.cpu:.1f} s CPU here"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=800_000)
    parser.add_argument("--text-mb", type=float, default=10.0)
    parser.add_argument("--merges", type=int, default=2000)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    data = rank_file(args.tokens, seed=28)
    print(f".tiktoken: {args.tokens:,} tokens, {len(data):,} bytes")
    runner = Runner(slots=1)
    runner.wait(runner.submit(load_packed, [("warm.tiktoken", rank_file(300, seed=1))], owner="b"))
    with Timer() as app:
        with Timer() as worker:
            job = runner.submit(load_packed, [("big.tiktoken", data)], owner="bench")
            status = runner.wait(job, timeout=600)
        if not status.ok:
            print(f"  the job ended: {status.message}")
            return 1
        with Timer() as here:  # the server's part: the worker's checked tokenizer, trusted
            tok = unpack(status.value)
            ids = tok.encode("The lighthouse keeper climbed the stairs, lit the lamp. " * 20)
    runner.shutdown()
    print(f"  the app's loader (worker, pack, unpack) and an encode: {app} ({len(ids)} ids)")
    print(f"    of which the worker's job (read, check, pack, send): {worker}")
    print(f"    and the server's unpack and encode: {here}")
    with Timer() as read:
        parsed = read_tiktoken_text(data, "big.tiktoken")
    with Timer() as build:
        tokenizer_from(parsed, pattern="gpt2")
    print(f"  the engine alone: read_tiktoken_text {read}; tokenizer_from {build}")
    text = generated_text(int(args.text_mb * 1024 * 1024), seed=1)
    options = bpe_core.TrainOptions(vocab_size=256 + args.merges, pattern="none")
    with Timer() as trained:
        trainer = bpe_core.Trainer(text, options)
        steps = sum(1 for _ in trainer)
    print(f"train {args.text_mb:g} MB, pattern none, {steps:,} merges: {trained}")
    sizes = ", ".join(map(str, range(257, MAX_VOCAB + 1)))
    with Timer() as parsed_sizes:
        n = len(parse_sizes(sizes, most=len(sizes)))
    print(f"the lab's size list 257..{MAX_VOCAB} written out ({n:,} sizes): {parsed_sizes}")
    print(f"load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
