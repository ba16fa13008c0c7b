"""A tokenizer's health (:func:`bpe_core.analysis.check_health`) on GPT-2-, cl100k- and o200k-sized tables.

    python bench/bench_vocab_health.py [--sizes 50257,100256,200000] [--real PATH.tiktoken] [--text-kb 200]

Each size is a generated ``.tiktoken`` table (``bench/make_tiktoken.py``'s generator, seed 28) loaded as
``load_tokenizer`` builds it; ``--real`` adds a real rank file (such as cl100k_base's, with the cl100k
pattern).  The reference text is ``--text-kb`` KB of generated text.  Prints wall and CPU seconds for
the load and for ``health``, each finding's count and the machine's load; asserts nothing.  (Not
``bench_health.py``: that one probes the server's health endpoint.)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe_core.analysis.health import check_health  # noqa: E402
from bpe_core.formats.load import tokenizer_from  # noqa: E402
from bpe_core.formats.tiktoken import read_tiktoken_text  # noqa: E402
from bpe_core.tokenizer import Tokenizer  # noqa: E402
from tests.browser.support import generated_text  # noqa: E402
from tests.engine.formats.support import rank_file  # noqa: E402


def measure(name: str, data: bytes, pattern: str, text: str) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    tok: Tokenizer = tokenizer_from(read_tiktoken_text(data, name), pattern=pattern)
    load = time.perf_counter() - wall
    wall, cpu = time.perf_counter(), time.process_time()
    report = check_health(tok, text=text)
    took, cpu_took = time.perf_counter() - wall, time.process_time() - cpu
    counts = ", ".join(f"{kind} {len(ids):,}" for kind, ids in report.ids().items())
    print(
        f"{name}: {tok.vocab_size:,} tokens, loaded in {load:.2f} s; health {took:.2f} s wall, "
        f"{cpu_took:.2f} s CPU ({counts})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50257,100256,200000")
    parser.add_argument("--real", type=Path, default=None, help="a real .tiktoken rank file (cl100k pattern)")
    parser.add_argument("--text-kb", type=int, default=200)
    args = parser.parse_args()
    text = generated_text(args.text_kb * 1024)
    print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; reference text {len(text):,} chars"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        measure(f"generated-{size}", rank_file(size, seed=28), "gpt2", text)
    if args.real is not None:
        measure(args.real.name, args.real.read_bytes(), "cl100k", text)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
