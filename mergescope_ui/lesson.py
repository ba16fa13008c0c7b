"""``python -m mergescope_ui.lesson``: a training run's steps as an offline lesson file (one HTML page).

::

    python -m mergescope_ui.lesson corpus.txt --vocab-size 400 --steps 30 --out lesson.html
    python -m mergescope_ui.lesson corpus.txt --vocab-size 400 --steps 10-40 --pattern none --out l.html
    python -m mergescope_ui.lesson corpus.txt --model wordpiece --vocab-size 120 --out wordpiece.html
    python -m mergescope_ui.lesson corpus.txt --model unigram --vocab-size 60 --presenter --out unigram.html

The page is the Train page's "Download this lesson" (:mod:`mergescope_ui.train.lesson_file`): the same
stage, the same steps, nothing fetched.  ``--vocab-size`` counts as ``python -m bpe_core train``'s does:
for BPE 256 bytes + special tokens + merges, for WordPiece the special tokens + the text's alphabet +
merges, for Unigram the pieces to prune down to.  Errors are one line on stderr and exit status 1 (2 for
bad usage).  The engine's command line does not make lesson files (it knows nothing of the stage):
``python -m bpe_core lesson`` points here.

>>> import io
>>> err = io.StringIO()
>>> main(["/nonexistent.txt", "--vocab-size", "300", "--out", "x.html"], stderr=err)
1
>>> err.getvalue()
'error: /nonexistent.txt: no such file; give a UTF-8 text file (or - for stdin)\\n'
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from bpe_core import PATTERNS, TIE_BREAKS, TrainOptions
from bpe_core.wordpiece import BERT_SPECIAL_TOKENS, WordPieceOptions, word_counts
from mergescope_ui.train.lesson_file import (
    MAX_LESSON_CHARS,
    SCHEMES,
    LessonRequest,
    lesson_html,
    steps_range,
)
from mergescope_ui.train.scheme_run import SchemeSettings


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mergescope_ui.lesson",
        description="Write a training run's steps as one offline HTML lesson (no server, no network).",
    )
    parser.add_argument("file", metavar="FILE", help="a UTF-8 text file to train on, or - for stdin")
    parser.add_argument(
        "--vocab-size",
        type=int,
        required=True,
        metavar="N",
        help="as python -m bpe_core train: BPE 256 + special tokens + merges; WordPiece special tokens + "
        "alphabet + merges; Unigram the pieces kept",
    )
    parser.add_argument(
        "--steps", default="30", metavar="K|A-B", help="steps 0 to K, or A to B (default 30; 2,000 at most)"
    )
    parser.add_argument(
        "--model", default="bpe", choices=SCHEMES, metavar="M", help="bpe, wordpiece or unigram"
    )
    parser.add_argument(
        "--pattern",
        default="gpt2",
        metavar="P",
        help=f"BPE's split pattern: {', '.join(PATTERNS)} or a regex",
    )
    parser.add_argument(
        "--special-token", action="extend", nargs="+", default=[], metavar="T", help="BPE: a special token"
    )
    parser.add_argument(
        "--tie-break", default="lexicographic", choices=TIE_BREAKS, metavar="R", help="BPE's tie rule"
    )
    parser.add_argument(
        "--min-frequency", type=int, default=1, metavar="F", help="BPE: the least count merged"
    )
    parser.add_argument("--name", default=None, help="the text's name in the page (default: the file's name)")
    parser.add_argument("--presenter", action="store_true", help="open in presenter mode (large text)")
    parser.add_argument("--out", required=True, metavar="FILE", help="the .html file to write")
    return parser


def main(argv: Sequence[str] | None = None, *, stderr: TextIO | None = None) -> int:
    """Write the lesson; the exit status (0 written, 1 error, 2 bad usage)."""
    stderr = stderr if stderr is not None else sys.stderr
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        request = _request(args)
        page = lesson_html(request)
        out = Path(args.out)
        out.write_text(page, encoding="utf-8")
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=stderr)
        return 1
    steps = f"steps {request.first:,}–{request.last:,} asked"
    print(f"wrote {out} ({len(page.encode('utf-8')) / 1024:,.0f} kB, {steps})", file=stderr)
    return 0


def _read(name: str) -> str:
    if name == "-":
        raw = sys.stdin.buffer.read(4 * MAX_LESSON_CHARS + 1)
    else:
        path = Path(name)
        if not path.is_file():
            raise ValueError(f"{name}: no such file; give a UTF-8 text file (or - for stdin)")
        raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: not UTF-8 (byte {exc.start}); save it as UTF-8") from None


def _request(args: argparse.Namespace) -> LessonRequest:
    first, last = steps_range(args.steps)
    text = _read(args.file)
    settings: TrainOptions | SchemeSettings
    if args.model == "bpe":
        settings = TrainOptions(
            vocab_size=args.vocab_size,
            pattern=args.pattern,
            special_tokens=tuple(args.special_token),
            tie_break=args.tie_break,
            min_frequency=args.min_frequency,
        )
    elif args.model == "wordpiece":
        alphabet = len(
            WordPieceOptions(vocab_size=args.vocab_size).initial_vocab(
                word_counts(text, special_tokens=BERT_SPECIAL_TOKENS)
            )
        )
        if args.vocab_size <= alphabet:
            raise ValueError(
                f"--vocab-size {args.vocab_size} leaves no room for merges after the special tokens and the "
                f"text's alphabet ({alphabet}); ask for more"
            )
        settings = SchemeSettings(scheme="wordpiece", steps=args.vocab_size - alphabet)
    else:
        settings = SchemeSettings(scheme="unigram", vocab_size=args.vocab_size)
    name = args.name if args.name is not None else Path(args.file).name if args.file != "-" else "stdin"
    return LessonRequest(
        text=text,
        name=name,
        scheme=args.model,
        settings=settings,
        first=first,
        last=last,
        large=args.presenter,
    )


if __name__ == "__main__":
    sys.exit(main())
