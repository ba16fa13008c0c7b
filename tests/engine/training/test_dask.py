"""Counting on Dask gives the counts, and so the merges, of one process; Dask stays optional.

The cluster tests need the optional extra (requirements-dask.txt, which .ci/run installs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_core import Trainer, TrainOptions
from bpe_core.pretokenizer import PreTokenizer
from bpe_core.training import corpus_dask
from bpe_core.training.corpus import Corpus
from bpe_core.training.corpus_dask import count_files_dask
from bpe_core.training.corpus_files import Progress
from tests.engine.training.test_files import TEXT, files  # noqa: F401 (a fixture)

REPO = Path(__file__).resolve().parents[3]
HAVE_DASK = (
    subprocess.run([sys.executable, "-c", "import dask.distributed"], capture_output=True).returncode == 0
)
needs_dask = pytest.mark.skipif(
    not HAVE_DASK and os.environ.get("CI") != "true",  # in CI a missing extra fails the tests instead
    reason="Dask is an optional extra: pip install -r requirements-dask.txt (CI installs it)",
)


@needs_dask
def test_a_local_cluster_counts_ranges_and_reduces_them_in_file_order(files):  # noqa: F811
    options = TrainOptions(
        vocab_size=380, pattern="gpt4", special_tokens=("<|endoftext|>",), tie_break="first-seen"
    )
    seen: list[Progress] = []
    corpus = count_files_dask(
        files,
        options.pretokenizer(),
        scheduler="local",
        processes=False,  # threads: the cluster starts in a tenth of a second (the CLI test uses processes)
        workers=2,
        range_bytes=700,
        block_bytes=200,
        progress=seen.append,
    )
    whole = Corpus.count(TEXT, options.pretokenizer())
    assert list(corpus.chunk_counts.items()) == list(whole.chunk_counts.items())
    assert corpus.special_counts == whole.special_counts and corpus.bytes == whole.bytes
    assert Trainer(corpus, options).run().merges == Trainer(TEXT, options).run().merges
    ranges = sum(-(-f.stat().st_size // 700) for f in files)
    assert len(seen) == ranges and seen[-1].bytes_read == seen[-1].total_bytes == len(TEXT.encode())


@needs_dask
def test_cli_dask_local_trains_what_one_process_trains(files, tmp_path):  # noqa: F811
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def train(*extra: str, out: str) -> subprocess.CompletedProcess[bytes]:
        argv = [sys.executable, "-m", "bpe_core", "train", *map(str, files), "--vocab-size", "330"]
        cmd = [*argv, "--out", str(tmp_path / out), *extra]
        return subprocess.run(cmd, capture_output=True, env=env, timeout=120)

    dask_run = train("--dask", "local", out="dask")
    assert dask_run.returncode == 0, dask_run.stderr.decode()
    assert train(out="one").returncode == 0
    for name in ("merges.txt", "vocab.json"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()


@needs_dask
def test_an_existing_scheduler_given_by_its_tcp_address(files):  # noqa: F811
    import logging

    from dask.distributed import LocalCluster

    pre = PreTokenizer("gpt2", special_tokens=["<|endoftext|>"])
    with LocalCluster(
        n_workers=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        corpus = count_files_dask(files, pre, scheduler=address, range_bytes=3000)
    assert list(corpus.chunk_counts.items()) == list(Corpus.count(TEXT, pre).chunk_counts.items())


@needs_dask
def test_an_unreachable_scheduler_is_one_clear_error(files, monkeypatch):  # noqa: F811
    monkeypatch.setattr(corpus_dask, "CONNECT_SECONDS", 1)
    with pytest.raises(ValueError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
        count_files_dask(files, PreTokenizer("gpt2"), scheduler="tcp://127.0.0.1:9")


def test_without_dask_the_message_says_how_to_install_it(files, monkeypatch):  # noqa: F811
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if it were not installed
    with pytest.raises(ValueError, match=r"Dask is not installed; pip install -r requirements-dask\.txt"):
        count_files_dask(files, PreTokenizer("gpt2"), scheduler="local")


def test_bad_scheduler_and_stdin_are_refused(files, monkeypatch):  # noqa: F811
    monkeypatch.setattr(corpus_dask, "_import_distributed", lambda: None)
    with pytest.raises(ValueError, match="neither 'local' nor an address like tcp://HOST:PORT"):
        count_files_dask(files, PreTokenizer("gpt2"), scheduler="127.0.0.1")
    with pytest.raises(ValueError, match="stdin"):
        count_files_dask(["-"], PreTokenizer("gpt2"), scheduler="local")


def test_neither_the_engine_nor_the_app_imports_dask():
    code = (
        "import sys, bpe_core.cli, mergescope_ui\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
