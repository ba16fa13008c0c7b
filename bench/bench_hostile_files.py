"""Hostile tokenizer files: how long each takes to load or be refused (the loaders must be linear).

    python bench/bench_hostile_files.py

Writes, into a temporary folder, the files of issue #13 that once took
minutes: a vocab.json + merges.txt with 100,000 tokens no merge makes (74 s
before), a 42 KB .tiktoken whose one 30,000-byte token no merge makes (43 s
before), a vocab.json + merges.txt whose one token of 1 MB is made by 20
doubling merges, and a 10,000-special-token tokenizer.json; then loads each
with ``bpe_core.load_tokenizer`` and prints the wall and CPU time and the
first line of the message (or what loaded).  Prints figures; asserts nothing
(``tests/engine/formats/test_hostile_files.py`` holds the behaviour).
"""

from __future__ import annotations

import base64
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bpe_core  # noqa: E402
from tests.engine.formats.support import megabyte_token_files  # noqa: E402  (the test's file, the same)


def _base(folder: Path) -> tuple[dict[str, int], list[str]]:
    bpe_core.save_tokenizer(bpe_core.train("ab", vocab_size=256), folder, formats=("gpt2",))
    vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
    return vocab, ["#version: 0.2"]


def unreachable(folder: Path) -> Path:
    vocab, merges = _base(folder)
    vocab.update({f"unreachable{i}": 256 + i for i in range(100_000)})
    (folder / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (folder / "merges.txt").write_text("\n".join(merges) + "\n", encoding="utf-8")
    return folder


def tiktoken_long_token(folder: Path) -> Path:
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    lines.append(f"{base64.b64encode(bytes(range(1, 251)) * 120).decode()} 256")
    path = folder / "long.tiktoken"
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


def many_specials(folder: Path) -> Path:
    specials = [f"<|t{i}|>" for i in range(10_000)]
    tok = bpe_core.train("the cat sat " * 20, vocab_size=256 + 10_000 + 14, special_tokens=specials)
    bpe_core.save_tokenizer(tok, folder, formats=("hf-json",))
    return folder / "tokenizer.json"


CASES: list[tuple[str, Callable[[Path], Path]]] = [
    ("vocab.json + merges.txt, 100,000 unreachable tokens", unreachable),
    ("vocab.json + merges.txt, one 1 MB token from 20 merges", megabyte_token_files),
    (".tiktoken, one 30,000-byte token no merge makes", tiktoken_long_token),
    ("tokenizer.json, 10,000 special tokens", many_specials),
]


def main() -> int:
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for title, make in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            path = make(Path(tmp))
            size = sum(p.stat().st_size for p in Path(tmp).iterdir())
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                tok = bpe_core.load_tokenizer(path)
                outcome = f"loaded: vocab {tok.vocab_size:,}, {len(tok.special_tokens):,} special tokens"
            except ValueError as exc:
                message = str(exc).splitlines()[0]
                outcome = f"refused ({len(str(exc)):,} characters): {message[:150]}"
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{title} ({size / 1e6:.2f} MB): {wall:.2f} s wall, {cpu:.2f} s CPU; {outcome}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
