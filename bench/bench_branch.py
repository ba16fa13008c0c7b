"""What-if benchmark: the time to start a branch at step 500 and 5,000 of a ~1 MB corpus, against training
that far from scratch.

    python bench/bench_branch.py [--corpus FILE] [--steps 500 5000] [--patterns gpt2 none] [--repeat 3]

The real run is trained with step records (as on the Train page) to the last step asked for.  Then, for
each step k: "branch" is ``real.branch(k, block=[pair of step k])`` plus its first step (the rewind, the
new pair index, one choice); "from scratch" is a new Trainer with the same block, pre-tokenizing the text
and pulling k steps.  Both give the same step k (checked).  Prints the best of --repeat runs; asserts
nothing.  Target (issue 14): a branch at step 500 starts in well under a second.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_training_page import corpus_path  # noqa: E402  (builds bench/out/corpus_1mb.txt once)

import bpe_core  # noqa: E402
from mergescope_ui.shared.settings import PREVIEW_CHARS  # noqa: E402


def best(times: list[tuple[float, float]]) -> str:
    """The best wall-clock time and the best CPU time of this process (less moved by other load)."""
    return f"{min(w for w, _ in times) * 1000:6.0f} ms (cpu {min(c for _, c in times) * 1000:5.0f} ms)"


def clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def since(start: tuple[float, float]) -> tuple[float, float]:
    wall, cpu = clock()
    return wall - start[0], cpu - start[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus")
    parser.add_argument("--steps", type=int, nargs="+", default=[500, 5000])
    parser.add_argument("--patterns", nargs="+", default=["gpt2", "none"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    path = corpus_path(args.corpus)
    text = path.read_text(encoding="utf-8")
    print(f"corpus: {path} ({len(text.encode()) / 1e6:.2f} MB); load average {os.getloadavg()[0]:.2f}")
    for pattern in args.patterns:
        options = bpe_core.TrainOptions(
            vocab_size=256 + max(args.steps) + 1, pattern=pattern, preview_chars=PREVIEW_CHARS
        )
        t0 = time.perf_counter()
        real = bpe_core.Trainer(text, options)
        steps = list(real)
        seconds = time.perf_counter() - t0
        print(f"\npattern {pattern}: the real run, {len(steps)} steps with records: {seconds:.1f} s")
        for k in args.steps:
            if k > len(steps):
                print(f"  step {k}: training stopped after {len(steps)} steps")
                continue
            block = [steps[k - 1].pair]
            branch_times, scratch_times = [], []
            for _ in range(args.repeat):
                t0 = clock()
                branched = next(real.branch(k, block=block))
                branch_times.append(since(t0))
                t0 = clock()
                scratch = bpe_core.Trainer(text, options.replace(block=tuple(block)))
                for _ in range(k):
                    first = next(scratch)
                scratch_times.append(since(t0))
            same = (branched.pair, branched.count, branched.top_pairs) == (
                first.pair,
                first.count,
                first.top_pairs,
            )
            ratio = min(scratch_times)[0] / min(branch_times)[0]
            print(
                f"  step {k:>5}: branch {best(branch_times)}   from scratch {best(scratch_times)}   "
                f"{ratio:4.1f}x faster; same step: {same}"
            )


if __name__ == "__main__":
    main()
