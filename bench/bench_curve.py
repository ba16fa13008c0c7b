"""Benchmark (not a test): the whole compression curve vs a plain training run.

    python3 ../shared/tools/make_bench_corpus.py bench/out/bench10.txt   # once, 10 MB (git-ignored)
    python bench/bench_curve.py bench/out/bench10.txt --vocab-size 8192

Prints the time of ``bpe_core.train`` and of ``compression_curve`` (the same
training plus the token count after every merge, per script, on the training
text and on a 10% held-out split) in the same process, and their ratio
(target: at most 1.5x).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bpe_core
from bpe_core.analysis import compression_curve
from bpe_core.analysis.data_split import split_fraction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--vocab-size", type=int, default=8192)
    parser.add_argument("--pattern", default="gpt2")
    args = parser.parse_args()
    text = args.corpus.read_text(encoding="utf-8")
    print(
        f"corpus {args.corpus}: {len(text.encode()):,} bytes, vocab size {args.vocab_size}, pattern "
        f"{args.pattern}"
    )

    t0 = time.perf_counter()
    tok = bpe_core.train(text, vocab_size=args.vocab_size, pattern=args.pattern)
    t_train = time.perf_counter() - t0
    print(f"plain bpe_core.train:                      {t_train:7.2f} s  ({len(tok.merges):,} merges)")

    t0 = time.perf_counter()
    options = bpe_core.TrainOptions(vocab_size=args.vocab_size, pattern=args.pattern)
    run = compression_curve(text, options, by_script=True)
    t_curve = time.perf_counter() - t0
    print(
        f"compression_curve (train text, by script): {t_curve:7.2f} s  ratio {t_curve / t_train:.2f}x "
        f"(bytes/token {run.train.bytes_per_token(0):.2f} -> {run.train.bytes_per_token(run.merges):.2f})"
    )

    split = split_fraction(text, heldout_fraction=0.1)
    t0 = time.perf_counter()
    run = compression_curve(
        split.train,
        options,
        by_script=True,
        heldout={"held-out": split.heldout},
    )
    t_split = time.perf_counter() - t0
    held = run.heldout[0]
    print(
        f"  + 10% held-out curve (trained on 90%):   {t_split:7.2f} s  ratio {t_split / t_train:.2f}x "
        f"(held-out bytes/token at {run.merges:,} merges: {held.bytes_per_token(run.merges):.2f})"
    )


if __name__ == "__main__":
    main()
