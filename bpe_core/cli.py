"""The command line: ``python -m bpe_core train | encode | decode | convert | health | selftest``.

::

    python -m bpe_core train corpus.txt --vocab-size 1000 --special-token '<|endoftext|>' --out tok/
    python -m bpe_core train 'data/*.txt' --vocab-size 32000 --dask local --out tok/   # or tcp://HOST:PORT
    python -m bpe_core encode --tokenizer tok/ --text 'Hello world'      # prints [15496, 995]-style ids
    echo '[72, 101]' | python -m bpe_core decode --tokenizer tok/         # prints the text
    python -m bpe_core convert tok/ --to tiktoken --out tok.tiktoken
    python -m bpe_core train corpus.txt --model wordpiece --vocab-size 8000 --out wp/   # or unigram
    python -m bpe_core train corpus.txt --model bpe-char --vocab-size 8000 --limit-alphabet 1000 --out cp/
    python -m bpe_core encode --tokenizer bert/vocab.txt --text 'Hello world'   # or spm.model, tokenizer.json
    python -m bpe_core convert spm.model --to hf-json --out tokenizer.json
    python -m bpe_core health --tokenizer tok/ --text corpus.txt   # JSON: unreachable, unused, ... ids
    python -m bpe_core selftest --tokenizer tok/                   # a pass/fail table of hostile texts

``train`` reads its files in blocks (memory holds the pre-token counts, not the
text), writes every format (see :mod:`bpe_core.formats`) and reports progress
on stderr: bytes read, pre-tokens counted, merges done.  ``--model wordpiece`` or ``unigram`` trains
that scheme instead (:func:`~bpe_core.training.schemes.train_scheme`) on the files' text, read whole,
and writes its files (WordPiece: ``tokenizer.json`` and BERT's ``vocab.txt``; Unigram:
``tokenizer.json``); encode, decode and convert read those too, and SentencePiece ``.model`` files
(Unigram and BPE). Encode and decode read any ``tokenizer.json`` whose stages :mod:`bpe_core.pipeline` has
(an uncased BERT, T5, Llama-2...); ``encode --with-special-tokens`` frames the ids as its post-processor does.
``--tokenizer`` and ``convert``'s source take a directory or one file; ``--pattern`` sets the split
pattern of files that do not record it (else ``encoding.json`` beside them
says, else ``gpt2``, with a ``note:`` line on stderr) and ``--special-token
T=ID`` gives a ``.tiktoken`` file its special tokens.  Errors are one line on
stderr and exit status 1 (2 for bad usage); nothing here is printed by :mod:`bpe_core` itself.

Every stream is bounded, so no input hangs the command or fills the memory:
``encode`` and ``train`` read at most :data:`MAX_STREAM_BYTES` (1 GiB) from
stdin or a pipe (``--max-input-bytes`` changes it; regular files are read
whole), ``decode`` at most :data:`MAX_IDS_BYTES` (64 MiB) of JSON; past the
limit the command stops with a one-line error.  ``encode --input`` refuses a
device or socket (``/dev/zero`` never ends) and waits at most
:data:`FIFO_WAIT_SECONDS` for a named pipe's writer.

``health`` prints one JSON object: the scheme, the vocabulary size, and for each finding of
:mod:`bpe_core.analysis.health` (``unreachable``, ``unused`` on ``--text``, ``partial_utf8``,
``longest``, ``special_from_text``, ``duplicates``) its ids; ``--why`` adds each finding's id, bytes and
reason.  ``selftest`` prints :mod:`bpe_core.analysis.selftest`'s table and exits 1 when a case fails for
a byte-level tokenizer (WordPiece and Unigram lose text by design: the table says what and why).

Both ways stream: ``encode --input`` (byte-level BPE) writes ids as it reads the text, and ``decode``
reads its JSON list in blocks of :data:`READ_BYTES` and writes each block's text (a character whose
bytes two blocks share goes out whole with the second), so memory holds a block, not the list.  A
stream that fails writes nothing of the block it fails in; its ``error:`` line then ends with what
stdout holds: ``encode`` ends its list (``]``) first, so stdout is valid JSON, and says how many ids
it holds; ``decode`` says of how many ids it wrote the text (whole characters).  A line with no such
ending means stdout is empty; a stdout that fails (a closed pipe) says the output is cut short.

>>> import io
>>> out, err = io.BytesIO(), io.StringIO()
>>> main(["encode", "--tokenizer", "/nonexistent", "--text", "hi"], stdout=out, stderr=err)
1
>>> err.getvalue()
'error: /nonexistent: does not exist; pass a tokenizer directory or file\\n'
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import glob
import io
import json
import os
import re
import select
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from .analysis.health import FINDINGS, check_health
from .analysis.selftest import COLUMNS, self_test
from .formats import load_tokenizer, save_tokenizer, write_format
from .formats.char_bpe_json import char_bpe_tokenizer_json
from .formats.safe_io import write_text
from .formats.save import ALL_FORMATS
from .pipeline import PipelineTokenizer
from .pretokenizer import PATTERNS
from .tokenizer import SchemeTokenizer, Tokenizer, UnigramTokenizer, WordPieceTokenizer
from .training import TIE_BREAKS, WORDPIECE_TIE_BREAKS, Trainer, TrainOptions, train_scheme
from .training.char_bpe import OUTSIDE_RULES, CharBpeOptions, CharBpeTrainer
from .training.corpus_dask import count_files_dask
from .training.corpus_files import Progress, count_files

CLI_MODELS = (
    "bpe",
    "wordpiece",
    "unigram",
    "bpe-char",
)  # the schemes with files (the character one has none)
PROGRESS_EVERY_SECONDS = 1.0
MAX_SCHEME_TEXT_CHARS = 200_000_000  # train --model wordpiece|unigram holds the text: at most this much
READ_BYTES = 1 << 16  # encode --input reads its file, and decode its ids, in blocks of this many bytes
WRITE_IDS = 1 << 13  # encode writes the ids in batches of this many
MAX_STREAM_BYTES = 1 << 30  # the most encode and train read from stdin or a pipe (--max-input-bytes)
MAX_IDS_BYTES = 64 << 20  # the most decode reads from stdin (about 10 million ids)
MAX_ID_CHARS = 4_400  # an id longer than this (white space around it included) is not a token id
NOT_IDS = "stdin must hold a JSON list of token ids, e.g. [72, 101]"
NOT_WHOLE = "stdin must hold a JSON list of whole numbers, e.g. [72, 101]"
NOT_FLAT = "stdin must hold a flat JSON list of token ids, e.g. [72, 101]"
_WS = b" \t\n\r"  # JSON's white space
_ID = rb"[ \t\n\r]*-?(?:0|[1-9][0-9]*)[ \t\n\r]*"
_IDS = re.compile(rb"(?:" + _ID + rb",)*")  # ids, each followed by its comma
_ONE_ID = re.compile(_ID)
_ID_START = re.compile(rb"-?[0-9]*[ \t\n\r]*")  # what an id cut by the end of a block may be
_FLOAT = re.compile(rb"[ \t\n\r]*-?[0-9]+[.eE]")
STREAM_ERRORS = (
    "A stream that fails (input past its limit, invalid UTF-8, malformed JSON, an unknown id) writes "
    "nothing of the block it fails in, and its error line says what stdout holds: "
)
FIFO_WAIT_SECONDS = 10.0  # how long encode --input waits for a named pipe's first bytes


LESSON_POINTER = (
    "a lesson file is made by the app's command: python -m mergescope_ui.lesson FILE --vocab-size N "
    "[--steps K|A-B] [--model bpe|wordpiece|unigram] --out lesson.html"
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bpe_core",
        description="Train, use and convert byte-level BPE tokenizers.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    pattern_help = f"split pattern: {', '.join(PATTERNS)} or a regex"

    train = sub.add_parser(
        "train", help="train a tokenizer on UTF-8 text files (read in blocks) and write all its files"
    )
    train.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="UTF-8 text files to train on, as one text: paths, globs ('data/*.txt') or - for stdin",
    )
    train.add_argument(
        "--vocab-size", type=int, required=True, metavar="N", help="256 bytes + special tokens + merges"
    )
    train.add_argument(
        "--model",
        default="bpe",
        choices=CLI_MODELS,
        metavar="M",
        help="the scheme: bpe (byte-level, the default), wordpiece, unigram or bpe-char (code-point BPE "
        "with byte fallback); the last three read the text whole; wordpiece takes --special-token, "
        "--tie-break and --min-frequency too, bpe-char --limit-alphabet, --max-token-length and "
        "--min-frequency",
    )
    train.add_argument(
        "--limit-alphabet",
        type=int,
        default=None,
        metavar="N",
        help="bpe-char: keep the N most frequent characters, the others as UTF-8 byte pieces",
    )
    train.add_argument(
        "--max-token-length",
        type=int,
        default=None,
        metavar="N",
        help="bpe-char: the longest token in characters (HF's rule: longer than 2 must be shorter than N)",
    )
    train.add_argument(
        "--outside",
        default=None,
        choices=OUTSIDE_RULES,
        metavar="R",
        help="bpe-char, a character outside --limit-alphabet: split (the default: nothing joins across "
        "it) or drop (its neighbours join, as HF's trainer)",
    )
    train.add_argument("--pattern", default="gpt2", metavar="P", help=pattern_help + " (default gpt2)")
    train.add_argument(
        "--special-token",
        action="extend",
        nargs="+",
        default=[],
        metavar="T",
        help="a special token, e.g. '<|endoftext|>' (repeatable); ids 256, 257, ...",
    )
    train.add_argument(
        "--tie-break",
        default=None,
        choices=TIE_BREAKS + WORDPIECE_TIE_BREAKS,
        metavar="R",
        help=f"rule for pairs with equal counts: {', '.join(TIE_BREAKS)} (default lexicographic); for "
        f"wordpiece, equal scores: {', '.join(WORDPIECE_TIE_BREAKS)} (default first-seen)",
    )
    train.add_argument(
        "--min-frequency", type=int, default=1, metavar="F", help="stop when the best pair occurs fewer times"
    )
    train.add_argument("--out", required=True, metavar="DIR", help="directory for the tokenizer files")
    train.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes that count the pre-tokens (default: one per CPU past 32 MB of files, else 1)",
    )
    train.add_argument(
        "--dask",
        default=None,
        metavar="SCHEDULER",
        help="count the pre-tokens on Dask: 'local' starts a cluster here, tcp://HOST:PORT uses a running "
        "scheduler (pip install -r requirements-dask.txt)",
    )
    train.add_argument("--quiet", action="store_true", help="no progress or summary on stderr")
    train.add_argument(
        "--max-input-bytes",
        type=int,
        default=MAX_STREAM_BYTES,
        metavar="N",
        help=f"the most bytes read from - (stdin); default {MAX_STREAM_BYTES:,} (files are read whole)",
    )

    def tokenizer_options(p: argparse.ArgumentParser, *, flag: bool) -> None:
        if flag:
            p.add_argument("--tokenizer", required=True, metavar="PATH", help="tokenizer directory or file")
        p.add_argument(
            "--pattern",
            default=None,
            metavar="P",
            help=pattern_help + " for files that do not record one (default gpt2)",
        )
        p.add_argument(
            "--special-token",
            action="append",
            default=[],
            metavar="T=ID",
            type=_special_token,
            help="a special token of a .tiktoken file with its id, e.g. '<|endoftext|>=100257' (repeatable)",
        )

    encode = sub.add_parser(
        "encode",
        help="print the token ids of a text as a JSON list",
        description="Print the token ids of a text as one JSON list line; --input is read in blocks and "
        "the ids written as they come (byte-level BPE). "
        + STREAM_ERRORS
        + "if ids were written, the list is ended (']') so stdout is valid JSON, and the line says how "
        "many ids it holds; else stdout is empty.",
    )
    tokenizer_options(encode, flag=True)
    source = encode.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--input",
        metavar="FILE",
        help="UTF-8 text file to encode ('-' for stdin; read as is, CRLF kept), in blocks: the ids are "
        "written as they come",
    )
    source.add_argument("--text", metavar="T", help="text to encode")
    encode.add_argument(
        "--with-special-tokens",
        action="store_true",
        help="frame the ids as the tokenizer's post-processor does ([CLS] ... [SEP], <s> ...): for a "
        "tokenizer.json with one",
    )
    encode.add_argument(
        "--max-input-bytes",
        type=int,
        default=MAX_STREAM_BYTES,
        metavar="N",
        help=f"the most bytes read from stdin or a pipe; default {MAX_STREAM_BYTES:,} (files are read whole)",
    )

    decode = sub.add_parser(
        "decode",
        help="read a JSON list of ids on stdin and write the text (exactly: no newline added)",
        description="Read a JSON list of ids on stdin and write their text (exactly: no newline added), "
        "a block at a time, so memory holds a block, not the list; a character whose bytes two blocks "
        "share is written whole with the second. "
        + STREAM_ERRORS
        + "if text was written, the line says of how many ids (whole characters only); else stdout is "
        f"empty. At most {MAX_IDS_BYTES:,} bytes are read.",
    )
    tokenizer_options(decode, flag=True)
    decode.add_argument(
        "--bytes", action="store_true", help="write the tokens' exact bytes (no UTF-8 repair)"
    )

    lesson = sub.add_parser("lesson", help="an offline lesson file: made by the app, see the message")
    lesson.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    convert = sub.add_parser("convert", help="convert a tokenizer to another file format")
    convert.add_argument("source", metavar="SRC", help="tokenizer directory or file")
    convert.add_argument(
        "--to",
        required=True,
        choices=ALL_FORMATS + ("all",),
        metavar="FORMAT",
        help=f"{', '.join(ALL_FORMATS)} or all (gpt2 and all write a directory); a WordPiece tokenizer "
        "writes hf-json or bert-vocab, a Unigram one hf-json",
    )
    convert.add_argument(
        "--out", required=True, metavar="PATH", help="output file, or directory for gpt2/all"
    )
    convert.add_argument(
        "--renumber", action="store_true", help="minbpe only: renumber ids to minbpe's layout"
    )
    tokenizer_options(convert, flag=False)

    check = sub.add_parser(
        "health",
        help="print a tokenizer's unreachable, unused, partial, longest, special and duplicate tokens (JSON)",
        description="Print one JSON object: for each finding ("
        + ", ".join(FINDINGS)
        + ") the ids of the tokens found; unused needs --text.",
    )
    tokenizer_options(check, flag=True)
    check.add_argument(
        "--text", metavar="FILE", help="reference UTF-8 text file for 'unused' ('-' for stdin), read whole"
    )
    check.add_argument("--why", action="store_true", help="add each finding's id, bytes and reason")
    check.add_argument(
        "--max-input-bytes",
        type=int,
        default=MAX_STREAM_BYTES,
        metavar="N",
        help=f"the most bytes read from stdin or a pipe; default {MAX_STREAM_BYTES:,}",
    )

    selftest = sub.add_parser(
        "selftest",
        help="round-trip hostile and edge-case texts; a pass/fail table (exit 1: a byte-level case failed)",
    )
    tokenizer_options(selftest, flag=True)
    return parser


def _special_token(value: str) -> tuple[str, int]:
    token, sep, number = value.rpartition("=")
    if not sep or not token or not (number.isascii() and number.isdigit()):
        raise argparse.ArgumentTypeError(f"{value!r} is not T=ID, e.g. '<|endoftext|>=100257'")
    return token, int(number)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run one command; returns the exit status (0 ok, 1 error, 2 bad usage)."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    out = _Stdout(stdout if stdout is not None else sys.stdout.buffer)
    stderr = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.command == "lesson":  # the stage draws a lesson, and the engine knows nothing of it
        stderr.write(f"{LESSON_POINTER}\n")
        return 2
    try:
        _check_args(args)
        if args.command == "train":
            return _train(args, _bounded(stdin, args.max_input_bytes, "- (stdin)"), stderr)
        if args.command == "encode":
            tok = _load(args.tokenizer, args, stderr)
            if args.with_special_tokens:
                _write_ids(_framed(tok, args, stdin), out)
            elif args.input is None:
                _write_ids(tok.encode(args.text), out)
            elif not hasattr(tok, "encode_iterable"):  # WordPiece, Unigram: the text whole
                bounded = _bounded(stdin, args.max_input_bytes, "- (stdin)")
                text = _whole_text([args.input], bounded, "encoding this scheme", limit=args.max_input_bytes)
                _write_ids(tok.encode(text), out)
            elif args.input == "-":
                bounded = _bounded(stdin, args.max_input_bytes, "- (stdin)")
                _write_ids(tok.encode_iterable(_read_text(bounded, "-")), out)
            else:
                with _open_input(args.input, args.max_input_bytes) as f:
                    _write_ids(tok.encode_iterable(_read_text(f, args.input)), out)
        elif args.command == "decode":
            tok = _load(args.tokenizer, args, stderr)
            bounded = _bounded(stdin, MAX_IDS_BYTES, "stdin", fix="decode the ids in parts")
            _decode(tok, _id_blocks(bounded), out, raw=args.bytes)
        elif args.command == "health":
            tok = _load(args.tokenizer, args, stderr)
            text = None
            if args.text is not None:
                bounded = _bounded(stdin, args.max_input_bytes, "- (stdin)")
                text = _whole_text([args.text], bounded, "health", limit=args.max_input_bytes)
            out.write(_health_json(tok, text, why=args.why))
        elif args.command == "selftest":
            report = self_test(_load(args.tokenizer, args, stderr))
            out.write(_table(report.rows()).encode("utf-8"))
            out.flush()
            if report.byte_level and report.failed:
                stderr.write(
                    f"error: {len(report.failed)} of {len(report.results)} cases do not round-trip; a "
                    "byte-level tokenizer must give every text back (see the table)\n"
                )
                return 1
        else:
            tok = _load(args.source, args, stderr)
            paths = write_format(tok, args.to, args.out, renumber=args.renumber)
            stderr.write("wrote " + ", ".join(str(p) for p in paths) + "\n")
        out.flush()
    except (ValueError, OSError) as exc:
        stderr.write(f"error: {_message(exc)}\n")
        return 1
    except MemoryError as exc:
        stderr.write(f"error: {_message(exc)}\n")
        return 1
    return 0


def _health_json(tok: Tokenizer | SchemeTokenizer, text: str | None, *, why: bool) -> bytes:
    """:func:`~bpe_core.analysis.health.health` as one JSON line (``why``: each finding's details;
    bytes as Latin-1 text, one character a byte, so any token is valid JSON).

    >>> tok = Tokenizer({i: bytes([i]) for i in range(256)}, [])
    >>> data = json.loads(_health_json(tok, "ab", why=False))
    >>> data["scheme"], data["unreachable"][:2], len(data["unused"]), data["reference_tokens"]
    ('bpe', [192, 193], 254, 2)
    """
    report = check_health(tok, text=text)
    out: dict[str, object] = {
        "scheme": report.scheme,
        "vocab_size": report.vocab_size,
        "reference_tokens": report.reference_tokens,
    }
    out.update(report.ids())
    if why:
        out["why"] = {
            kind: [
                {"id": f.id, "piece": f.piece, "bytes": f.token.decode("latin-1"), "why": f.why}
                for f in report.of(kind)
            ]
            for kind in FINDINGS
        }
    return (json.dumps(out, ensure_ascii=False) + "\n").encode("utf-8")


def _table(rows: Sequence[Sequence[object]]) -> str:
    """The self-test's rows under :data:`~bpe_core.analysis.selftest.COLUMNS`, tab-separated (a name's
    tabs and line ends written as escapes, so each row is one line).

    >>> _table([("a\\tb", 1, 1, "pass", "")]).splitlines()[1]
    'a\\\\tb\\t1\\t1\\tpass\\t'
    """
    lines = ["\t".join(COLUMNS)]
    for row in rows:
        lines.append(
            "\t".join(
                str(cell).encode("unicode_escape").decode("ascii")
                if isinstance(cell, str) and any(c in cell for c in "\t\r\n")
                else str(cell)
                for cell in row
            )
        )
    return "\n".join(lines) + "\n"


def _check_args(args: argparse.Namespace) -> None:
    """Refuse, before any work, what would go wrong later: an empty ``--out`` (Python reads ``''`` as
    the current directory) and a bound below one byte."""
    out = getattr(args, "out", None)
    if out is not None and not out.strip():
        raise ValueError("--out is empty; name a directory or file (use '.' for the current directory)")
    limit = getattr(args, "max_input_bytes", 1)
    if limit < 1:
        raise ValueError(f"--max-input-bytes is {limit}; give a number of bytes of at least 1")


class _Bounded(io.RawIOBase):
    """A binary stream that refuses to give more than ``limit`` bytes: reading past them is a
    ValueError naming ``name``, the limit and how to go on (``fix``).

    >>> _Bounded(io.BytesIO(b"abc"), 3, "stdin").read()
    b'abc'
    >>> _Bounded(io.BytesIO(b"abcd"), 3, "stdin").read()
    Traceback (most recent call last):
    ValueError: stdin: more than 3 bytes, the most read from a stream; pass --max-input-bytes N to read more
    """

    def __init__(
        self,
        stream: BinaryIO,
        limit: int,
        name: str,
        *,
        fix: str = "pass --max-input-bytes N to read more",
    ) -> None:
        super().__init__()
        self.stream, self.limit, self.name, self.fix = stream, limit, name, fix
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:  # a writable buffer (bytearray, memoryview)
        room = self.limit + 1 - self.count  # one byte more than allowed tells "too long" from "exactly"
        view = memoryview(buffer).cast("B")
        data = self.stream.read(min(len(view), room))
        n = len(data)
        view[:n] = data
        self.count += n
        if self.count > self.limit:
            raise ValueError(
                f"{self.name}: more than {self.limit:,} bytes, the most read from a stream; {self.fix}"
            )
        return n


def _open_input(path: str, limit: int) -> BinaryIO:
    """``encode --input``'s file: a regular file as it is; a pipe once its writer has written (at most
    FIFO_WAIT_SECONDS), bounded by ``limit``; a device, socket or directory is refused (``/dev/zero``
    never ends, a FIFO with no writer would block forever)."""
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return open(path, "rb")
    if stat.S_ISDIR(mode):
        raise ValueError(f"{path}: is a directory; pass a UTF-8 text file")
    if not stat.S_ISFIFO(mode):
        raise ValueError(
            f"{path}: is a device or a socket, not a file, and may never end; pass a UTF-8 text file, "
            "or pipe the text into --input -"
        )
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # does not wait for a writer
    try:
        ready, _, _ = select.select([fd], [], [], FIFO_WAIT_SECONDS)
        if not ready:
            raise ValueError(
                f"{path}: a pipe nothing was written to in {FIFO_WAIT_SECONDS:g} s; start the program "
                "that writes to it first, or pipe the text into --input -"
            )
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return _bounded(open(fd, "rb", buffering=0), limit, path)


def _bounded(stream: BinaryIO, limit: int, name: str, **fix: str) -> BinaryIO:
    """``stream`` read through :class:`_Bounded` (buffered)."""
    return io.BufferedReader(_Bounded(stream, limit, name, **fix))


def _message(exc: BaseException) -> str:
    if isinstance(exc, MemoryError):
        return "out of memory; give the command a smaller input"
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc)


def _framed(tok: Tokenizer | SchemeTokenizer, args: argparse.Namespace, stdin: BinaryIO) -> list[int]:
    """``encode --with-special-tokens``: the text's ids as the tokenizer's post-processor frames them."""
    if not isinstance(tok, PipelineTokenizer) or tok.post_processor is None:
        raise ValueError(
            "--with-special-tokens needs a tokenizer.json with a post-processor, and this tokenizer has "
            "none; leave the flag out"
        )
    if args.input is None:
        return tok.encode(args.text, with_special_tokens=True)
    bounded = _bounded(stdin, args.max_input_bytes, "- (stdin)")
    text = _whole_text([args.input], bounded, "encoding this scheme", limit=args.max_input_bytes)
    return tok.encode(text, with_special_tokens=True)


def _load(path: str, args: argparse.Namespace, stderr: TextIO) -> Tokenizer | SchemeTokenizer:
    """The tokenizer at ``path``; what the loader had to assume goes to stderr as ``note:`` lines."""
    specials = dict(args.special_token) or None
    notes: list[str] = []
    tok = load_tokenizer(path, pattern=args.pattern, special_tokens=specials, notes=notes, any_scheme=True)
    for note in notes:
        stderr.write(f"note: {note}\n")
    return tok


def _read_text(stream: BinaryIO, path: str) -> Iterator[str]:
    """The UTF-8 text of ``stream`` in blocks of at most READ_BYTES bytes, decoded incrementally (a
    character cut between two blocks is completed by the next).  An invalid byte is a ValueError
    naming ``path``, its line and its offset in the file.

    >>> import io
    >>> list(_read_text(io.BytesIO("añ\\n".encode()), "f.txt"))
    ['añ\\n']
    >>> list(_read_text(io.BytesIO(b"ok\\n\\xe6\\x97x"), "f.txt"))
    Traceback (most recent call last):
    ValueError: f.txt, line 2: byte 0xE6 at offset 3 is not valid UTF-8; convert the file to UTF-8
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    read = lines = 0  # bytes and newlines before this block
    while True:
        data = stream.read(READ_BYTES)
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:  # exc.object: the bytes held from the block before + data
            start = read - (len(exc.object) - len(data)) + exc.start
            line = lines + exc.object.count(b"\n", 0, exc.start) + 1  # held bytes are never b"\n"
            raise ValueError(
                f"{path}, line {line}: byte 0x{exc.object[exc.start]:02X} at offset {start} is not valid "
                "UTF-8; convert the file to UTF-8"
            ) from None
        if text:
            yield text
        if not data:
            return
        read += len(data)
        lines += data.count(b"\n")


class _OutputError(ValueError):
    """stdout refused a write (a closed pipe, a full disk): nothing more can be written to it."""


class _Stdout:
    """stdout, whose failures are :class:`_OutputError` naming it."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def write(self, data: bytes) -> None:
        self._do(self.stream.write, data)

    def flush(self) -> None:
        self._do(self.stream.flush)

    @staticmethod
    def _do(action: Callable[..., object], *args: bytes) -> None:
        try:
            action(*args)
        except OSError as exc:
            cause = exc.strerror or exc
            raise _OutputError(f"stdout: {cause}; what was written to it is cut short") from None


def _stopped(exc: BaseException, holds: str) -> ValueError:
    """The error of a stream that had written part of its output: ``exc``'s message and what stdout
    holds (``exc`` itself if stdout failed: it holds what it holds)."""
    if isinstance(exc, _OutputError):
        return exc
    return ValueError(f"{_message(exc)}; stdout holds {holds}")


def _write_ids(ids: Iterable[int], stdout: _Stdout) -> None:
    """``ids`` as one JSON list line, ``[15496, 995]``, written in batches as they come.  Nothing is
    written until the first batch is there, so an error in the first block writes nothing; an error
    after that ends the list first (stdout is valid JSON) and its message says how many ids it holds.

    >>> out = _Stdout(io.BytesIO())
    >>> def ids():
    ...     yield from [72, 101]
    ...     raise ValueError("stdin: too long")
    >>> _write_ids(ids(), out)
    Traceback (most recent call last):
    ValueError: stdin: too long; stdout holds the first 2 ids, as a complete JSON list
    >>> out.stream.getvalue()
    b'[72, 101]\\n'
    """
    failed: list[BaseException] = []
    stream = _until_error(ids, failed)
    opening = "["
    count = 0
    while batch := list(islice(stream, WRITE_IDS)):
        stdout.write((opening + ", ".join(map(str, batch))).encode("ascii"))
        opening = ", "
        count += len(batch)
    if failed and not count:
        raise failed[0]
    stdout.write(b"[]\n" if opening == "[" else b"]\n")
    if failed:
        raise _stopped(failed[0], f"the first {count:,} ids, as a complete JSON list") from failed[0]


def _until_error(ids: Iterable[int], failed: list[BaseException]) -> Iterator[int]:
    """``ids`` until one fails to come: its error goes to ``failed``."""
    try:
        yield from ids
    except (ValueError, OSError, MemoryError) as exc:
        failed.append(exc)


def _decode(
    tok: Tokenizer | SchemeTokenizer, blocks: Iterable[list[int]], stdout: _Stdout, *, raw: bool
) -> None:
    """``decode``: each block of ids decoded and written as it comes (``raw``: their bytes, byte-level
    BPE only).  An error writes nothing of its block; after a block was written, its message says of how
    many ids stdout holds the text."""
    bpe = tok.as_bpe()
    if raw and bpe is None:
        raise ValueError(f"--bytes is for byte-level BPE; this tokenizer is {tok.scheme}")
    if not isinstance(tok, Tokenizer | WordPieceTokenizer | UnigramTokenizer | PipelineTokenizer):
        raise ValueError(f"decode cannot read a {tok.scheme} tokenizer")
    decoder = tok.incremental_decoder()
    count = written = 0
    try:
        for ids in blocks:
            data = bpe.decode_bytes(ids) if raw and bpe is not None else _utf8(decoder.decode(ids))
            stdout.write(data)
            count += len(ids)
            written += len(data)
        if not raw:
            stdout.write(_utf8(decoder.decode([], final=True)))  # a character cut short by the end: U+FFFD
    except (ValueError, OSError, MemoryError) as exc:
        if not count:
            raise
        what = f"the bytes of the first {count:,} ids ({written:,} bytes)"
        if not raw:
            what = f"the text of the first {count:,} ids ({written:,} bytes, whole characters)"
        raise _stopped(exc, what) from exc


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: a vocabulary that holds one
        raise ValueError(
            f"the text holds U+{ord(text[exc.start]):04X}, a lone surrogate, which UTF-8 cannot write; "
            "the tokenizer's vocabulary holds it"
        ) from None


def _id_blocks(stream: BinaryIO) -> Iterator[list[int]]:
    """The ids of the JSON list on ``stream``, one list per block of READ_BYTES bytes read: memory
    holds two blocks (one read ahead), not the list.  What is not a flat JSON list of whole numbers
    is a ValueError raised before its block's ids (so a list of one block that is wrong anywhere, or
    cut short, yields nothing).

    >>> list(_id_blocks(io.BytesIO(b' [72, 101,\\n -0] ')))
    [[72, 101, 0]]
    >>> list(_id_blocks(io.BytesIO(b'[72, 1.5]')))
    Traceback (most recent call last):
    ValueError: stdin must hold a JSON list of whole numbers, e.g. [72, 101]
    """
    held = b""  # the start of an id, cut by the end of the block before
    state = "start"  # start: before "["; first: after it; next: after a comma; end: after "]"
    data = stream.read(READ_BYTES)
    while True:
        failed: Exception | None = None
        try:  # a block ahead, so the last block knows it is the last
            ahead = stream.read(READ_BYTES) if data else b""
        except (ValueError, OSError) as exc:  # past the limit: this block's ids first
            ahead, failed = b"", exc
        buf, held = held + data, b""
        ids: list[int] = []
        if state == "start":
            buf = buf.lstrip(_WS)
            if buf[:1] == b"[":
                buf, state = buf[1:], "first"
            elif buf:  # JSON that is not a list (a number, an object, ...) or no JSON at all
                raise ValueError(NOT_WHOLE) if buf[:1] in b"-0123456789" else _not_an_id(buf[:16])
        if state != "start" and state != "end":
            comma = buf.rfind(b",")
            if comma >= 0:
                ids = _ids(buf[: comma + 1])
                buf, state = buf[comma + 1 :], "next"
            close = buf.find(b"]")
            if close >= 0:
                if buf[:close].strip(_WS):
                    ids.append(_ids(buf[:close] + b",")[0])
                elif state == "next":  # [1, ]
                    raise ValueError(NOT_IDS)
                buf, state = buf[close + 1 :], "end"
            else:
                held = buf.lstrip(_WS)
                if not _ID_START.fullmatch(held):
                    raise _not_an_id(held[:16])
                if held.rstrip(_WS) != held:  # an id and white space: only a comma or "]" may follow
                    held = held.rstrip(_WS) + b" "
                if len(held) > MAX_ID_CHARS:
                    raise ValueError(NOT_IDS)
        if state == "end" and buf.strip(_WS):
            raise ValueError(NOT_IDS)
        if not ahead and not failed and state != "end":
            raise ValueError(NOT_IDS)
        if ids:
            yield ids
        if failed:
            raise failed
        if not ahead:
            return
        data = ahead


def _ids(items: bytes) -> list[int]:
    """The ids of ``items``, each followed by its comma."""
    if _IDS.fullmatch(items):
        try:
            return list(map(int, items[:-1].split(b",")))
        except ValueError:  # more digits than int() reads
            raise ValueError(NOT_IDS) from None
    for item in items[:-1].split(b","):
        if not _ONE_ID.fullmatch(item):
            raise _not_an_id(item[:16])
    raise ValueError(NOT_IDS)


def _not_an_id(item: bytes) -> ValueError:
    """The error for ``item`` where an id should be: a list, another value or no JSON."""
    first = item.lstrip(_WS)[:1]
    if first == b"[":
        return ValueError(NOT_FLAT)
    if (first and first in b'tfn"{') or _FLOAT.match(item):
        return ValueError(NOT_WHOLE)
    return ValueError(NOT_IDS)


def _train(args: argparse.Namespace, stdin: BinaryIO, stderr: TextIO) -> int:
    def say(text: str) -> None:
        if not args.quiet:
            stderr.write(text)
            stderr.flush()

    start = time.perf_counter()
    if args.model == "bpe-char":
        return _train_char_bpe(args, stdin, say, start)
    if args.limit_alphabet is not None or args.max_token_length is not None or args.outside is not None:
        raise ValueError(
            "--limit-alphabet, --max-token-length and --outside are bpe-char options; "
            f"leave them out for {args.model}"
        )
    if args.model != "bpe":
        return _train_scheme(args, stdin, say, start)
    if args.tie_break is None:
        args.tie_break = "lexicographic"
    options = TrainOptions(
        vocab_size=args.vocab_size,
        pattern=args.pattern,
        special_tokens=args.special_token,
        tie_break=args.tie_break,
        min_frequency=args.min_frequency,
        top_k=0,
        preview_chars=0,
    )
    interactive = hasattr(stderr, "isatty") and stderr.isatty()
    show = _Throttled(say, interactive, start)
    pretokenizer = options.pretokenizer()

    def counting(p: Progress) -> None:
        total = p.total_bytes
        of = f" of {_size(total)} ({100 * p.bytes_read // max(total, 1)}%)" if total is not None else ""
        show(f"read {_size(p.bytes_read)}{of}, {p.pretokens:,} pre-tokens counted")

    if args.dask is not None:
        corpus = count_files_dask(args.files, pretokenizer, scheduler=args.dask, progress=counting)
    else:
        corpus = count_files(args.files, pretokenizer, workers=args.workers, progress=counting, stdin=stdin)
    show.end()
    pretokens = sum(corpus.chunk_counts.values()) + sum(corpus.special_counts.values())
    say(
        f"read {corpus.bytes:,} bytes: {pretokens:,} pre-tokens, {len(corpus.chunk_counts):,} distinct, "
        f"in {time.perf_counter() - start:.1f} s; merging...\n"
    )
    trainer = Trainer(corpus, options, records=False)
    total = args.vocab_size - len(trainer.vocab)
    for step in trainer:
        show(f"merge {step.index:,}/{total:,} ({100 * step.index // max(total, 1)}%)")
    show.end()
    tok = trainer.tokenizer()
    paths = save_tokenizer(tok, args.out)
    say(
        f"trained {len(tok.merges):,} merges in {time.perf_counter() - start:.1f} s ({trainer.stop_reason}); "
        f"vocab size {len(tok.vocab):,}; wrote {len(paths)} files to {args.out}\n"
    )
    return 0


def _train_scheme(args: argparse.Namespace, stdin: BinaryIO, say: Callable[[str], None], start: float) -> int:
    """``train --model wordpiece|unigram``: the files' text read whole, one :func:`train_scheme`."""
    if args.dask is not None or args.workers is not None or args.pattern != "gpt2":
        raise ValueError(
            f"--dask, --workers and --pattern are for byte-level BPE; leave them out for {args.model}"
        )
    options: dict[str, object] = {}
    if args.model == "wordpiece":
        if args.special_token:
            options["special_tokens"] = args.special_token
        if args.tie_break is not None:
            options["tie_break"] = args.tie_break
        options["min_frequency"] = args.min_frequency
    elif args.special_token or args.tie_break is not None or args.min_frequency != 1:
        raise ValueError(
            "--special-token, --tie-break and --min-frequency are not unigram options; leave them out"
        )
    text = _whole_text(_expand(args.files), stdin, f"{args.model} training", limit=args.max_input_bytes)
    say(
        f"read {len(text.encode('utf-8')):,} bytes in {time.perf_counter() - start:.1f} s; "
        f"training {args.model}...\n"
    )
    tok = train_scheme(text, model=args.model, vocab_size=args.vocab_size, **options)
    paths = save_tokenizer(tok, args.out)
    say(
        f"trained {args.model} in {time.perf_counter() - start:.1f} s; vocab size {tok.vocab_size:,}; "
        f"wrote {len(paths)} files to {args.out}\n"
    )
    return 0


def _train_char_bpe(
    args: argparse.Namespace, stdin: BinaryIO, say: Callable[[str], None], start: float
) -> int:
    """``train --model bpe-char``: the files' text read whole, code-point BPE, one ``tokenizer.json``."""
    if args.dask is not None or args.workers is not None or args.pattern != "gpt2":
        raise ValueError(
            "--dask, --workers and --pattern are for byte-level BPE; leave them out for bpe-char"
        )
    if args.special_token or args.tie_break is not None:
        raise ValueError(
            "--special-token and --tie-break are not bpe-char options (its one is <unk>); leave them out"
        )
    try:
        options = CharBpeOptions(
            vocab_size=args.vocab_size,
            limit_alphabet=args.limit_alphabet,
            min_frequency=args.min_frequency,
            max_token_length=args.max_token_length,
            outside=args.outside or "split",
        )
    except ValueError as exc:  # the engine names its options; say the flags
        message = str(exc)
        for name in ("vocab_size", "limit_alphabet", "min_frequency", "max_token_length"):
            message = message.replace(name, "--" + name.replace("_", "-"))
        raise ValueError(message) from None
    text = _whole_text(_expand(args.files), stdin, "bpe-char training", limit=args.max_input_bytes)
    if not text:
        raise ValueError("the text is empty; give bpe-char a text to learn from")
    size = len(text.encode("utf-8"))
    say(f"read {size:,} bytes in {time.perf_counter() - start:.1f} s; training bpe-char...\n")
    try:
        trainer = CharBpeTrainer(text, options).run()
    except ValueError as exc:  # vocab_size too small for the alphabet
        message = str(exc)
        for name in ("vocab_size", "limit_alphabet"):
            message = message.replace(name, "--" + name.replace("_", "-"))
        raise ValueError(message) from None
    out = Path(args.out)
    if not str(args.out).strip():
        raise ValueError("--out is empty; name a directory (use '.' for the current directory)")
    out.mkdir(parents=True, exist_ok=True)
    path = write_text(out / "tokenizer.json", char_bpe_tokenizer_json(trainer.vocab, trainer.merges))
    say(
        f"trained bpe-char in {time.perf_counter() - start:.1f} s: {len(trainer.merges):,} merges "
        f"({trainer.stop_reason}); vocab size {len(trainer.vocab):,}, {len(trainer.to_bytes):,} characters "
        f"as bytes; wrote {path}\n"
    )
    return 0


def _whole_text(names: Sequence[str], stdin: BinaryIO, what: str, *, limit: int) -> str:
    """The UTF-8 text of the files ``names`` (``-``: stdin), one after the other, at most
    MAX_SCHEME_TEXT_CHARS characters (``what`` holds the text whole); a file is opened as
    ``encode --input``'s is (devices refused, pipes bounded by ``limit`` bytes)."""
    blocks: list[str] = []
    chars = 0
    for name in names:
        with contextlib.nullcontext(stdin) if name == "-" else _open_input(name, limit) as stream:
            for block in _read_text(stream, name):
                chars += len(block)
                if chars > MAX_SCHEME_TEXT_CHARS:
                    raise ValueError(
                        f"{what} reads the text whole, and it holds more than {MAX_SCHEME_TEXT_CHARS:,} "
                        "characters; use a sample of it"
                    )
                blocks.append(block)
    return "".join(blocks)


def _expand(patterns: Sequence[str]) -> list[str]:
    """Paths and globs as file names, in order (``-`` is stdin); a glob that matches nothing is an error."""
    out: list[str] = []
    for pattern in patterns:
        if pattern == "-" or not glob.has_magic(pattern):
            out.append(pattern)
            continue
        found = sorted(glob.glob(pattern))
        if not found:
            raise ValueError(f"{pattern}: no file matches; check the pattern")
        out.extend(found)
    return out


def _size(n: int) -> str:
    """A byte count for a progress line.

    >>> _size(999), _size(12_345), _size(3_400_000), _size(1_073_741_824)
    ('999 B', '12.3 KB', '3.4 MB', '1.07 GB')
    """
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return f"{n / scale:.{2 if unit == 'GB' else 1}f} {unit}"
    return f"{n} B"


class _Throttled:
    """A progress line at most every PROGRESS_EVERY_SECONDS, with the time so far; one line
    rewritten in place on a terminal, one line each otherwise."""

    def __init__(self, say: Callable[[str], None], interactive: bool, start: float) -> None:
        self.say, self.interactive, self.start = say, interactive, start
        self.last = time.perf_counter()
        self.shown = False

    def __call__(self, line: str) -> None:
        now = time.perf_counter()
        if now - self.last >= PROGRESS_EVERY_SECONDS:
            self.last, self.shown = now, True
            line = f"{line}, {now - self.start:.1f} s"
            self.say("\r" + line + "\x1b[K" if self.interactive else line + "\n")

    def end(self) -> None:
        if self.shown and self.interactive:
            self.say("\n")
        self.shown = False
