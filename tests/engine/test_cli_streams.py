"""The CLI streams both ways (issue #45): ``decode`` reads its ids and writes its text a block at a time,
in memory that does not grow with the list; a stream that fails writes nothing of the block it fails
in, and its one ``error:`` line says what stdout holds: a complete JSON list (encode), the text of the
first N ids (decode), or nothing (no note)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_core import cli
from bpe_core.formats import load_tokenizer, save_tokenizer
from bpe_core.tokenizer import Tokenizer, UnigramTokenizer, WordPieceTokenizer
from bpe_core.training import train_scheme
from tests.engine.formats.support import CORPUS, EOT, SAMPLE

REPO = Path(__file__).resolve().parent.parent.parent
TEXTS = {
    "sample": SAMPLE,
    "corpus": CORPUS,
    "emoji and CJK": "自然语言处理 🤷🏽‍♀️👩‍👩‍👧 霰龘。\r\n" * 5 + EOT + "🌊",
    "empty": "",
}


def run(*argv: str, stdin: bytes = b"", stdout: io.BytesIO | None = None) -> tuple[int, bytes, str]:
    out, err = stdout if stdout is not None else io.BytesIO(), io.StringIO()
    code = cli.main(list(argv), stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def tok_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("streams")
    (d / "c.txt").write_text(CORPUS, encoding="utf-8")
    argv = ["train", str(d / "c.txt"), "--vocab-size", "330", "--special-token", EOT, "--out", str(d / "tok")]
    code, _, err = run(*argv)
    assert code == 0, err
    return d / "tok"


def error_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, err
    return err[len("error: ") : -1]


def holds(message: str) -> tuple[int, int] | None:
    """What decode's error line says stdout holds: (ids, bytes), or None when it says nothing."""
    found = re.search(
        r"; stdout holds the (?:text|bytes) of the first ([\d,]+) ids \(([\d,]+) bytes", message
    )
    return (int(found[1].replace(",", "")), int(found[2].replace(",", ""))) if found else None


class Writes(io.BytesIO):
    """stdout that keeps each write apart."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []

    def write(self, data) -> int:
        self.writes.append(bytes(data))
        return super().write(data)


# ----- round trips, blocks, characters cut by blocks -----


@pytest.mark.parametrize("name", list(TEXTS))
def test_encode_then_decode_gives_the_text_back_in_any_blocks(
    tok_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    text = TEXTS[name].encode()
    (tmp_path / "in.txt").write_bytes(text)
    code, ids, err = run("encode", "--tokenizer", str(tok_dir), "--input", str(tmp_path / "in.txt"))
    assert code == 0, err
    for read_bytes in (1, 2, 3, 5, 64, 1 << 16):
        monkeypatch.setattr(cli, "READ_BYTES", read_bytes)
        out = Writes()
        code, back, err = run("decode", "--tokenizer", str(tok_dir), stdin=ids, stdout=out)
        assert (code, err) == (0, "") and back == text, read_bytes
        for data in out.writes:  # every write is whole characters: none cut between two writes
            data.decode("utf-8")


def test_a_character_split_across_blocks_is_written_whole(tok_dir: Path, monkeypatch: pytest.MonkeyPatch):
    tok = load_tokenizer(tok_dir)
    ids = tok.encode("a🌊b")
    assert len(ids) >= 4 and "🌊".encode() not in [tok.decode_bytes([i]) for i in ids]  # 🌊 is 2+ ids
    monkeypatch.setattr(cli, "READ_BYTES", 5)  # "[97, " "240, " ...: one id a block
    out = Writes()
    code, back, err = run("decode", "--tokenizer", str(tok_dir), stdin=json.dumps(ids).encode(), stdout=out)
    assert (code, back, err) == (0, "a🌊b".encode(), "")
    assert "🌊".encode() in out.writes


def test_decode_keeps_its_utf8_repair_and_bytes(tok_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Invalid UTF-8 in the ids' bytes is U+FFFD as in decode() (--bytes: the bytes), in any blocks."""
    tok = load_tokenizer(tok_dir)
    ids = [*tok.encode("ok "), 0xE7, 0x81, 0x41, 0xFF, *tok.encode("🌊")[:2]]  # cut, invalid, cut at the end
    for read_bytes in (2, 1 << 16):
        monkeypatch.setattr(cli, "READ_BYTES", read_bytes)
        stdin = json.dumps(ids).encode()
        assert run("decode", "--tokenizer", str(tok_dir), stdin=stdin)[1] == tok.decode(ids).encode()
        assert run("decode", "--tokenizer", str(tok_dir), "--bytes", stdin=stdin)[1] == tok.decode_bytes(ids)


@pytest.fixture(scope="module")
def scheme_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("schemes")
    text = CORPUS[:4000]
    dirs = {}
    for model in ("wordpiece", "unigram"):
        save_tokenizer(train_scheme(text, model=model, vocab_size=300), d / model)
        dirs[model] = d / model
    return dirs


@pytest.mark.parametrize("model", ["wordpiece", "unigram"])
def test_other_schemes_decode_in_blocks_as_their_decoders_do(
    scheme_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch, model: str
) -> None:
    tok = load_tokenizer(scheme_dirs[model], any_scheme=True)
    assert isinstance(tok, WordPieceTokenizer | UnigramTokenizer)
    ids = tok.encode(SAMPLE + " " + CORPUS[:2000])
    stdin = json.dumps(ids).encode()
    for read_bytes in (1, 7, 1 << 16):
        monkeypatch.setattr(cli, "READ_BYTES", read_bytes)
        code, back, err = run("decode", "--tokenizer", str(scheme_dirs[model]), stdin=stdin)
        assert (code, err) == (0, "") and back.decode() == tok.decode(ids), read_bytes


# ----- memory: decode of 2 million ids in a child process -----

LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:])
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss, os.waitstatus_to_exitcode(status), file=sys.stderr)
"""


def decode_peak_kb(tok_dir: Path, ids_file: Path, out_file: Path) -> int:
    """Peak RSS of ``python -m bpe_core decode < ids_file`` (KB), spawned through a small launcher:
    Linux counts the RSS of the process that spawns a child in the child's ``ru_maxrss``."""
    argv = [sys.executable, "-m", "bpe_core", "decode", "--tokenizer", str(tok_dir)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with open(ids_file, "rb") as fin, open(out_file, "wb") as fout:
        done = subprocess.run(
            [sys.executable, "-c", LAUNCHER, *argv],
            stdin=fin,
            stdout=fout,
            stderr=subprocess.PIPE,
            env=env,
            cwd=REPO,
            timeout=300,
        )
    *said, figures = done.stderr.decode().strip().splitlines()
    peak_kb, status = figures.split()
    assert status == "0", said
    return int(peak_kb)


def test_decode_of_two_million_ids_stays_within_a_memory_bound(tok_dir: Path, tmp_path: Path) -> None:
    """Before it streamed, decode held the list, its ints and the text: about 100 bytes an id (766 MB
    for 6.1 million ids); now its peak is that of a list of one id, give or take 20 MB."""
    tok = load_tokenizer(tok_dir)
    piece = SAMPLE + CORPUS[:2000]
    ids = tok.encode(piece)
    copies = 2_000_000 // len(ids) + 1
    one = ", ".join(map(str, ids)).encode()
    (tmp_path / "many.json").write_bytes(b"[" + b", ".join([one] * copies) + b"]")
    (tmp_path / "one.json").write_bytes(b"[72]")
    small = decode_peak_kb(tok_dir, tmp_path / "one.json", tmp_path / "one.txt")
    large = decode_peak_kb(tok_dir, tmp_path / "many.json", tmp_path / "many.txt")
    assert len(ids) * copies >= 2_000_000
    assert (tmp_path / "many.txt").read_bytes() == piece.encode() * copies  # the round trip, too
    assert large - small < 20 * 1024, (small, large)


# ----- a stream that fails: decode -----


def big_ids(tok: Tokenizer) -> list[int]:
    return tok.encode(CORPUS)  # thousands of ids: many blocks of 64 bytes


@pytest.mark.parametrize(
    "fault, message",
    [
        ("bad id", "token id 99999 is not in the vocabulary"),
        ("not a number", "stdin must hold a JSON list of whole numbers"),
        ("nested", "stdin must hold a flat JSON list of token ids"),
        ("cut short", "stdin must hold a JSON list of token ids"),
        ("trailing data", "stdin must hold a JSON list of token ids"),
    ],
)
@pytest.mark.parametrize("where", ["first block", "later block"])
@pytest.mark.parametrize("raw", [False, True])
def test_decode_that_fails_writes_whole_blocks_and_says_how_many_ids(
    tok_dir: Path, monkeypatch: pytest.MonkeyPatch, fault: str, message: str, where: str, raw: bool
) -> None:
    tok = load_tokenizer(tok_dir)
    ids = big_ids(tok) if where == "later block" else big_ids(tok)[:5]
    listed = json.dumps(ids).encode()
    stdin = {
        "bad id": listed[:-1] + b", 99999, 72]",
        "not a number": listed[:-1] + b", true, 72]",
        "nested": listed[:-1] + b", [72]]",
        "cut short": listed[:-1] + b", 72",
        "trailing data": listed + b" [72]",
    }[fault]
    monkeypatch.setattr(cli, "READ_BYTES", 64)
    argv = ["decode", "--tokenizer", str(tok_dir)] + (["--bytes"] if raw else [])
    code, out, err = run(*argv, stdin=stdin)
    line = error_line(err)
    assert code == 1 and line.startswith(message), err
    said = holds(line)
    if where == "first block":
        assert said is None and out == b""  # as before decode streamed: nothing written
        return
    assert said is not None, line
    count, size = said
    assert 0 < count <= len(ids) and size == len(out)
    if raw:
        assert out == tok.decode_bytes(ids[:count])
    else:  # the text of those ids, up to its last whole character
        whole = tok.decode_bytes(ids[:count])
        assert whole.startswith(out) and len(whole) - len(out) < 4
        out.decode("utf-8")


def test_decode_past_its_input_limit_says_what_it_wrote(tok_dir: Path) -> None:
    """An endless list of ids stops at the limit; an endless stream that is no list stops at once."""
    tok = load_tokenizer(tok_dir)
    ids = tok.encode("Hello world. ")
    endless = b"[" + b", ".join([", ".join(map(str, ids)).encode()] * 20_000) + b", "
    assert len(endless) > 200_000
    setup = "cli.MAX_IDS_BYTES = 100_000"
    code = f"import sys; from bpe_core import cli; {setup}; sys.exit(cli.main(sys.argv[1:]))"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    argv = [sys.executable, "-c", code, "decode", "--tokenizer", str(tok_dir)]
    done = subprocess.run(argv, input=endless, capture_output=True, env=env, timeout=60)
    line = error_line(done.stderr.decode())
    assert done.returncode == 1 and line.startswith("stdin: more than 100,000 bytes"), line
    said = holds(line)
    assert said is not None and said[1] == len(done.stdout) > 10_000, line
    assert done.stdout == tok.decode_bytes((ids * 20_000)[: said[0]])
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(argv, stdin=zeros, capture_output=True, env=env, timeout=60)
    assert (done.returncode, done.stdout) == (1, b"")
    assert error_line(done.stderr.decode()) == cli.NOT_IDS


def test_decode_of_a_lone_surrogate_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A vocabulary may hold text UTF-8 cannot write: the block that holds it is not written."""
    tok = WordPieceTokenizer(["[UNK]", "ok", "\ud800"])
    monkeypatch.setattr(cli, "load_tokenizer", lambda path, **kwargs: tok)
    monkeypatch.setattr(cli, "READ_BYTES", 4)
    code, out, err = run("decode", "--tokenizer", "T", stdin=b"[1, 1, 1, 1, 2]")
    line = error_line(err)
    assert code == 1 and line.startswith("the text holds U+D800, a lone surrogate"), line
    assert holds(line) == (4, len(out)) and out == b"ok ok ok ok"


class Closed(io.BytesIO):
    """stdout whose reader went away after ``room`` bytes."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, data) -> int:
        if self.tell() + len(data) > self.room:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(data)


@pytest.mark.parametrize("command", ["encode", "decode"])
def test_a_closed_stdout_is_one_line_that_says_it_is_cut_short(
    tok_dir: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    tok = load_tokenizer(tok_dir)
    monkeypatch.setattr(cli, "READ_BYTES", 64)
    monkeypatch.setattr(cli, "WRITE_IDS", 16)
    stdin = json.dumps(big_ids(tok)).encode() if command == "decode" else CORPUS.encode()
    argv = [command, "--tokenizer", str(tok_dir)] + (["--input", "-"] if command == "encode" else [])
    code, _, err = run(*argv, stdin=stdin, stdout=Closed(100))
    assert code == 1 and error_line(err) == "stdout: Broken pipe; what was written to it is cut short"


# ----- a stream that fails: encode -----


@pytest.mark.parametrize("fault", ["input limit", "invalid UTF-8"])
def test_encode_that_fails_after_writing_ends_its_list(
    tok_dir: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    """The ids written are a valid JSON list, the ids the whole text starts with, as many as it says."""
    tok = load_tokenizer(tok_dir)
    text = (CORPUS + EOT) * 20  # past encode's 64K-character buffer: ids are written before the end
    data = text.encode()
    if fault == "invalid UTF-8":
        data = data[:-1000] + b"\xff" + data[-1000:]
    monkeypatch.setattr(cli, "WRITE_IDS", 100)
    argv = ["encode", "--tokenizer", str(tok_dir), "--input", "-"]
    if fault == "input limit":
        argv += ["--max-input-bytes", str(len(data) - 1000)]
    code, out, err = run(*argv, stdin=data)
    line = error_line(err)
    first = "- (stdin): more than" if fault == "input limit" else "-, line"
    assert code == 1 and line.startswith(first), line
    found = re.search(r"; stdout holds the first ([\d,]+) ids, as a complete JSON list$", line)
    assert found, line
    ids = json.loads(out)
    assert len(ids) == int(found[1].replace(",", "")) > 10_000
    assert ids == tok.encode(text)[: len(ids)]
