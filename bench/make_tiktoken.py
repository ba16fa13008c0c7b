"""Write a large valid ``.tiktoken`` rank file from a seed (for the loader benchmarks).

    python bench/make_tiktoken.py OUT.tiktoken [--tokens 883000] [--seed 28]

The 256 single bytes come first; every later token is an earlier one and one more byte
(mostly 2 to 4 bytes), so each token can be made by a merge and the file loads
like a real one.  Real files of this size do not exist on this machine; this
one has the shape that matters to the loader: many tokens, of the usual
lengths.  The same seed writes the same bytes.
"""

from __future__ import annotations

import argparse
import base64
import random
from pathlib import Path


def tiktoken_bytes(*, tokens: int, seed: int) -> bytes:
    """The rank file's bytes: ``tokens`` lines of ``BASE64 RANK``."""
    rng = random.Random(seed)
    vocab = [bytes([b]) for b in range(256)]
    by_length: list[list[bytes]] = [[], list(vocab)]
    seen = set(vocab)
    lengths = [2] * 30 + [3] * 55 + [4] * 10 + [5] * 3 + [8] * 2  # mostly short, as such files are
    while len(vocab) < tokens:
        n = min(rng.choice(lengths), len(by_length))
        head = rng.choice(by_length[n - 1])
        token = head + bytes([rng.randrange(256)])
        if token in seen:
            continue
        seen.add(token)
        vocab.append(token)
        if n == len(by_length):
            by_length.append([])
        by_length[n].append(token)
    return b"".join(base64.b64encode(t) + b" %d\n" % i for i, t in enumerate(vocab))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--tokens", type=int, default=883_000)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    data = tiktoken_bytes(tokens=args.tokens, seed=args.seed)
    args.out.write_bytes(data)
    print(f"{args.out.name}: {args.tokens:,} tokens, {len(data) / 2**20:.1f} MB")


if __name__ == "__main__":
    main()
