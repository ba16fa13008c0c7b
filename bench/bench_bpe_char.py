"""Code-point BPE with byte fallback (issue 42): fidelity to HF tokenizers' BpeTrainer and CPU time per merge.

    python bench/bench_bpe_char.py [--corpus FILE] [--vocab-size N] [--repeat N]

1. Fidelity: on every built-in corpus, all of them together, and a few small texts, each with four option
   sets (none; min_frequency 2; max_token_length 3; limit_alphabet about half the alphabet, where counts
   do not tie, with outside="drop"), our fast trainer's merges against HF's ``BpeTrainer``
   (models.BPE(byte_fallback=True)) on the same words.  The default outside="split" differs from HF by
   design where a dropped character stands between two kept ones (HF joins its neighbours, ours writes
   it as bytes and joins nothing across it); those runs are reported apart.
2. Speed: CPU seconds per merge (``time.process_time``, all threads of this process: HF trains on
   several) for ours (textbook, fast) and HF on one text (default: every corpus together, 4 times),
   alternated over --repeat rounds in this process; min and median.  The load average is printed, since
   the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe_core.training.char_bpe import CharBpeOptions, CharBpeTrainer, words_of  # noqa: E402

SMALL = [
    "low low low lower lowest newest newest widest",
    "aaaa aaa aa a aaaaa baaab abab",
    "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5,
    "the cat\n\nthe hat\tthe  bat, the cat's hat: 机器学习 机器 学习!",
]


def hf_merges(counts: dict[str, int], vocab_size: int, **options: Any) -> list[tuple[str, str]]:
    from tokenizers import Tokenizer, models, trainers

    hf = Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - 256, special_tokens=["<unk>"], show_progress=False, **options
    )
    hf.train_from_iterator([w for w, n in counts.items() for _ in range(n)], trainer)
    return [(a, b) for a, b in json.loads(hf.to_str())["model"]["merges"]]


def untied_limit(counts: dict[str, int]) -> int | None:
    """About half the alphabet, lowered to where the kept and the dropped characters' counts differ."""
    chars: dict[str, int] = {}
    for w, n in counts.items():
        for c in w:
            chars[c] = chars.get(c, 0) + n
    ranked = sorted(chars.values(), reverse=True)
    return next((i for i in range(len(ranked) // 2, 0, -1) if ranked[i - 1] != ranked[i]), None)


def fidelity() -> None:
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "corpora").glob("*.txt"))}
    texts["all corpora"] = "\n".join(texts.values())
    texts.update({f"small {k}": t for k, t in enumerate(SMALL)})
    compared = equal = runs = equal_runs = 0
    limited: list[str] = []
    for name, text in texts.items():
        counts = words_of(text)
        alphabet = len({c for w in counts for c in w})
        limit = untied_limit(counts)
        sets: list[dict[str, Any]] = [{}, {"min_frequency": 2}, {"max_token_length": 3}]
        if limit:
            sets += [{"limit_alphabet": limit, "outside": "drop"}, {"limit_alphabet": limit}]
        for options in sets:
            size = 1 + 256 + alphabet + 300
            ours = CharBpeTrainer(counts, CharBpeOptions(vocab_size=size, **options)).run().merges
            theirs = hf_merges(counts, size, **{k: v for k, v in options.items() if k != "outside"})
            same = sum(1 for a, b in zip(ours, theirs, strict=False) if a == b)
            first_diff = next((k for k, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), None)
            if "limit_alphabet" in options and "outside" not in options:
                limited.append(
                    f"{name}: {len(ours)} merges, equal up to merge "
                    f"{first_diff if first_diff is not None else min(len(ours), len(theirs))}"
                    + (" (all equal)" if ours == theirs else "")
                )
                continue
            runs += 1
            equal_runs += ours == theirs
            compared += max(len(ours), len(theirs))
            equal += same if ours == theirs or first_diff is None else first_diff
    print(f"fidelity: {equal:,} of {compared:,} merges equal to HF's BpeTrainer in {equal_runs}/{runs} runs")
    print('limit_alphabet, outside="split" (differs by design when a dropped character is inside a word):')
    for line in limited:
        print("  " + line)


def cpu(fn: Callable[[], int]) -> tuple[float, int]:
    start = time.process_time()
    merges = fn()
    return time.process_time() - start, merges


def speed(text: str, vocab_size: int, repeat: int) -> None:
    counts = words_of(text)
    alphabet = len({c for w in counts for c in w})
    size = max(vocab_size, 1 + 256 + alphabet + 1)
    options = CharBpeOptions(vocab_size=size)

    def ours(method: str) -> Callable[[], int]:
        return lambda: len(CharBpeTrainer(counts, options, method=method).run().merges)  # type: ignore[arg-type]

    runs: dict[str, Callable[[], int]] = {
        "ours, textbook": ours("textbook"),
        "ours, fast": ours("fast"),
        "HF BpeTrainer": lambda: len(hf_merges(counts, size)),
    }
    times: dict[str, list[float]] = {k: [] for k in runs}
    merges: dict[str, int] = {}
    for _ in range(repeat):
        for name, fn in runs.items():
            seconds, n = cpu(fn)
            times[name].append(seconds / max(n, 1))
            merges[name] = n
    print(
        f"speed: {len(text):,} characters, {len(counts):,} distinct words, alphabet {alphabet}, "
        f"vocab_size {size:,}; load average {os.getloadavg()[0]:.2f}"
    )
    for name, t in times.items():
        print(
            f"  {name:15} {merges[name]:5,} merges: CPU per merge min {t and min(t) * 1e3:.3f} ms, "
            f"median {statistics.median(t) * 1e3:.3f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--corpus", type=Path, help="text for the speed figures (default: every corpus, 4 times)"
    )
    parser.add_argument("--vocab-size", type=int, default=1500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    fidelity()
    if args.corpus:
        text = args.corpus.read_text(encoding="utf-8")
    else:
        text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "corpora").glob("*.txt"))) * 4
    speed(text, args.vocab_size, args.repeat)


if __name__ == "__main__":
    main()
