"""Write a large valid ``.tiktoken`` rank file from a seed (for the loader benchmarks).

    python bench/make_tiktoken.py OUT.tiktoken [--tokens 800000] [--seed 28]

The 256 single bytes come first; every later token is an earlier one and one more byte
(mostly 2 to 4 bytes), so each token can be made by a merge and the file loads
like a real one.  Real files of this size do not exist on this machine; this
one has the shape that matters to the loader: many tokens, of the usual
lengths.  The same seed writes the same bytes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.engine.formats.support import rank_file  # noqa: E402  (the tests' generator, the same)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--tokens", type=int, default=800_000)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    data = rank_file(args.tokens, seed=args.seed)
    args.out.write_bytes(data)
    print(f"{args.out.name}: {args.tokens:,} tokens, {len(data) / 2**20:.1f} MB")


if __name__ == "__main__":
    main()
