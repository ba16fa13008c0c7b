"""Custom split patterns: refused before they can eat memory, stopped when they backtrack for ever.

The catastrophic pattern of the issue is ``(a|a)+$`` on ``"a" * 34 + "!"``: it
tries 2**34 ways to match.  Without a time limit it keeps a thread at 100% for
good, so the cases that could hang run in a child process with a timeout: on
code without the limit they fail instead of hanging the test run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from bpe_core import load_tokenizer, save_tokenizer, train
from bpe_core.pretokenizer import PreTokenizer, resolve_pattern

ROOT = Path(__file__).resolve().parents[2]
CATASTROPHIC = r"(a|a)+$"
EVIL_TEXT = "a" * 34 + "!"
# More than the one second the limit gives, less than a hang: the child is killed after this.
HANG = 30


def run_child(code: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python; a hang past :data:`HANG` seconds fails the test."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=HANG,
            env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {HANG} s: the pattern ran without a time limit")


def test_training_with_a_catastrophic_pattern_stops_with_a_clear_message():
    done = run_child(
        f"""
        import threading
        from bpe_core import train
        try:
            train({EVIL_TEXT!r}, vocab_size=300, pattern={CATASTROPHIC!r})
        except ValueError as exc:
            print(type(exc).__name__, exc)
        print("threads", threading.active_count())
        """
    )
    assert "PatternTimeout the split pattern '(a|a)+$' was stopped after 1.0 s" in done.stdout, done.stderr
    assert "simplify it" in done.stdout
    assert "threads 1" in done.stdout  # nothing left running


def test_encoding_with_a_catastrophic_pattern_from_a_file_stops(tmp_path):
    """The pattern inside an uploaded tokenizer.json (Split) loads, then is stopped on encode."""
    save_tokenizer(train("hello world", vocab_size=260, pattern=r"\w+|\s+"), tmp_path)
    path = tmp_path / "tokenizer.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = CATASTROPHIC + r"|\w+|\s+"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run_child(
        f"""
        from bpe_core import load_tokenizer
        tok = load_tokenizer({str(path)!r})
        try:
            tok.encode({EVIL_TEXT!r})
        except ValueError as exc:
            print(exc)
        """
    )
    assert "was stopped after 1.0 s on 35 characters" in done.stdout, done.stderr


def test_a_minbpe_pattern_is_limited_too(tmp_path):
    path = tmp_path / "evil.model"
    path.write_text(f"minbpe v1\n{CATASTROPHIC}\n0\n97 97\n", encoding="utf-8")
    done = run_child(
        f"""
        from bpe_core import load_tokenizer
        try:
            load_tokenizer({str(path)!r}).encode({EVIL_TEXT!r})
        except ValueError as exc:
            print(exc)
        """
    )
    assert "was stopped after 1.0 s" in done.stdout, done.stderr


def test_the_cli_stops_with_one_error_line(tmp_path):
    corpus = tmp_path / "evil.txt"
    corpus.write_text(EVIL_TEXT, encoding="utf-8")
    done = run_child(
        "from bpe_core.cli import main; import sys; sys.exit(main(sys.argv[1:]))",
        *("train", str(corpus), "--vocab-size", "300", "--pattern", CATASTROPHIC, "--quiet"),
        *("--out", str(tmp_path / "out")),
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error: the split pattern '(a|a)+$' was stopped after 1.0 s")
    assert "Traceback" not in done.stderr


def test_no_thread_is_left_in_this_process():
    from bpe_core.pretokenizer.safe_regex import PatternTimeout

    before = threading.active_count()
    with pytest.raises(PatternTimeout):
        PreTokenizer(CATASTROPHIC).chunks(EVIL_TEXT)
    assert threading.active_count() == before


def test_one_limit_covers_every_piece_of_a_text(monkeypatch):
    """Pieces between special tokens share the text's deadline: a slow piece each cannot add up."""
    from bpe_core.pretokenizer.safe_regex import current_limit

    tok = train("ab<|x|>ab", vocab_size=257, pattern=r"\w+", special_tokens=["<|x|>"])
    seen = []
    split = PreTokenizer.split

    def recording(self, text):
        seen.append(current_limit(len(text)))
        return split(self, text)

    monkeypatch.setattr(PreTokenizer, "split", recording)
    tok.encode("ab<|x|>cd<|x|>ef<|x|>gh")
    assert len(seen) == 4 and len({id(limit) for limit in seen}) == 1
    seen.clear()
    PreTokenizer(r"\w+", special_tokens=["<|x|>"]).count_chunks("ab<|x|>cd<|x|>ef")
    assert len(seen) == 3 and len({id(limit) for limit in seen}) == 1


def test_the_limit_grows_with_the_text_and_an_outer_one_wins():
    from bpe_core.pretokenizer import safe_regex
    from bpe_core.pretokenizer.safe_regex import current_limit, time_limit

    assert safe_regex.budget(0) == 1.0 and safe_regex.budget(10_000_000) == 11.0
    with time_limit(100) as outer, time_limit(10_000_000) as inner:
        assert inner is outer and current_limit(5) is outer
    assert current_limit(5) is not outer


def test_named_patterns_run_without_a_limit():
    assert PreTokenizer(r"\w+")._limited
    assert not PreTokenizer("gpt2")._limited and not PreTokenizer("o200k")._limited


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        (r"(?:a{1000}){1000}", "repeats counted parts 1,000,000 times over"),
        (r"(?:(?:a{100}){100}){100}", "repeats counted parts"),
        (r"a{20000}", "repeats counted parts 20,000 times"),
        ("(" * 400 + "a" + ")" * 400, "nests too deeply"),
        ("a|" * 3000 + "b", "characters long, over the 5,000"),
    ],
    ids=["1000x1000", "100x100x100", "20000", "nested-400", "6001-chars"],
)
def test_patterns_that_would_eat_memory_or_the_stack_are_refused_before_compiling(pattern, message):
    with pytest.raises(ValueError, match=message) as info:
        resolve_pattern(pattern)
    assert len(str(info.value)) < 400  # the pattern is quoted as a short excerpt


def test_ordinary_counted_repeats_are_fine():
    assert PreTokenizer(r"\p{N}{1,3}|[a-z]{2,10}|\s+").chunks("ab 12345") == ["ab", " ", "123", "45"]


def test_a_custom_pattern_from_a_file_that_is_too_big_is_a_file_error(tmp_path):
    path = tmp_path / "big.model"
    path.write_text("minbpe v1\n(?:x{1000}){1000}\n0\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"big\.model, line 2: pattern .* repeats counted parts"):
        load_tokenizer(path)
