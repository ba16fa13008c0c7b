"""WordPiece and Unigram training: ours (pure Python) against HF `tokenizers` and SentencePiece.

    python bench/bench_schemes.py                      # bench/out/bench1.txt and bench10.txt, vocab 8000
    python bench/bench_schemes.py TEXT... [--vocab 8000] [--skip-unigram] [--skip-ours-on-10mb]

The texts are built once (git-ignored) if missing:

    python ../shared/tools/make_bench_corpus.py bench/out/bench1.txt 1
    python ../shared/tools/make_bench_corpus.py bench/out/bench10.txt 10

WordPiece rows: MergeScope's trainer (the score count(ab)/(count(a)count(b)), fast version, no step
records; with ``min_frequency`` 1, as in HF's course, and 10) and HF's ``WordPieceTrainer`` (which
trains BPE, by count), both after BERT's pre-tokenizer with no normalizer and the same vocabulary
size and special tokens; then each encodes the text with its own vocabulary.  Compression is the
text's UTF-8 bytes over its tokens, measured line by line on the non-empty lines (as
``bench_unigram.py`` does, so the rows compare).  Unigram rows come from
``bench/bench_unigram.py`` (ours, HF's ``UnigramTrainer``, SentencePiece).  Times are wall-clock
and CPU seconds (all threads: HF's trainers use several) on a shared machine, with its load average.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_unigram import _row as unigram_row  # noqa: E402 (one row layout for both benchmarks)
from bench_unigram import print_rows  # noqa: E402

from bpe_core.tokenizer.wordpiece import BERT_SPECIAL_TOKENS  # noqa: E402
from bpe_core.training.wordpiece import train_wordpiece  # noqa: E402

MAKER = ROOT.parent / "shared" / "tools" / "make_bench_corpus.py"
DEFAULT_TEXTS = {ROOT / "bench" / "out" / "bench1.txt": 1, ROOT / "bench" / "out" / "bench10.txt": 10}


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def _row(name: str, seconds: float, cpu: float, vocab: int, lines: list[str], encode) -> dict[str, object]:
    """bench_unigram's row, the tokens counted with ``encode`` over ``lines``."""
    tokens = sum(len(encode(line)) for line in lines)
    return unigram_row(name, seconds, cpu, vocab, tokens, sum(len(line.encode("utf-8")) for line in lines))


def wordpiece_ours(text: str, vocab_size: int, min_frequency: int = 1) -> dict[str, object]:
    start, cpu = time.perf_counter(), time.process_time()
    tok = train_wordpiece(text, vocab_size=vocab_size, min_frequency=min_frequency)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    name = "MergeScope WordPiece (pure Python)" + (
        f", min_frequency={min_frequency}" if min_frequency > 1 else ""
    )
    return _row(name, seconds, cpu, tok.vocab_size, _lines(text), tok.encode)


def wordpiece_hf(text: str, vocab_size: int) -> dict[str, object]:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    start, cpu = time.perf_counter(), time.process_time()
    hf = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size, special_tokens=list(BERT_SPECIAL_TOKENS), show_progress=False
    )
    hf.train_from_iterator([text], trainer)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    lines = _lines(text)
    name = "HF WordPieceTrainer (BPE, Rust)"
    return _row(name, seconds, cpu, hf.get_vocab_size(), lines, lambda s: hf.encode(s).ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "texts", nargs="*", type=Path, help="UTF-8 texts (default: bench/out/bench1 and bench10)"
    )
    parser.add_argument("--vocab", type=int, default=8000)
    parser.add_argument(
        "--min-frequency",
        type=int,
        nargs="+",
        default=[1, 10],
        help="a row of our WordPiece for each (default 1 and 10: the score favours rare pairs)",
    )
    parser.add_argument("--skip-unigram", action="store_true", help="WordPiece rows only")
    parser.add_argument(
        "--skip-ours-on-10mb", action="store_true", help="our Unigram is slow: leave it out past 5 MB"
    )
    args = parser.parse_args()
    texts = args.texts or list(DEFAULT_TEXTS)
    for path in texts:
        if not path.exists() and path in DEFAULT_TEXTS:
            path.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, str(MAKER), str(path), str(DEFAULT_TEXTS[path])], check=True)
        text = path.read_text(encoding="utf-8")
        size = len(text.encode())
        print(
            f"{path.name}: {size:,} bytes, vocab {args.vocab}, load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        rows = [wordpiece_ours(text, args.vocab, f) for f in args.min_frequency] + [
            wordpiece_hf(text, args.vocab)
        ]
        print(" WordPiece", flush=True)
        print_rows(rows)
        if not args.skip_unigram:
            from bench_unigram import unigram_rows

            print(" Unigram", flush=True)
            print_rows(
                unigram_rows(text, args.vocab, include_ours=not (args.skip_ours_on_10mb and size > 5e6))
            )


if __name__ == "__main__":
    main()
