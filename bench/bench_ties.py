"""Training with step records when thousands of pairs tie: the fast trainer's time per merge late in a run.

    python bench/bench_ties.py [--text-mb 1] [--merges 5000] [--pattern none] [--rev REV]

Late in a long run most pairs are counted once or twice, and some ten thousand
tie at the best count.  A step record names the first tied pairs and counts them
all (``MergeStep.ties``, ``tie_count``; ``bpe_core.training.records.ties_kept``).
This trains ``--merges`` merges of a generated ``--text-mb`` MB text with
records (as the Train page does) and without (plain training, the floor), and
prints wall and CPU seconds, the last quarter's share, and the most pairs tied
at one step.  ``--rev`` times the engine of another git revision instead (its
``bpe_core`` read with ``git archive``), for a before/after.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.support import generated_text  # noqa: E402


def engine(rev: str | None, into: str) -> Any:
    """``bpe_core`` of this tree, or of git revision ``rev`` (extracted into ``into``)."""
    if rev:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "bpe_core"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
        sys.path.insert(0, into)
    return importlib.import_module("bpe_core")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text-mb", type=float, default=1.0)
    parser.add_argument("--merges", type=int, default=5000)
    parser.add_argument("--pattern", default="none")
    parser.add_argument("--rev", default=None, help="time the engine of this git revision instead")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        bpe = engine(args.rev, tmp)
        print(f"engine: {args.rev or 'this tree'}")
        text = generated_text(int(args.text_mb * 1024 * 1024), seed=1)
        options = bpe.TrainOptions(vocab_size=256 + args.merges, pattern=args.pattern)
        for records in (True, False):
            wall, cpu = time.perf_counter(), time.process_time()
            trainer = bpe.Trainer(text, options, records=records)
            marks: list[float] = []
            most = steps = 0
            for step in trainer:
                steps += 1
                most = max(most, getattr(step, "tie_count", 0) or len(step.ties))
                if steps % max(1, args.merges // 4) == 0:
                    marks.append(time.process_time() - cpu)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            quarters = ", ".join(f"{b - a:.1f}" for a, b in zip([0.0, *marks], marks))
            what = "with records" if records else "plain (no records)"
            print(
                f"  {what}: {steps:,} merges of {args.text_mb:g} MB ({args.pattern}) in {wall:.1f} s wall, "
                f"{cpu:.1f} s CPU; CPU per quarter of the merges: {quarters}; "
                f"most pairs tied at a step: {most:,}"
            )
    print(f"load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
