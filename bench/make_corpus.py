"""Write a large generated corpus from a seed: varied words with Zipf frequencies, not one repeated line.

    python bench/make_corpus.py OUT.txt --megabytes 1000 [--seed 16] [--files 4]

Words are made of syllables (about 150,000 distinct ones, capitalized at
sentence starts), with numbers, punctuation, paragraphs, a little German,
Chinese and emoji, and ``<|endoftext|>`` between documents.  The same seed
writes the same bytes.  With ``--files N`` the text is split into N files
OUT-0.txt ... (cut anywhere, as training on several files must allow).
"""

from __future__ import annotations

import argparse
import itertools
import random
from pathlib import Path

_SYLLABLE_TEXT = (
    "ka lo mi ne ta ri so vu an el in or us th st ch sh re de con pro ment ing er ly ous able tion "
    "al be com dis ex im per pre sub un ver ward zo qui fa ge hi ja ku ma no pe ro sa te wi ya"
)
SYLLABLES = _SYLLABLE_TEXT.split()
EXTRA = ["Größe", "Straße", "über", "自然", "语言", "处理", "机器", "学习", "😀", "🎉", "naïve", "café"]
DOCUMENT_WORDS = 400  # words per document, on average


def vocabulary(rng: random.Random, size: int) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choices(SYLLABLES, k=rng.choice((1, 2, 2, 3, 3, 4)))))
    return sorted(words)


def pieces(rng: random.Random, words: list[str]) -> tuple[list[str], list[float]]:
    """Everything the text is drawn from, each with its own leading space, and Zipf weights."""
    rng.shuffle(words)
    pool = [" " + w for w in words] + [" " + w.capitalize() for w in words[:20_000]]
    weights = [1 / (rank + 10) for rank in range(len(words))] + [0.3 / (r + 10) for r in range(20_000)]
    extra = [
        (",", 0.6), (".", 0.5), (".\n", 0.25), (".\n\n", 0.1), ("?", 0.05), ("!", 0.03), (":", 0.03),
        (" (", 0.02), (")", 0.02), (" -", 0.02), ("'s", 0.05), (" the", 1.5), (" and", 0.8),
        ("\n", 0.1), ("  ", 0.02), ("\t", 0.005),
    ]  # fmt: skip
    total = sum(weights)
    for piece, share in extra:
        pool.append(piece)
        weights.append(share * total / 20)
    for word in EXTRA:
        pool.append(" " + word)
        weights.append(total / 20_000)
    for n in range(0, 3000, 7):  # numbers
        pool.append(f" {n}")
        weights.append(total / 200_000)
    return pool, weights


def generate(seed: int, megabytes: float):
    """The corpus as pieces of about a megabyte of text, each a run of whole documents."""
    rng = random.Random(seed)
    pool, weights = pieces(rng, vocabulary(rng, 150_000))
    cum = list(itertools.accumulate(weights))
    limit = int(megabytes * 1_000_000)
    written = 0
    while written < limit:
        drawn = rng.choices(pool, cum_weights=cum, k=200_000)
        docs = []
        for start in range(0, len(drawn), DOCUMENT_WORDS):
            docs.append("".join(drawn[start : start + DOCUMENT_WORDS]).lstrip() + "\n")
        text = "<|endoftext|>".join(docs) + "<|endoftext|>"
        data = text.encode("utf-8")[: limit - written]
        written += len(data)
        yield data


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--megabytes", type=float, default=1000)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--files", type=int, default=1)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    per_file = int(args.megabytes * 1_000_000) // args.files + 1
    names = (
        [args.out]
        if args.files == 1
        else [args.out.with_name(f"{args.out.stem}-{k}{args.out.suffix}") for k in range(args.files)]
    )
    outs = [open(name, "wb") for name in names]  # noqa: SIM115 (closed below)
    k = written = 0
    try:
        for data in generate(args.seed, args.megabytes):
            while data:  # cut into files anywhere, even inside a character
                room = per_file - (written - k * per_file)
                outs[k].write(data[:room])
                written += len(data[:room])
                data = data[room:]
                if data:
                    k += 1
    finally:
        for f in outs:
            f.close()
    print(f"wrote {written:,} bytes to {', '.join(map(str, names))}")


if __name__ == "__main__":
    main()
