"""Offline lesson file benchmark (issue #44): the file's size and the time to make it, at 30, 300 and 2,000
steps of a built-in corpus.

    python bench/bench_lesson.py [--corpus lighthouse_story] [--steps 30 300 2000] [--repeat 2]

Each row is :func:`mergescope_ui.train.lesson_file.lesson_html` for steps 0..K of BPE on the corpus with
the pattern ``none`` (the whole text is one chunk, so 2,000 merges exist in a 4 kB story), as the Train
page's download button and ``python -m mergescope_ui.lesson`` make it: training, every step's view, the
page.  Then WordPiece and Unigram at the smallest K on the same text.  Prints the best of --repeat runs
(wall and CPU seconds of this process) and the load average; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe_core import TrainOptions  # noqa: E402
from mergescope_ui.shared.inputs.corpora import find_corpus, load_text  # noqa: E402
from mergescope_ui.train.lesson_file import MAX_LESSON_BYTES, LessonRequest, lesson_html  # noqa: E402
from mergescope_ui.train.scheme_run import SchemeSettings  # noqa: E402


def measure(request: LessonRequest, repeat: int) -> tuple[int, float, float]:
    """The file's size in bytes, and the best wall and CPU seconds to make it."""
    walls, cpus, size = [], [], 0
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        size = len(lesson_html(request).encode("utf-8"))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return size, min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", default="lighthouse_story")
    parser.add_argument("--steps", type=int, nargs="+", default=[30, 300, 2000])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    text = load_text(find_corpus(args.corpus))
    print(f"corpus: {args.corpus} ({len(text):,} characters); load average {os.getloadavg()[0]:.2f}")
    print(f"cap: {MAX_LESSON_BYTES / 2**20:.0f} MB a file")
    print(f"{'scheme':<10} {'steps':>6} {'size':>9} {'per step':>9} {'wall':>8} {'cpu':>8}")
    rows: list[tuple[str, int, LessonRequest]] = [
        (
            "bpe",
            k,
            LessonRequest(
                text=text,
                name=args.corpus,
                scheme="bpe",
                settings=TrainOptions(vocab_size=256 + k, pattern="none"),
                last=k,
            ),
        )
        for k in args.steps
    ]
    small = min(args.steps)
    for settings in (
        SchemeSettings(scheme="wordpiece", steps=small),
        SchemeSettings(scheme="unigram", vocab_size=100),
    ):
        request = LessonRequest(
            text=text, name=args.corpus, scheme=settings.scheme, settings=settings, last=small
        )
        rows.append((settings.scheme, small, request))
    for scheme, k, request in rows:
        try:
            size, wall, cpu = measure(request, args.repeat)
        except ValueError as exc:
            print(f"{scheme:<10} {k:>6,} refused: {exc}")
            continue
        per_step = size / (k + 1) / 1024
        print(f"{scheme:<10} {k:>6,} {size / 2**20:>7.2f} MB {per_step:>6.1f} kB {wall:>7.2f}s {cpu:>7.2f}s")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
