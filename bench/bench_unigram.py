"""Unigram training: ours (pure Python) against HF's UnigramTrainer and SentencePiece, same text, same size.

    python bench/bench_unigram.py bench/out/bench1.txt [bench/out/bench10.txt] [--vocab 8000] [--skip-ours]

Build the texts first (git-ignored):

    python ../shared/tools/make_bench_corpus.py bench/out/bench1.txt 1
    python ../shared/tools/make_bench_corpus.py bench/out/bench10.txt 10

Each trainer sees the text's lines as sentences and the same vocabulary size; compression is the lines'
UTF-8 bytes over the tokens each tokenizer cuts them into (line by line, so SentencePiece, which drops
newlines, is measured on the same bytes).  SentencePiece runs with its defaults (nmt_nfkc, one thread),
HF's trainer with a Metaspace pre-tokenizer (as ours: a ▁ before each word).  SentencePiece also runs
without its script and number splits (its pieces may then mix letters, digits and punctuation, as ours and
HF's may).  Times are wall clock and this process's CPU (the machine may be shared).  ``unigram_rows`` is what
``bench/bench_schemes.py`` imports.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bpe_core.training.unigram import unigram_steps


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def _row(name: str, seconds: float, cpu: float, vocab: int, tokens: int, nbytes: int) -> dict[str, object]:
    return {
        "trainer": name,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu, 2),
        "vocab": vocab,
        "tokens": tokens,
        "bytes_per_token": round(nbytes / tokens, 4) if tokens else 0.0,
    }


def ours(text: str, vocab_size: int) -> dict[str, object]:
    lines = _lines(text)
    start, cpu = time.perf_counter(), time.process_time()
    trainer = unigram_steps("\n".join(lines), vocab_size=vocab_size)
    rounds = sum(1 for _ in trainer)
    tok = trainer.tokenizer()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    tokens = sum(len(tok.encode(line)) for line in lines)
    row = _row("MergeScope Unigram (pure Python)", seconds, cpu, tok.vocab_size, tokens, _bytes(lines))
    row["rounds"] = rounds
    row["seed"] = len(trainer.seed.pieces)
    return row


def hf(text: str, vocab_size: int) -> dict[str, object]:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    lines = _lines(text)
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    trainer = trainers.UnigramTrainer(
        vocab_size=vocab_size, unk_token="<unk>", special_tokens=["<unk>"], show_progress=False
    )
    start, cpu = time.perf_counter(), time.process_time()
    tok.train_from_iterator(lines, trainer)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    tokens = sum(len(e.ids) for e in tok.encode_batch(lines))
    return _row("HF tokenizers UnigramTrainer", seconds, cpu, tok.get_vocab_size(), tokens, _bytes(lines))


def sentencepiece(text: str, vocab_size: int, *, splits: bool = True) -> dict[str, object]:
    """SentencePiece with its defaults; ``splits=False`` lets pieces mix scripts and digits, as ours do."""
    import sentencepiece as spm

    lines = _lines(text)
    model = io.BytesIO()
    start, cpu = time.perf_counter(), time.process_time()
    spm.SentencePieceTrainer.train(
        split_by_unicode_script=splits,
        split_by_number=splits,
        sentence_iterator=iter(lines),
        model_writer=model,
        vocab_size=vocab_size,
        model_type="unigram",
        max_sentence_length=1 << 20,
        num_threads=1,
        minloglevel=2,
    )
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    sp = spm.SentencePieceProcessor(model_proto=model.getvalue())
    tokens = sum(len(ids) for ids in sp.encode(lines))
    name = "SentencePiece (C++, 1 thread)" if splits else "SentencePiece, no script/number split"
    return _row(name, seconds, cpu, sp.get_piece_size(), tokens, _bytes(lines))


def _bytes(lines: list[str]) -> int:
    return sum(len(line.encode("utf-8")) for line in lines)


def unigram_rows(text: str, vocab_size: int, *, include_ours: bool = True) -> list[dict[str, object]]:
    """One row per trainer: seconds, vocab reached, tokens and bytes per token on ``text``'s lines."""
    rows = [ours(text, vocab_size)] if include_ours else []
    return rows + [
        hf(text, vocab_size),
        sentencepiece(text, vocab_size),
        sentencepiece(text, vocab_size, splits=False),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("texts", nargs="+")
    parser.add_argument("--vocab", type=int, default=8000)
    parser.add_argument("--skip-ours", action="store_true", help="only HF and SentencePiece (the 10 MB text)")
    args = parser.parse_args()
    for path in args.texts:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        print(f"{path}: {len(text.encode()):,} bytes, vocab {args.vocab}", flush=True)
        rows = unigram_rows(text, args.vocab, include_ours=not args.skip_ours)
        print_rows(rows)


def print_rows(rows: list[dict[str, object]]) -> None:
    """One line a trainer: seconds, CPU seconds, vocab, tokens and bytes per token against the best."""
    best = max(float(str(r["bytes_per_token"])) for r in rows)
    for r in rows:
        extra = f"  ({r['rounds']} rounds from a seed of {r['seed']:,})" if "rounds" in r else ""
        share = float(str(r["bytes_per_token"])) / best
        print(
            f"  {r['trainer']:46} {r['seconds']:7.2f} s ({r.get('cpu_seconds', 0):7.2f} s CPU)  "
            f"vocab {r['vocab']:6}  tokens {r['tokens']:10,}  "
            f"{r['bytes_per_token']:.3f} bytes/token ({share:.1%} of the best)"
            f"{extra}",
            flush=True,
        )


if __name__ == "__main__":
    main()
