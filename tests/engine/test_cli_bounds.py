"""The command line on streams that never end and on arguments that make no sense (issue #29).

Each hazardous case runs ``python -m bpe_core`` in a child process with a timeout, so a regression
(a hang, a memory blow-up) fails here instead of stopping the suite.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bpe_core import cli
from tests.engine.formats.support import CORPUS, EOT

REPO = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 60  # seconds; each case below ends in well under 5


@pytest.fixture(scope="module")
def tok_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("bounds")
    (d / "c.txt").write_text(CORPUS, encoding="utf-8")
    err = io.StringIO()
    argv = ["train", str(d / "c.txt"), "--vocab-size", "300", "--special-token", EOT, "--out", str(d / "tok")]
    assert cli.main(argv, stdin=io.BytesIO(), stdout=io.BytesIO(), stderr=err) == 0, err.getvalue()
    return d / "tok"


def cli_run(
    *argv: str, stdin: int | None = subprocess.DEVNULL, setup: str = "pass", cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``python -m bpe_core ARGV`` (``setup`` runs first, e.g. to shorten a wait), with a timeout."""
    code = f"import sys; from bpe_core import cli; {setup}; sys.exit(cli.main(sys.argv[1:]))"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        stdin=stdin,
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=TIMEOUT,
    )


def one_error_line(done: subprocess.CompletedProcess[bytes], *parts: str) -> str:
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert b"Traceback" not in done.stderr, err
    lines = [ln for ln in err.splitlines() if ln.startswith("error: ")]
    assert len(lines) == 1 and err.splitlines()[-1] == lines[0], err
    for part in parts:
        assert part in lines[0], err
    return lines[0]


def test_encode_refuses_a_device_that_never_ends(tok_dir: Path) -> None:
    done = cli_run("encode", "--tokenizer", str(tok_dir), "--input", "/dev/zero")
    one_error_line(done, "/dev/zero: is a device", "--input -")
    assert done.stdout == b""


def test_encode_refuses_a_directory(tok_dir: Path) -> None:
    one_error_line(cli_run("encode", "--tokenizer", str(tok_dir), "--input", str(tok_dir)), "is a directory")


def test_encode_waits_for_a_fifo_writer_only_so_long(tok_dir: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = cli_run(
        "encode", "--tokenizer", str(tok_dir), "--input", str(fifo), setup="cli.FIFO_WAIT_SECONDS = 0.3"
    )
    one_error_line(done, "a pipe nothing was written to in 0.3 s")


def test_encode_reads_a_fifo_that_has_a_writer(tok_dir: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as f:  # blocks until the command opens the pipe
            f.write(b"hi")

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    done = cli_run("encode", "--tokenizer", str(tok_dir), "--input", str(fifo))
    writer.join(TIMEOUT)
    assert (done.returncode, done.stdout) == (0, b"[104, 105]\n"), done.stderr


@pytest.mark.parametrize("command", ["encode", "train"])
def test_an_endless_stdin_stops_at_the_limit(tok_dir: Path, tmp_path: Path, command: str) -> None:
    argv = (
        ["encode", "--tokenizer", str(tok_dir), "--input", "-"]
        if command == "encode"
        else ["train", "-", "--vocab-size", "300", "--out", str(tmp_path / "t")]
    )
    with open("/dev/zero", "rb") as zeros:
        done = cli_run(*argv, "--max-input-bytes", "200000", stdin=zeros.fileno())
    one_error_line(done, "- (stdin): more than 200,000 bytes", "--max-input-bytes")
    assert not (tmp_path / "t").exists()


def test_stdin_limit_is_the_documented_default() -> None:
    parser = cli.build_parser()
    for argv in (
        ["encode", "--tokenizer", "t", "--text", "x"],
        ["train", "-", "--vocab-size", "9", "--out", "o"],
    ):
        assert parser.parse_args(argv).max_input_bytes == cli.MAX_STREAM_BYTES == 1 << 30


def test_stdin_of_exactly_the_limit_is_read(tok_dir: Path) -> None:
    err = io.StringIO()
    out = io.BytesIO()
    argv = ["encode", "--tokenizer", str(tok_dir), "--input", "-", "--max-input-bytes", "5"]
    assert cli.main(argv, stdin=io.BytesIO(b"hello"), stdout=out, stderr=err) == 0, err.getvalue()
    from bpe_core import load_tokenizer

    assert out.getvalue() == f"{load_tokenizer(tok_dir).encode('hello')}\n".encode()
    assert cli.main(argv, stdin=io.BytesIO(b"hello!"), stdout=io.BytesIO(), stderr=err) == 1


def test_decode_reads_at_most_its_limit_of_stdin(tok_dir: Path) -> None:
    """An endless list ("[" and white space, forever) stops at the limit; /dev/zero, no JSON at all,
    at its first byte (decode reads its ids as they come since issue #45)."""
    read, write = os.pipe()

    def endless() -> None:
        with open(write, "wb") as f, contextlib.suppress(BrokenPipeError):
            f.write(b"[")
            while True:
                f.write(b" " * 65536)

    writer = threading.Thread(target=endless, daemon=True)
    writer.start()
    try:
        done = cli_run("decode", "--tokenizer", str(tok_dir), stdin=read)
    finally:
        os.close(read)  # the writer's next write fails: it ends
    writer.join(TIMEOUT)
    one_error_line(done, f"stdin: more than {cli.MAX_IDS_BYTES:,} bytes")
    assert done.stdout == b""
    with open("/dev/zero", "rb") as zeros:
        done = cli_run("decode", "--tokenizer", str(tok_dir), stdin=zeros.fileno())
    one_error_line(done, "stdin must hold a JSON list of token ids")
    assert done.stdout == b""


def test_a_limit_below_one_byte_is_refused(tok_dir: Path) -> None:
    done = cli_run("encode", "--tokenizer", str(tok_dir), "--text", "x", "--max-input-bytes", "0")
    one_error_line(done, "--max-input-bytes is 0")


@pytest.mark.parametrize("out", ["", " "])
@pytest.mark.parametrize("command", ["train", "convert"])
def test_an_empty_out_writes_nothing(tok_dir: Path, tmp_path: Path, command: str, out: str) -> None:
    work = tmp_path / "cwd"
    work.mkdir()
    (tmp_path / "c.txt").write_text(CORPUS, encoding="utf-8")
    argv = (
        ["train", str(tmp_path / "c.txt"), "--vocab-size", "300", "--out", out]
        if command == "train"
        else ["convert", str(tok_dir), "--to", "all", "--out", out]
    )
    one_error_line(cli_run(*argv, cwd=work), "--out is empty")
    assert list(work.iterdir()) == []


def test_save_refuses_an_empty_path(tok_dir: Path) -> None:
    from bpe_core import load_tokenizer, save_tokenizer
    from bpe_core.formats import write_format

    tok = load_tokenizer(tok_dir)
    with pytest.raises(ValueError, match="output path is empty"):
        save_tokenizer(tok, "")
    with pytest.raises(ValueError, match="output path is empty"):
        write_format(tok, "tiktoken", "")


@pytest.mark.parametrize("token_id", [2**31, 10**30])
def test_special_token_ids_out_of_range_are_one_line(tok_dir: Path, token_id: int) -> None:
    done = cli_run(
        "encode",
        "--tokenizer",
        str(tok_dir / "tokenizer.tiktoken"),
        "--special-token",
        f"{EOT}={token_id}",
        "--text",
        f"a{EOT}",
    )
    one_error_line(done, f"id {token_id:,} is out of range", "0 to 2,147,483,647")
    assert done.stdout == b""


def test_the_largest_special_token_id_still_loads(tok_dir: Path) -> None:
    from bpe_core.formats import load_tokenizer

    tok = load_tokenizer(tok_dir / "tokenizer.tiktoken", special_tokens={EOT: 2**31 - 1})
    assert tok.encode(EOT) == [2**31 - 1]
