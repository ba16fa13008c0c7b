"""``python -m bpe_core health`` and ``selftest``: the engine's findings as JSON ids, the self-test's
table and exit status, and one-line errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_core import cli, train, train_scheme
from bpe_core.analysis.health import FINDINGS, check_health
from bpe_core.analysis.selftest import COLUMNS, cases
from bpe_core.formats import load_tokenizer, save_tokenizer
from bpe_core.tokenizer import Tokenizer

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
TEXT = (CORPORA / "lighthouse_story.txt").read_text(encoding="utf-8")


def run(*argv: str, stdin: bytes = b"") -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    code = cli.main(list(argv), stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def bpe_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("bpe")
    save_tokenizer(train(TEXT, vocab_size=400, special_tokens=["<|endoftext|>"]), directory)
    return directory


def test_health_prints_each_findings_ids_as_the_engine_finds_them(bpe_dir, tmp_path):
    sample = tmp_path / "sample.txt"
    sample.write_text(TEXT[:800], encoding="utf-8")
    code, out, err = run("health", "--tokenizer", str(bpe_dir), "--text", str(sample))
    assert code == 0, err
    data = json.loads(out)
    expected = check_health(load_tokenizer(bpe_dir), text=TEXT[:800])
    assert {k: data[k] for k in FINDINGS} == expected.ids()
    assert data["scheme"] == "bpe" and data["reference_tokens"] == expected.reference_tokens
    assert len(data["unreachable"]) == 13 and len(data["unused"]) > 100 and data["special_from_text"]
    # the same text from stdin, and the reasons with --why
    code, out, _ = run(
        "health", "--tokenizer", str(bpe_dir), "--text", "-", "--why", stdin=TEXT[:800].encode()
    )
    why = json.loads(out)["why"]
    assert why["unreachable"][0] == {
        "id": 192,
        "piece": "À",
        "bytes": "\xc0",
        "why": "byte 0xC0 is in no UTF-8 text",
    }
    assert [f["id"] for f in why["unused"]] == data["unused"]


def test_health_without_text_has_no_unused(bpe_dir):
    code, out, _ = run("health", "--tokenizer", str(bpe_dir))
    data = json.loads(out)
    assert code == 0 and data["unused"] == [] and data["reference_tokens"] is None


def test_selftest_passes_a_byte_level_tokenizer_and_prints_the_table(bpe_dir):
    code, out, err = run("selftest", "--tokenizer", str(bpe_dir))
    lines = out.decode("utf-8").splitlines()
    assert code == 0, err
    assert lines[0].split("\t") == list(COLUMNS)
    assert len(lines) == 1 + len(cases(load_tokenizer(bpe_dir)))
    assert all(line.split("\t")[3] == "pass" for line in lines[1:])


def test_selftest_exits_1_when_a_byte_level_case_fails(bpe_dir, monkeypatch):
    monkeypatch.setattr(Tokenizer, "decode", lambda self, ids: self.decode_bytes(ids).decode().upper())
    code, out, err = run("selftest", "--tokenizer", str(bpe_dir))
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("error: ") and "do not round-trip" in err
    assert "\tfail\tthe decoded text differs from character 0 on" in out.decode()


def test_selftest_of_wordpiece_fails_cases_but_exits_0_and_says_why(tmp_path):
    save_tokenizer(train_scheme(TEXT, model="wordpiece", vocab_size=300), tmp_path)
    code, out, _ = run("selftest", "--tokenizer", str(tmp_path / "vocab.txt"))
    table = out.decode("utf-8")
    assert code == 0
    assert "'。'\t1\t1\tfail\t1 character in 1 place became [UNK] (no piece covers them)" in table


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["health", "--tokenizer", "/nonexistent"], "error: /nonexistent: does not exist"),
        (["selftest", "--tokenizer", "/nonexistent"], "error: /nonexistent: does not exist"),
        (["health", "--tokenizer", "{dir}", "--text", "/nonexistent.txt"], "error: /nonexistent.txt: "),
        (["health", "--tokenizer", "{dir}", "--text", "-"], "error: -, line 1: byte 0xFF at offset 0"),
    ],
)
def test_errors_are_one_line(bpe_dir, argv, message):
    code, out, err = run(*[a.format(dir=bpe_dir) for a in argv], stdin=b"\xff")
    assert code == 1 and out == b""
    assert err.startswith(message) and err.count("\n") == 1, err


def test_the_module_runs_as_a_command(bpe_dir):
    done = subprocess.run(
        [sys.executable, "-m", "bpe_core", "selftest", "--tokenizer", str(bpe_dir)],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.decode().count("\tpass\t") == len(
        cases(load_tokenizer(bpe_dir))
    )
