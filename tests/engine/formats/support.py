"""Shared by the file-format, CLI and interop tests: a small multilingual corpus and tokenizers."""

from __future__ import annotations

import base64
import json
import random
from functools import cache
from pathlib import Path

from bpe_core import Tokenizer, save_tokenizer, train

EOT = "<|endoftext|>"

CORPUS = (
    (
        "The quick brown fox jumps over the lazy dog. It's 2024, and we'll see 12345 dogs!\n"
        "Der schnelle braune Fuchs springt über den faulen Hund. Größe, Straße, naïve café.\r\n"
        "自然语言处理是人工智能的一个分支。我们喜欢机器学习。\n"
        "Emoji: 🤷🏽‍♀️ 👩‍👩‍👧 🎉🎉 and tabs\tand  double  spaces   here.\n"
        "Привет, мир! Καλημέρα κόσμε. مرحبا بالعالم\n"
        "Numbers: 2024, 20242024, 123123123, 12345, 2024-12-31 12:31 and 123 2024.\n"
    )
    * 20
    + EOT
    + " after the special token. "
    + EOT
)

# Everything the issue asks interop to survive: emoji (ZWJ), CJK, CRLF, the special token.
SAMPLE = (
    "Hello wörld! 自然语言处理 🤷🏽‍♀️ naïve café\r\nline two\ttab  "
    + EOT
    + " 2024 12345 20242024 1231231234 it's DON'T \n\n  end  Привет 霰龘 。"
)

PATTERN_NAMES = ("gpt2", "gpt4", "o200k", "none", "whitespace")
INTEROP_TEXTS = [  # what the interop tests encode with ours and with the reference library
    SAMPLE,
    CORPUS[:3000],
    "",
    " ",
    "\r\n\r\n",
    EOT + EOT,
    "a" * 300,
    "🤷🏽‍♀️👩‍👩‍👧",
    "it's 1234567 ok  \n",
]


@cache
def trained(pattern: str = "gpt2", vocab_size: int = 420, tie_break: str = "lexicographic") -> Tokenizer:
    """A tokenizer trained on :data:`CORPUS` with ``<|endoftext|>`` as special token (cached)."""
    return train(CORPUS, vocab_size=vocab_size, pattern=pattern, special_tokens=[EOT], tie_break=tie_break)


def megabyte_token_files(folder: Path) -> Path:
    """``folder`` with a vocab.json + merges.txt whose last token is 2**20 a's, made by 20 doubling merges
    (a hostile-looking file that must load: shared by the test and ``bench/bench_hostile_files.py``)."""
    save_tokenizer(train("ab", vocab_size=256), folder, formats=("gpt2",))
    vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
    merges = ["#version: 0.2"]
    for k in range(20):
        part = "a" * 2**k
        merges.append(f"{part} {part}")
        vocab[part * 2] = 256 + k
    (folder / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (folder / "merges.txt").write_text("\n".join(merges) + "\n", encoding="utf-8")
    return folder


def rank_file(tokens: int, *, seed: int) -> bytes:
    """A valid ``.tiktoken`` file of ``tokens`` lines: the 256 bytes, then each token an earlier one and
    one more byte, of lengths drawn from one fixed mix (mostly 2 to 4 bytes), so that a larger file has
    tokens as long as a smaller one.  The same seed gives the same bytes."""
    rng = random.Random(seed)
    vocab = [bytes([b]) for b in range(256)]
    by_length: list[list[bytes]] = [[], list(vocab)]
    seen = set(vocab)
    lengths = [2] * 30 + [3] * 62 + [4] * 5 + [5] * 2 + [8] * 1  # mostly short, as such files are
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
