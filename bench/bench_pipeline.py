"""Encoding through the pipeline against the reference libraries: HF ``tokenizers`` for tokenizer.json
files, ``sentencepiece`` for BPE ``.model`` files, on the fidelity tests' strings.

    python bench/bench_pipeline.py [--rounds 5] [--only llama2 t5 ...]

Each tokenizer is built as the tests build it (tests/engine/pipeline/support.py: the real libraries,
trained on the repo's corpora), saved, and loaded by ``load_tokenizer``.  Then, alternating in one
process for --rounds rounds: our ``encode`` of every string, the reference's (HF's ``encode`` one string
at a time, ``add_special_tokens=False``; sentencepiece's ``encode``).  Prints, per tokenizer, the min and
median wall time and the min CPU time of a round, the ratio of the medians, how many strings gave equal
ids, and the load average.  Asserts nothing; finishes in well under a minute.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe_core.formats import load_tokenizer  # noqa: E402
from tests.engine.pipeline.support import BUILDERS, sentencepiece_model, strings  # noqa: E402


def rounds(encode: Callable[[str], list[int]], texts: list[str], n: int) -> list[tuple[float, float]]:
    out = []
    for _ in range(n):
        wall, cpu = time.perf_counter(), time.process_time()
        for s in texts:
            encode(s)
        out.append((time.perf_counter() - wall, time.process_time() - cpu))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    texts = strings()
    chars = sum(map(len, texts))
    print(f"{len(texts)} strings, {chars:,} characters; load average {os.getloadavg()[0]:.2f} at the start")
    print(f"{'tokenizer':24} {'ours min/median':>18} {'cpu':>8} {'reference min/median':>22} {'cpu':>8} "
          f"{'ratio':>6} {'equal ids':>10}")  # fmt: skip
    import sentencepiece as spm

    cases: list[tuple[str, Callable[[str], list[int]], Callable[[str], list[int]]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, build in BUILDERS.items():
            if args.only and name not in args.only:
                continue
            hf = build()
            path = Path(tmp) / f"{name}.json"
            hf.save(str(path))
            ours = load_tokenizer(path, any_scheme=True)
            cases.append((name, ours.encode, lambda s, hf=hf: hf.encode(s, add_special_tokens=False).ids))
        if not args.only or "sentencepiece-bpe" in args.only:
            data, _ = sentencepiece_model("bpe", vocab_size=800, byte_fallback=True)
            path = Path(tmp) / "sp.model"
            path.write_bytes(data)
            sp = spm.SentencePieceProcessor(model_file=str(path))
            cases.append(("sentencepiece-bpe", load_tokenizer(path, any_scheme=True).encode, sp.encode))
        for name, ours, reference in cases:
            equal = sum(ours(s) == reference(s) for s in texts)
            mine: list[tuple[float, float]] = []
            theirs: list[tuple[float, float]] = []
            for _ in range(args.rounds):  # alternate, so both see the same load
                mine += rounds(ours, texts, 1)
                theirs += rounds(reference, texts, 1)
            m_med = statistics.median(w for w, _ in mine)
            t_med = statistics.median(w for w, _ in theirs)
            print(
                f"{name:24} {min(w for w, _ in mine) * 1000:8.1f}/{m_med * 1000:7.1f} ms "
                f"{min(c for _, c in mine) * 1000:6.1f}ms {min(w for w, _ in theirs) * 1000:10.1f}/"
                f"{t_med * 1000:7.1f} ms {min(c for _, c in theirs) * 1000:6.1f}ms {m_med / t_med:6.1f} "
                f"{equal:>5}/{len(texts)}"
            )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
