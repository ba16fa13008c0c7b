"""The server stays responsive while one heavy job runs: the health probe's latency during each job.

    python bench/bench_health.py [--tokens 800000] [--lab-mb 6] [--train-mb 9.5] [--jump 200]
                                 [--unigram-mb 1] [--which tiktoken,lab,train,unigram]

Starts ``streamlit run app.py`` on 127.0.0.1, probes ``/_stcore/health`` every
0.25 s from another client (a thread of this script), and in one headless
chromium runs one heavy job at a time:

- ``tiktoken``: uploads a generated ``.tiktoken`` file of ``--tokens`` tokens
  (800,000: 9.8 million bytes, under the upload cap, which the browser counts in millions of bytes;
  ``bench/make_tiktoken.py``) on the
  Tokenize page and waits for "Loaded";
- ``lab``: uploads a ``--lab-mb`` MB text to the Vocab-size lab and waits for
  its results;
- ``train``: uploads a ``--train-mb`` MB text to the Train page with pattern
  ``none`` and 20,000 merges, waits for its first steps on the stage, then
  jumps to step ``--jump`` (the trainer works in a session worker,
  :mod:`mergescope_ui.shared.workers.remote_trainer`);
- ``unigram``: uploads a ``--unigram-mb`` MB text to the Train page with the Unigram scheme (vocab
  8,000), waits for the seed on the stage, then steps to round 2 (the run and its views live in a
  session worker, :mod:`mergescope_ui.train.scheme_driver`).

For each job it prints the time to the result, the probes' p50, p99 and
maximum while it ran, how many probes got no answer within 2 s, the
server's CPU seconds and its peak RSS, and the job processes left after it
(there must be none).  Loopback only.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.spawned import Spawned  # noqa: E402
from tests.browser.load import text_file  # noqa: E402
from tests.browser.support import (  # noqa: E402
    children,
    chromium_page,
    cpu_seconds,
    missing_browser,
    open_app,
    rss_mb,
    streamlit_process,
    wait_idle,
)
from tests.engine.formats.support import rank_file  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from bench_train_schemes import corpus as schemes_corpus  # noqa: E402

PROBE_EVERY = 0.25


class Prober(threading.Thread):
    """Asks ``/_stcore/health`` every 0.25 s; keeps each answer's latency (s), inf for none in 2 s."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.stop = url + "/_stcore/health", threading.Event()
        self.latencies: list[float] = []

    def run(self) -> None:
        while not self.stop.is_set():
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(self.url, timeout=2.0) as answer:
                    answer.read()
                self.latencies.append(time.perf_counter() - started)
            except OSError:
                self.latencies.append(float("inf"))
            self.stop.wait(max(0.0, PROBE_EVERY - (time.perf_counter() - started)))


def _probe_loop(url: str, stop: Any, out: Any) -> None:
    """:class:`Prober`'s loop in a process of its own; sends the latencies when ``stop`` is set.  It starts a
    session of its own: Linux shares CPU between sessions first (autogroups), so a bench that lowers its own
    session's priority (``bench/bench_class.py``) does not lower the probe's."""
    with contextlib.suppress(OSError):
        os.setsid()
    prober = Prober(url)
    prober.stop = stop
    prober.run()
    out.send(prober.latencies)


class ProbeProcess(Spawned):
    """:class:`Prober` in a process of its own (spawned): a client process busy with a class (40 websocket
    students) would delay the probe's own requests with its interpreter lock, and count that as the
    server's.  ``start``, ``stop.set()``, ``join``, then ``latencies``."""

    def __init__(self, url: str) -> None:
        self.stop = self.context.Event()
        super().__init__(_probe_loop, url, self.stop)
        self.latencies: list[float] = []

    def join(self) -> None:
        self.latencies = super().join()


def summary(latencies: list[float]) -> str:
    done = sorted(x for x in latencies if x != float("inf"))
    lost = len(latencies) - len(done)
    if not done:
        return f"health: no answer to {lost} probes"
    p99 = done[min(len(done) - 1, int(0.99 * len(done)))]
    return (
        f"health over {len(latencies)} probes: p50 {1000 * statistics.median(done):.0f} ms, "
        f"p99 {1000 * p99:.0f} ms, max {1000 * done[-1]:.0f} ms, unanswered in 2 s: {lost}"
    )


def job(server, name: str, run) -> None:
    """Run one heavy job with the prober on; print its figures."""
    pid = server.process.pid
    prober = Prober(server.url)
    cpu, peak = cpu_seconds(pid), rss_mb(pid)
    prober.start()
    started = time.perf_counter()
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, rss_mb(pid))
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        run()
    finally:
        seconds = time.perf_counter() - started
        done.set()
        prober.stop.set()
        prober.join()
        sampler.join()
    pool = ("multiprocessing.forkserver", "multiprocessing.resource_tracker")
    left = [c for c in children(pid) if not any(p in c[1] for p in pool)]
    grand = [g for c in children(pid) for g in children(c[0])]
    print(f"{name}: result after {seconds:.1f} s; {summary(prober.latencies)}")
    print(
        f"  server CPU {cpu_seconds(pid) - cpu:.1f} s, RSS peak {peak:.0f} MB; "
        f"processes left: {len(left) + len(grand)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=800_000)
    parser.add_argument("--lab-mb", type=float, default=6.0)
    parser.add_argument("--train-mb", type=float, default=9.5)  # MiB: 9.96 million bytes, under the cap
    parser.add_argument("--jump", type=int, default=200)
    parser.add_argument("--unigram-mb", type=float, default=1.0)
    parser.add_argument("--which", default="tiktoken,lab,train,unigram")
    args = parser.parse_args()
    reason = missing_browser()
    if reason:
        print(f"needs chromium: {reason}")
        return 1
    which = set(args.which.split(","))
    with tempfile.TemporaryDirectory() as tmp, streamlit_process() as server:
        rank_path = Path(tmp) / "big.tiktoken"
        rank_path.write_bytes(rank_file(args.tokens, seed=28))
        lab_path = text_file(Path(tmp) / "lab.txt", args.lab_mb, seed=28)
        train_path = text_file(Path(tmp) / "train.txt", args.train_mb, seed=29)
        unigram_path = Path(tmp) / "unigram.txt"  # bench_train_schemes' text: some 40,000 distinct words a MB
        unigram_path.write_text(schemes_corpus(args.unigram_mb), encoding="utf-8")
        print(
            f"tiktoken file {rank_path.stat().st_size / 2**20:.1f} MB ({args.tokens:,} tokens); "
            f"lab text {lab_path.stat().st_size / 2**20:.1f} MB"
        )
        with chromium_page(width=1280, height=900) as browser_page:
            page: Any = browser_page
            open_app(page, f"{server.url}/home", heading="MergeScope")
            idle = Prober(server.url)
            idle.start()
            time.sleep(5)
            idle.stop.set()
            idle.join()
            print(f"idle: {summary(idle.latencies)}; RSS {rss_mb(server.process.pid):.0f} MB")
            if "tiktoken" in which:

                def tiktoken() -> None:
                    open_app(page, f"{server.url}/tokenize?tok=upload", heading="Tokenize")
                    files = page.locator('[data-testid="stMain"] input[type="file"]').first
                    files.set_input_files(str(rank_path))
                    page.get_by_text("Loaded big.tiktoken", exact=False).first.wait_for(timeout=600_000)
                    wait_idle(page, timeout=120_000)

                job(server, "tiktoken upload on the Tokenize page", tiktoken)
            if "lab" in which:

                def lab() -> None:
                    open_app(page, f"{server.url}/vocab-lab", heading="Vocab-size lab")
                    page.locator('[data-testid="stSidebar"] input[type="file"]').first.set_input_files(
                        str(lab_path)
                    )
                    millions = re.compile(r"Trained on \d,\d{3},\d{3} characters")  # the upload's run
                    page.get_by_text(millions).first.wait_for(timeout=600_000)
                    wait_idle(page, timeout=120_000)

                job(server, f"lab on a {args.lab_mb:g} MB upload", lab)
            if "train" in which:

                def train() -> None:
                    url = f"{server.url}/train?corpus=__upload__&pattern=none&merges=20000"
                    open_app(page, url, heading="Train")
                    page.locator('[data-testid="stSidebar"] input[type="file"]').first.set_input_files(
                        str(train_path)
                    )
                    page.get_by_text("tokens before any merge").first.wait_for(timeout=600_000)
                    wait_idle(page, timeout=600_000)
                    print(f"  first steps on the stage after {time.perf_counter() - started:.1f} s")
                    jump = page.locator("input.ms-jump-in").first
                    if args.jump and jump.count():
                        jump.fill(str(args.jump))
                        jump.press("Enter")
                        page.get_by_text(f"Merge {args.jump:,}", exact=False).first.wait_for(timeout=600_000)
                        wait_idle(page, timeout=600_000)

                started = time.perf_counter()
                job(server, f"Train page on a {args.train_mb:g} MB upload, pattern none", train)
            if "unigram" in which:

                def unigram() -> None:
                    url = f"{server.url}/train?corpus=__upload__&scheme=unigram&ug_vocab=8000"
                    open_app(page, url, heading="Train")
                    page.locator('[data-testid="stSidebar"] input[type="file"]').first.set_input_files(
                        str(unigram_path)
                    )
                    seed = page.locator(".ms-stage .ms-card h4").filter(has_text="The seed")
                    seed.first.wait_for(timeout=900_000)
                    print(f"  the seed on the stage after {time.perf_counter() - started:.1f} s")
                    for k in (1, 2):
                        page.get_by_role("button", name="Next ▶").click()
                        card = page.locator(".ms-stage .ms-card:not(.ms-wait) h4")
                        card.filter(has_text=f"Round {k}:").first.wait_for(timeout=900_000)
                        wait_idle(page, timeout=900_000)
                        print(f"  round {k} on the stage after {time.perf_counter() - started:.1f} s")
                    print("  (the run's worker stays while its session lives: one process left is it)")

                started = time.perf_counter()
                job(server, f"Train page, Unigram on a {args.unigram_mb:g} MB upload", unigram)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
