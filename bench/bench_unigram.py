"""Unigram training: ours (numpy where installed) against HF's UnigramTrainer and SentencePiece, same text.

    python bench/bench_unigram.py bench/out/bench1.txt [bench/out/bench10.txt] [--vocab 8000] [--skip-ours]
    python bench/bench_unigram.py --ablation [--vocab 2000] [--train-bytes 400000] [--only NAME...]
    python bench/bench_unigram.py --profile [--vocab 8000] [--train-bytes 1000000] [--kind mixed]

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

``--ablation`` trains ours with each of SentencePiece's choices alone (:mod:`bpe_core.training.unigram_sp`)
and SentencePiece itself (identity normalization, a dummy ▁ in front, spaces kept, one thread) on the
same text, and prints for each the CPU seconds, the final loss and bytes per token on the training text,
on held-out text of the same kind and of other kinds (:func:`ablation_texts`).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bpe_core.training.unigram import NUMPY, unigram_steps
from bpe_core.training.unigram_loss import corpus_loss
from bpe_core.training.unigram_records import SENTENCEPIECE_OPTIONS, TRAIN_DEFAULTS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ../shared/reference beside the repo (or beside the worktrees' folder), when present
SHARED = next(
    (
        p
        for p in (os.path.join(ROOT, up, "shared", "reference") for up in ("..", "../.."))
        if os.path.isdir(p)
    ),
    "",
)


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
    # train_unigram's default, each line a sentence (as SentencePiece and HF's trainer read them here)
    trainer = unigram_steps(
        "\n".join(lines), vocab_size=vocab_size, lines_as_sentences=True, **TRAIN_DEFAULTS
    )
    rounds = sum(1 for _ in trainer)
    tok = trainer.tokenizer()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    tokens = sum(len(tok.encode(line)) for line in lines)
    name = "MergeScope Unigram (numpy)" if NUMPY else "MergeScope Unigram (pure Python)"
    row = _row(name, seconds, cpu, tok.vocab_size, tokens, _bytes(lines))
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


def _read(*parts: str) -> str:
    path = os.path.join(*parts)
    if not parts[0] or not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as f:
        return f.read()


def ablation_texts(train_bytes: int, kind: str = "shakespeare") -> tuple[str, str, str, str]:
    """(what, training text, held-out text of the same kind, held-out text of other kinds).

    ``shakespeare``: the first ``train_bytes`` of ../shared/reference/tinyshakespeare.txt, its last 300 KB
    held out (less when the training text reaches into them: what follows it); other kinds:
    taylorswift.txt (Wikipedia), cs336/german.txt, cs336/tinystories_sample.txt
    and the repo's corpora/ (Chinese, mixed scripts, a story, code): 185 KB of Wikipedia, 12 KB of the rest.
    ``mixed``: the same other kinds and Shakespeare shuffled by paragraphs, every fourth held out.
    Without ../shared, the repo's corpora/ repeated (a small smoke run: figures that mean little; its
    433 characters need ``--vocab`` 500 or more).
    """
    corpora = os.path.join(ROOT, "corpora")
    own = "\n\n".join(_read(corpora, f) for f in sorted(os.listdir(corpora)) if f.endswith(".txt"))
    shakespeare = _read(SHARED, "tinyshakespeare.txt")
    others = [
        _read(SHARED, f) for f in ("taylorswift.txt", "cs336/german.txt", "cs336/tinystories_sample.txt")
    ]
    other = "\n\n".join([*others, own])
    if not shakespeare:
        text = (own + "\n\n") * max(1, train_bytes // max(1, len(own.encode())))
        return "corpora/ repeated (../shared absent)", text, own, own
    if kind == "mixed":
        paragraphs = [p for t in [shakespeare, *others, own] for p in t.split("\n\n") if p.strip()]
        paragraphs.sort(key=lambda p: hash_stable(p))
        train = "\n\n".join(p for i, p in enumerate(paragraphs) if i % 4)
        held = "\n\n".join(p for i, p in enumerate(paragraphs) if i % 4 == 0)
        cut = train.encode()[:train_bytes].decode("utf-8", "ignore")
        what = "mixed paragraphs (Shakespeare, Wikipedia; a little German, stories, Chinese)"
        return f"{what}, {len(cut.encode()):,} bytes", cut, held, held
    train = shakespeare[:train_bytes]
    held = shakespeare[max(train_bytes, len(shakespeare) - 300_000) :]  # never what it trained on
    return f"tinyshakespeare, first {train_bytes:,} bytes", train, held, other


def hash_stable(text: str) -> int:
    """A shuffle key that does not change between runs (``hash`` does)."""
    import zlib

    return zlib.crc32(text.encode())


def _bpt(lines: list[str], encode) -> float:
    tokens = sum(len(encode(line)) for line in lines)
    return _bytes(lines) / tokens if tokens else 0.0


ABLATION: list[tuple[str, dict[str, object]]] = [
    ("textbook", {}),
    ("textbook, max_piece_length 32", {"max_piece_length": 32}),
    *[(f"+ {name}", {name: True}) for name in SENTENCEPIECE_OPTIONS],
    ("train_unigram", dict(TRAIN_DEFAULTS)),
    *[(f"train_unigram without {name}", {**TRAIN_DEFAULTS, name: False}) for name in TRAIN_DEFAULTS],
    *[
        (f"train_unigram + {name}", {**TRAIN_DEFAULTS, name: True})
        for name in SENTENCEPIECE_OPTIONS
        if name not in TRAIN_DEFAULTS and name != "lines_as_sentences"
    ],
    ("all seven", dict.fromkeys(SENTENCEPIECE_OPTIONS, True)),
    *[
        (f"all but {name}", {**dict.fromkeys(SENTENCEPIECE_OPTIONS, True), name: False})
        for name in SENTENCEPIECE_OPTIONS
    ],
]
"""(label, options): ours as :func:`unigram_steps` defaults (the textbook; its pieces at most 16 characters,
SentencePiece's ``max_sentencepiece_length``, or 32, a whole training word), each SentencePiece choice
alone, :func:`train_unigram`'s default, it without each of its choices and with each other one, all of
them, all but one."""


def ablation_row(
    name: str, text: str, held: list[str], vocab_size: int, **options: object
) -> dict[str, object]:
    lines = _lines(text)
    cpu = time.process_time()
    trainer = unigram_steps("\n".join(lines), vocab_size=vocab_size, **options)  # type: ignore[arg-type]
    rounds = sum(1 for _ in trainer)
    tok = trainer.tokenizer()
    cpu = time.process_time() - cpu
    return {
        "trainer": name,
        "cpu_seconds": cpu,
        "rounds": rounds,
        "vocab": tok.vocab_size,
        "loss": trainer.loss,
        "bpt": [_bpt(t, tok.encode) for t in [lines, *held]],
    }


def sentencepiece_row(
    text: str, held: list[str], vocab_size: int, *, coverage: float = 1.0
) -> dict[str, object]:
    """SentencePiece as ours reads text: identity normalization, a ▁ in front, spaces kept."""
    import sentencepiece as spm

    from bpe_core.training.unigram import text_words

    lines = _lines(text)
    model = io.BytesIO()
    cpu = time.process_time()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_writer=model,
        vocab_size=vocab_size,
        model_type="unigram",
        normalization_rule_name="identity",
        add_dummy_prefix=True,
        remove_extra_whitespaces=False,
        character_coverage=coverage,
        hard_vocab_limit=False,  # a small text may not reach the size: the vocab column says what it reached
        max_sentence_length=1 << 20,
        num_threads=1,
        minloglevel=2,
    )
    cpu = time.process_time() - cpu
    sp = spm.SentencePieceProcessor(model_proto=model.getvalue())
    scores = {
        sp.id_to_piece(i): sp.get_score(i) for i in range(sp.get_piece_size()) if sp.is_unknown(i) is False
    }
    try:  # our loss (Viterbi, count x -log P) under SentencePiece's scores, on our words
        words = text_words("\n".join(lines), lines_as_sentences=True)
        del words["\n"]  # SentencePiece's sentences have no newline
        loss = corpus_loss(words, scores, 16)
    except ValueError:  # a character SentencePiece left out (coverage < 1)
        loss = (float("nan"), 0)
    return {
        "trainer": f"SentencePiece (identity, coverage {coverage})",
        "cpu_seconds": cpu,
        "rounds": 0,
        "vocab": sp.get_piece_size(),
        "loss": loss[0],
        "bpt": [_bpt(t, sp.encode) for t in [lines, *held]],
    }


def ablation(
    vocab_size: int, train_bytes: int, kind: str, only: list[str] | None, base: list[str] | None = None
) -> None:
    """Print the table: SentencePiece, then ours with each option of :data:`ABLATION` (on top of ``base``)."""
    what, text, same, other = ablation_texts(train_bytes, kind)
    if base:
        what += "; every row of ours with " + " + ".join(base)
    held = [_lines(same), _lines(other)]
    print(
        f"{what}; vocab {vocab_size}; held out: {_bytes(held[0]):,} bytes same kind, "
        f"{_bytes(held[1]):,} bytes other kinds; load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(
        f"  {'trainer':36} {'CPU s':>7} {'rounds':>6} {'vocab':>6} {'loss':>12}  "
        "bytes/token: train, same, other"
    )
    rows = [sentencepiece_row(text, held, vocab_size)]
    _print_ablation(rows[0])
    for name, options in ABLATION:
        if only and name.removeprefix("+ ") not in only:
            continue
        chosen = {**dict.fromkeys(base or [], True), **options}
        rows.append(ablation_row("ours, " + name, text, held, vocab_size, **chosen))
        _print_ablation(rows[-1], rows[0])
    print(f"  load average after: {os.getloadavg()[0]:.2f}", flush=True)


def _print_ablation(row: dict[str, object], sp: dict[str, object] | None = None) -> None:
    bpt: list[float] = row["bpt"]  # type: ignore[assignment]
    shares = ""
    if sp is not None:
        ref: list[float] = sp["bpt"]  # type: ignore[assignment]
        shares = "  (" + ", ".join(f"{b / r - 1:+.1%}" for b, r in zip(bpt, ref, strict=True)) + " vs SP)"
    print(
        f"  {row['trainer']:36} {row['cpu_seconds']:7.2f} {row['rounds']:6} {row['vocab']:6} "
        f"{row['loss']:12,.0f}  " + ", ".join(f"{b:.3f}" for b in bpt) + shares,
        flush=True,
    )


def profile(vocab_size: int, train_bytes: int, kind: str, top: int = 15) -> None:
    """cProfile of train_unigram's default on the ablation's training text: the ``top`` functions by own
    time (``tottime``), with the total CPU seconds."""
    import cProfile
    import pstats

    what, text, _, _ = ablation_texts(train_bytes, kind)
    lines = _lines(text)
    print(f"{what}; vocab {vocab_size}; train_unigram's default; load average {os.getloadavg()[0]:.2f}")
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    unigram_steps("\n".join(lines), vocab_size=vocab_size, lines_as_sentences=True, **TRAIN_DEFAULTS).run()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    print("\n".join(line for line in out.getvalue().splitlines() if line.strip()))
    print(f"  load average after: {os.getloadavg()[0]:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("texts", nargs="*")
    parser.add_argument("--vocab", type=int, default=8000)
    parser.add_argument("--skip-ours", action="store_true", help="only HF and SentencePiece (the 10 MB text)")
    parser.add_argument("--ablation", action="store_true", help="each SentencePiece choice alone, vs SP")
    parser.add_argument(
        "--train-bytes", type=int, default=400_000, help="--ablation: the training text's size"
    )
    parser.add_argument("--kind", choices=["shakespeare", "mixed"], default="shakespeare", help="--ablation")
    parser.add_argument(
        "--only",
        nargs="*",
        help="--ablation: only these rows (textbook, an option's name, train_unigram, ...)",
    )
    parser.add_argument("--base", nargs="*", help="--ablation: options on in every row of ours")
    parser.add_argument("--profile", action="store_true", help="cProfile train_unigram on --kind's text")
    args = parser.parse_args()
    if args.profile:
        profile(args.vocab, args.train_bytes, args.kind)
        return
    if args.ablation:
        ablation(args.vocab, args.train_bytes, args.kind, args.only, args.base)
        return
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
