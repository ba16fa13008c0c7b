"""Parallel pre-tokenization: fresh worker processes, never a fork, none left behind."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from collections import Counter
from pathlib import Path

import pytest

from bpe_core.pretokenizer import PreTokenizer, parallel, pretokenizer

ROOT = Path(__file__).resolve().parents[2]
TEXT = ("It's 2024.\nThe  cat sat; 机器学习!\n\n  indented\tline\r\n" * 300) + "<|endoftext|>tail"


def children() -> list[int]:
    """The pids of this process's living children (read from /proc) that it did not have before this test
    (under pytest-xdist, other files' tests in the same worker may have left a pool running)."""
    return [pid for pid in _children() if pid not in _BEFORE]


_BEFORE: set[int] = set()


@pytest.fixture(autouse=True)
def _children_before() -> None:
    """The children this process has when a test starts: not the test's to end."""
    _BEFORE.clear()
    _BEFORE.update(_children())


def _children() -> list[int]:
    me, out = os.getpid(), []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[1]) == me and fields[0] != "Z":
                out.append(int(entry))
    return out


def explode(text: str) -> list[str]:
    """A split that fails on text with "boom" in it (module level, so it pickles)."""
    if "boom" in text:
        raise ValueError(f"no chunks for {len(text)} characters")
    return text.split()


@pytest.fixture
def small_threshold(monkeypatch):
    monkeypatch.setattr(pretokenizer, "PARALLEL_MIN_CHARS", 1000)


def test_workers_are_never_forked(monkeypatch, small_threshold):
    """A fork of a threaded server inherits its locks and signal handlers: the pool must not fork."""

    def no_fork() -> int:
        raise AssertionError("os.fork was called: a forked worker can hang inside a threaded server")

    monkeypatch.setattr(os, "fork", no_fork)
    pre = PreTokenizer("gpt2", special_tokens=["<|endoftext|>"])
    assert pre.count_chunks(TEXT, workers=2) == pre.count_chunks(TEXT, workers=1)


def test_counting_in_a_thread_while_another_thread_holds_a_lock(small_threshold):
    """What the Streamlit server does: count in a script thread while other threads run."""
    lock = threading.Lock()
    lock.acquire()  # held for the whole count, as a server thread might hold one
    result: dict[str, object] = {}

    def count() -> None:
        result["counts"] = PreTokenizer("gpt2").count_chunks(TEXT, workers=2)[0]

    worker = threading.Thread(target=count)
    worker.start()
    worker.join(timeout=60)
    lock.release()
    assert not worker.is_alive(), "counting in a thread hung"
    assert result["counts"] == PreTokenizer("gpt2").count_chunks(TEXT, workers=1)[0]
    assert children() == []


def test_an_error_in_a_worker_is_raised_and_no_worker_is_left():
    with pytest.raises(ValueError, match="no chunks for"):
        parallel.count_parallel(explode, ["ab\ncd\n" * 500 + "boom\n" * 500], 2)  # the worker's half
    assert children() == []


def test_this_process_counts_the_first_batch_while_the_workers_start(monkeypatch):
    started: list[object] = []
    popen = subprocess.Popen

    def counted(*args, **kwargs):
        started.append(args)
        return popen(*args, **kwargs)

    monkeypatch.setattr(parallel.subprocess, "Popen", counted)
    texts = ["b\na\n" * 200 + "c\n", "d\nb\n" * 100]
    counts = parallel.count_parallel(PreTokenizer("whitespace").split, texts, 2)
    assert len(started) == 1  # two processes: this one and one worker
    serial: Counter[str] = Counter()
    for t in texts:
        serial.update(PreTokenizer("whitespace").split(t))
    assert counts == serial and list(counts) == list(serial)


def test_counts_keep_text_order_across_workers():
    texts = ["b\na\n" * 200 + "c\n", "d\nb\n" * 100]
    counts = parallel.count_parallel(PreTokenizer("whitespace").split, texts, 2)
    serial: Counter[str] = Counter()
    for t in texts:
        serial.update(PreTokenizer("whitespace").split(t))
    assert counts == serial and list(counts) == list(serial)


@pytest.mark.parametrize("workers", ["2", 0, -1, 1.5, True])
def test_workers_must_be_a_whole_number(workers):
    with pytest.raises(ValueError, match="workers must be a whole number"):
        PreTokenizer("gpt2").count_chunks("abc", workers=workers)


def test_a_script_that_trains_at_top_level_without_a_main_guard(tmp_path):
    """multiprocessing's spawn would run this script again in every worker, for ever."""
    script = tmp_path / "train_here.py"
    script.write_text(
        textwrap.dedent(
            """
            from bpe_core.pretokenizer import pretokenizer
            from bpe_core import train
            pretokenizer.PARALLEL_MIN_CHARS = 1000
            tok = train("the cat sat on the mat\\n" * 500, vocab_size=270, workers=2)
            print(len(tok.merges))
            """
        )
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "12"
