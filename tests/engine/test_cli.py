"""The command line: python -m bpe_core train | encode | decode | convert."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from bpe_core import cli, train
from bpe_core.formats import load_tokenizer
from bpe_core.pretokenizer import PreTokenizer
from bpe_core.training.corpus import Corpus
from tests.engine.formats.support import CORPUS, EOT, SAMPLE

REPO = Path(__file__).resolve().parent.parent


def run(*argv: str, stdin: bytes = b"") -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    code = cli.main(list(argv), stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def trained_dir(tmp_path: Path) -> Path:
    (tmp_path / "corpus.txt").write_bytes(CORPUS.encode())
    code, _, err = run(
        "train",
        str(tmp_path / "corpus.txt"),
        "--vocab-size",
        "400",
        "--special-token",
        EOT,
        "--pattern",
        "gpt4",
        "--out",
        str(tmp_path / "tok"),
    )
    assert code == 0, err
    return tmp_path / "tok"


def test_train_writes_every_file_and_a_summary(trained_dir: Path) -> None:
    assert sorted(p.name for p in trained_dir.iterdir()) == [
        "encoding.json",
        "merges.txt",
        "special_tokens_map.json",
        "tokenizer.json",
        "tokenizer.tiktoken",
        "vocab.json",
        "vocab.txt",
    ]
    tok = load_tokenizer(trained_dir)
    assert len(tok.vocab) == 400 and tok.special_tokens == {EOT: 256} and tok.pattern == "gpt4"


def test_train_options_reach_the_trainer(tmp_path: Path) -> None:
    (tmp_path / "c.txt").write_text("low low low lower lowest newest newest <a> <b>", encoding="utf-8")
    code, _, err = run(
        "train",
        str(tmp_path / "c.txt"),
        "--vocab-size",
        "300",
        "--pattern",
        "none",
        "--tie-break",
        "lowest-id",
        "--min-frequency",
        "3",
        "--special-token",
        "<a>",
        "<b>",
        "--out",
        str(tmp_path / "t"),
    )
    assert code == 0, err
    assert "the most frequent pair occurs fewer times than min_frequency" in err
    tok = load_tokenizer(tmp_path / "t")
    assert tok.special_tokens == {"<a>": 256, "<b>": 257} and tok.pattern == "none"
    assert [tok.vocab[i] for i in range(258, 258 + len(tok.merges))][:2] == [b"lo", b"low"]


def test_train_takes_files_globs_and_stdin_as_one_text(tmp_path: Path) -> None:
    """A file, a glob and - in one command train on their concatenation, in the order given;
    the special token is cut between stdin and the globbed files."""
    text = CORPUS + f"Tom sat.\r\n\r\n\n  Then{EOT}he ran.\n" * 20
    data = text.encode("utf-8")
    cut_a, cut_b = len(data) // 3, data.index(EOT.encode()) + 5  # inside <|endoftext|>
    assert cut_a < cut_b
    (tmp_path / "first.txt").write_bytes(data[:cut_a])
    (tmp_path / "rest-1.txt").write_bytes(data[cut_b : cut_b + 700])
    (tmp_path / "rest-2.txt").write_bytes(data[cut_b + 700 :])
    argv = ["--vocab-size", "330", "--special-token", EOT, "--quiet", "--out"]
    parts = [str(tmp_path / "first.txt"), "-", str(tmp_path / "rest-*.txt")]
    code, _, err = run("train", *parts, *argv, str(tmp_path / "parts"), stdin=data[cut_a:cut_b])
    assert code == 0, err
    (tmp_path / "whole.txt").write_bytes(data)
    code, _, err = run("train", str(tmp_path / "whole.txt"), *argv, str(tmp_path / "whole"))
    assert code == 0, err
    for name in ("merges.txt", "vocab.json"):
        assert (tmp_path / "parts" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()
    in_memory = train(text, vocab_size=330, special_tokens=[EOT])
    assert load_tokenizer(tmp_path / "parts").merges == in_memory.merges


def test_progress_lines_on_stderr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "PROGRESS_EVERY_SECONDS", 0.0)
    (tmp_path / "c.txt").write_text(CORPUS, encoding="utf-8")
    code, out, err = run(
        "train", str(tmp_path / "c.txt"), "--vocab-size", "300", "--out", str(tmp_path / "t")
    )
    assert code == 0 and out == b""
    lines = err.splitlines()
    size = len(CORPUS.encode())
    assert re.fullmatch(
        r"read \d+\.\d KB of \d+\.\d KB \(100%\), [\d,]+ pre-tokens counted, \d+\.\d s", lines[0]
    )
    corpus = Corpus.count(CORPUS, PreTokenizer("gpt2"))
    pretokens, distinct = sum(corpus.chunk_counts.values()), len(corpus.chunk_counts)
    assert lines[1].startswith(f"read {size:,} bytes: {pretokens:,} pre-tokens, {distinct:,} distinct, in ")
    assert lines[2] == "merge 1/44 (2%), " + lines[2].split(", ")[1]
    assert lines[-2].startswith("merge 44/44 (100%)") and lines[-1].startswith("trained 44 merges in ")
    code, _, err = run(
        "train", str(tmp_path / "c.txt"), "--vocab-size", "300", "--out", str(tmp_path / "t"), "--quiet"
    )
    assert code == 0 and err == ""


def test_encode_text_and_file_then_decode(trained_dir: Path, tmp_path: Path) -> None:
    tok = load_tokenizer(trained_dir)
    code, out, err = run("encode", "--tokenizer", str(trained_dir), "--text", SAMPLE)
    assert code == 0, err
    assert json.loads(out) == tok.encode(SAMPLE)
    (tmp_path / "in.txt").write_bytes(SAMPLE.encode())  # CRLF kept as is
    code, out_file, _ = run(
        "encode", "--tokenizer", str(trained_dir / "tokenizer.json"), "--input", str(tmp_path / "in.txt")
    )
    assert code == 0 and out_file == out
    code, text, _ = run("decode", "--tokenizer", str(trained_dir), stdin=out)
    assert code == 0 and text == SAMPLE.encode()
    half_char = json.dumps(tok.encode("自")[:1]).encode()
    assert run("decode", "--tokenizer", str(trained_dir), "--bytes", stdin=half_char)[1] == tok.decode_bytes(
        tok.encode("自")[:1]
    )


STREAMED = {
    "sample": SAMPLE,
    "empty": "",
    "specials and CRLF": f"a{EOT}{EOT}\r\n\r\n{EOT}b \n\n\n  x{EOT}",
    "CJK and emoji": "自然语言处理 🤷🏽‍♀️👩‍👩‍👧 霰龘。\n" * 3 + EOT + "Привет 🎉",
    "past the 64K buffer": (CORPUS + EOT) * 60,
}


@pytest.mark.parametrize("name", list(STREAMED))
def test_encode_input_streams_the_whole_file_output(
    trained_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Read in blocks of a few bytes (special tokens, characters and CRLF cut between blocks) and
    written a few ids at a time: byte for byte what encoding the whole file writes."""
    tok = load_tokenizer(trained_dir)
    text = STREAMED[name]
    whole = (json.dumps(tok.encode(text)) + "\n").encode()  # what encode --input wrote before it streamed
    (tmp_path / "in.txt").write_bytes(text.encode())
    monkeypatch.setattr(cli, "WRITE_IDS", 3)
    for read_bytes in (1, 2, 3, 5, 13) if len(text) < 1000 else (7, 4093):
        monkeypatch.setattr(cli, "READ_BYTES", read_bytes)
        for source, stdin in ((str(tmp_path / "in.txt"), b""), ("-", text.encode())):
            code, out, err = run("encode", "--tokenizer", str(trained_dir), "--input", source, stdin=stdin)
            assert (code, err) == (0, "")
            assert out == whole, (read_bytes, source)


def whole_file_utf8_error(path: str, data: bytes) -> str:
    """The message of encode --input when it read the whole file (the code before it streamed)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return (
            f"error: {path}, line {line}: byte 0x{data[exc.start]:02X} at offset {exc.start} is not valid "
            "UTF-8; convert the file to UTF-8\n"
        )
    raise AssertionError("valid UTF-8")


@pytest.mark.parametrize(
    "data",
    [
        b"ok\n\xff",
        b"\xe6\x97x",  # a character cut short by another
        b"a\nb\r\n" + "自".encode()[:2],  # and by the end of the file
        "é\n".encode() * 40 + b"\xc3(\n",
        "🤷".encode()[:3] + b"\n",
        b"\xed\xa0\x80",  # a surrogate in UTF-8
    ],
    ids=["0xFF", "cut short", "cut at the end", "line 41", "emoji cut", "surrogate"],
)
def test_encode_input_names_an_invalid_byte_as_before(
    trained_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    path = str(tmp_path / "bad.txt")
    Path(path).write_bytes(data)
    for read_bytes in (1, 2, 3, 4, 1 << 16):
        monkeypatch.setattr(cli, "READ_BYTES", read_bytes)
        for source, stdin in ((path, b""), ("-", data)):
            code, out, err = run("encode", "--tokenizer", str(trained_dir), "--input", source, stdin=stdin)
            assert (code, out) == (1, b"")
            assert err == whole_file_utf8_error(source, data), read_bytes


class Endless(io.RawIOBase):
    """stdin of ``size`` bytes of lines, made as they are read; counts what was read."""

    def __init__(self, size: int) -> None:
        self.size, self.read_so_far = size, 0
        self.line = "The keeper lit the lamp, 灯塔 🌊.\r\n".encode()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.size - self.read_so_far)
        data = (self.line * (n // len(self.line) + 1))[:n]  # whole lines: every block starts a line
        buffer[:n] = data
        self.read_so_far += n
        return n


class FirstWrite(io.BytesIO):
    """stdout that stops the command at its first write, noting how much stdin had been read."""

    def __init__(self, stdin: Endless) -> None:
        super().__init__()
        self.stdin, self.read_at_first_write = stdin, None

    def write(self, data) -> int:
        self.read_at_first_write = self.stdin.read_so_far
        raise KeyboardInterrupt  # not an error main() catches


def test_encode_input_writes_ids_before_the_input_ends(trained_dir: Path) -> None:
    """50 MB on stdin: the first ids are out after about one 64K buffer has been read."""
    stdin = Endless(50_000_000)
    stdout = FirstWrite(stdin)
    argv = ["encode", "--tokenizer", str(trained_dir), "--input", "-"]
    with pytest.raises(KeyboardInterrupt):
        cli.main(argv, stdin=io.BufferedReader(stdin), stdout=stdout, stderr=io.StringIO())
    assert stdout.read_at_first_write is not None and stdout.read_at_first_write < 1_000_000


class Sink(io.RawIOBase):
    """stdout that keeps only a count of the bytes written."""

    written = 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.written += len(data)
        return len(data)


def test_encode_input_memory_does_not_grow_with_the_file(
    trained_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """0.24 MB and 1.07 MB files through encode --input: the same peak (about 4.3 MB: the 64K-character
    buffer's chunks and ids).  Reading a file whole held its bytes, its text and all its ids.

    The tokenizer is loaded once, before tracing: only the encoding is measured."""
    tok = load_tokenizer(trained_dir)
    monkeypatch.setattr(cli, "load_tokenizer", lambda path, **kwargs: tok)
    line = "The keeper lit the lamp, 灯塔 🌊, line {}.\r\n"

    def peak(lines: int) -> tuple[int, int]:
        data = "".join(line.format(i % 500) for i in range(lines)).encode()
        (tmp_path / "big.txt").write_bytes(data)
        out = Sink()
        tracemalloc.start()
        try:
            code = cli.main(["encode", "--tokenizer", "T", "--input", str(tmp_path / "big.txt")], stdout=out)
            top = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert code == 0 and out.written > len(data) // 2
        return len(data), top

    (small_size, small), (large_size, large) = peak(5_000), peak(22_000)
    assert large_size > 4 * small_size and large < 1.2 * small + 100_000, (small, large)


def test_tiktoken_source_needs_its_special_tokens_and_pattern(trained_dir: Path) -> None:
    rank_file = str(trained_dir / "tokenizer.tiktoken")
    (trained_dir / "encoding.json").unlink()  # the rank file alone: pattern and special tokens given here
    want = load_tokenizer(trained_dir).encode(SAMPLE)
    code, out, err = run(
        "encode",
        "--tokenizer",
        rank_file,
        "--pattern",
        "gpt4",
        "--special-token",
        f"{EOT}=256",
        "--text",
        SAMPLE,
    )
    assert code == 0, err
    assert json.loads(out) == want
    code, out, err = run(
        "convert", rank_file, "--pattern", "gpt4", "--to", "hf-json", "--out", str(trained_dir / "x.json")
    )
    assert code == 1 and "no token has id 256" in err and "special_tokens" in err
    assert run("encode", "--tokenizer", rank_file, "--special-token", "nope", "--text", "x")[0] == 2


@pytest.mark.parametrize("fmt", ["gpt2", "hf-json", "tiktoken", "minbpe", "vocab-txt", "all"])
def test_convert(trained_dir: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / ("conv" if fmt in ("gpt2", "all") else f"conv.{fmt}")
    extra = ["--renumber"] if fmt == "minbpe" else []
    code, _, err = run("convert", str(trained_dir), "--to", fmt, "--out", str(out), *extra)
    assert code == 0, err
    assert err.startswith("wrote ")
    if fmt == "vocab-txt":
        assert out.read_text(encoding="utf-8") == (trained_dir / "vocab.txt").read_text(encoding="utf-8")
        return
    kwargs = {"pattern": "gpt4"} if fmt in ("gpt2", "tiktoken") else {}
    if fmt == "tiktoken":
        kwargs["special_tokens"] = {EOT: 256}
    back = load_tokenizer(out.with_suffix(".tiktoken") if fmt == "tiktoken" else out, **kwargs)
    original = load_tokenizer(trained_dir)
    if fmt == "minbpe":  # renumbered: same tokens, other ids
        assert [back.vocab[i] for i in back.encode(SAMPLE)] == [
            original.vocab[i] for i in original.encode(SAMPLE)
        ]
    else:
        assert back.encode(SAMPLE) == original.encode(SAMPLE)


@pytest.mark.parametrize(
    "argv, stdin, message",
    [
        (
            ["encode", "--tokenizer", "/no/such/dir", "--text", "x"],
            b"",
            "error: /no/such/dir: does not exist",
        ),
        (["decode", "--tokenizer", "TOK"], b"[1, 2", "error: stdin must hold a JSON list of token ids"),
        (
            ["decode", "--tokenizer", "TOK"],
            b"[1, true]",
            "error: stdin must hold a JSON list of whole numbers",
        ),
        (["decode", "--tokenizer", "TOK"], b"[99999]", "error: token id 99999 is not in the vocabulary"),
        (["encode", "--tokenizer", "TOK", "--text", "\udcff"], b"", "error: "),
        (
            ["encode", "--tokenizer", "TOK", "--input", "BAD"],
            b"",
            "BAD, line 2: byte 0xFF at offset 3 is not valid UTF-8",
        ),
        (
            ["train", "BAD", "--vocab-size", "300", "--out", "X"],
            b"",
            "error: BAD, line 2: byte 0xFF at offset 3",
        ),
        (["train", "-", "--vocab-size", "10", "--out", "X"], b"abc", "error: vocab_size is 10"),
        (["convert", "TOK", "--to", "minbpe", "--out", "X"], b"", "renumber"),
    ],
)
def test_errors_are_one_line(
    trained_dir: Path, tmp_path: Path, argv: list[str], stdin: bytes, message: str
) -> None:
    (tmp_path / "bad.txt").write_bytes(b"ok\n\xff")
    argv = [
        a.replace("TOK", str(trained_dir))
        .replace("BAD", str(tmp_path / "bad.txt"))
        .replace("X", str(tmp_path / "x"))
        for a in argv
    ]
    code, out, err = run(*argv, stdin=stdin)
    assert code == 1 and out == b""
    last = err.splitlines()[-1]  # train may have said "read ..." first
    assert (
        sum(ln.startswith("error: ") for ln in err.splitlines()) == 1
        and last.startswith("error: ")
        and message.replace("BAD", str(tmp_path / "bad.txt")) in last
    ), err
    assert "Traceback" not in err


def test_decode_of_deeply_nested_lists_is_one_error_line(trained_dir: Path) -> None:
    code, out, err = run("decode", "--tokenizer", str(trained_dir), stdin=b"[" * 100_000 + b"]" * 100_000)
    assert (code, out) == (1, b"")
    assert err == "error: stdin must hold a flat JSON list of token ids, e.g. [72, 101]\n"


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("encode", "--tokenizer", "d", "--text", "x", "--special-token", "<|x|>=10²")[0] == 2
    assert run("encode", "--tokenizer", "d", "--text", "x", "--special-token", "<|x|>=١٠٠")[0] == 2
    assert "is not T=ID" in capsys.readouterr().err
    assert run("train", "x.txt", "--out", "d")[0] == 2  # no --vocab-size
    assert run("encode", "--tokenizer", "d")[0] == 2  # neither --text nor --input
    assert run("convert", "d", "--to", "yaml", "--out", "x")[0] == 2
    assert "--vocab-size" in capsys.readouterr().err


def test_python_dash_m_end_to_end(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    (tmp_path / "c.txt").write_bytes(CORPUS.encode())

    def sh(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "bpe_core", *argv], input=stdin, capture_output=True, env=env, timeout=120
        )

    assert sh("--help").returncode == 0
    done = sh(
        "train",
        str(tmp_path / "c.txt"),
        "--vocab-size",
        "330",
        "--special-token",
        EOT,
        "--out",
        str(tmp_path / "t"),
    )
    assert done.returncode == 0 and b"trained 73 merges" in done.stderr
    ids = sh("encode", "--tokenizer", str(tmp_path / "t"), "--text", SAMPLE)
    assert ids.returncode == 0 and ids.stdout.endswith(b"]\n")
    text = sh("decode", "--tokenizer", str(tmp_path / "t"), stdin=ids.stdout)
    assert text.returncode == 0 and text.stdout == SAMPLE.encode()
    bad = sh("encode", "--tokenizer", str(tmp_path / "nope"), "--text", "x")
    assert bad.returncode == 1 and bad.stderr.startswith(b"error: ") and b"Traceback" not in bad.stderr
