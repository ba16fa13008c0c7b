"""A class on one server (loopback only): step latency, health probe, CPU and memory before/during/after.

    python bench/bench_class.py [--students 40] [--steps 20] [--every 1.5] [--arrive 10] [--uploaders 5]
                                [--heavy 2]
                                [--upload-mb 1] [--heavy-mb 9.5] [--heavy-on train|lab] [--after 60]
                                [--students-as ws|browser]

Starts ``streamlit run app.py`` on 127.0.0.1 (sessions dropped 5 s after their
browser closes and cached results kept 5 s, as ``bench/bench_load.py`` does,
so "after" comes sooner), probes ``/_stcore/health`` every 0.25 s from a process
client, and runs the class at once:

- ``--students`` students open the teacher's link to the Train page and step
  it ``--steps`` times, one press every ``--every`` seconds (each arriving at
  a moment of the first ``--arrive`` seconds): by default as
  websocket clients that send what the stage sends (``bench/ws_steppers.py``:
  40 browser contexts on 2 cores load the machine past 30 with their own
  drawing), in a process and session of their own at the usual priority (in
  the bench's process, chromium's driver held their interpreter lock: they
  timed their own waits, up to 4.7 s, as the server's); ``--students-as
  browser``, a headless chromium context each
  (:func:`tests.browser.load.classroom`, press to the step drawn);
- ``--uploaders`` sessions upload a ``--upload-mb`` MB text to the Vocab-size lab
  and ``--heavy`` more a ``--heavy-mb`` MB one (heavy jobs: they train in
  worker processes), to the Train page with pattern ``none`` (``--heavy-on
  train``, the default: a session worker each) or to the lab, in chromium.

Prints p50/p95 step latency (websocket students: from the stage's report to
the end of the runs it starts, for the reports that ask for a window and for
the "settled" ones the stage sends 450 ms after a press), how late the
students' own loop woke (a check of that figure: a late wake-up is the
client's, not the server's), the health probe's p50/p99/max while the class
runs, and the server's CPU (its own process, and its worker processes) and
RSS before, during (peak) and ``--after`` seconds after the class left.

Prints figures; asserts nothing.  Needs chromium and playwright.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_health import ProbeProcess, summary  # noqa: E402
from bench.ws_steppers import StudentsProcess  # noqa: E402
from tests.browser.load import (  # noqa: E402
    SHORT_CACHE,
    SHORT_LIFETIMES,
    TRAIN_URL,
    classroom,
    settle,
    text_file,
)
from tests.browser.support import children, cpu_seconds, missing_browser, rss_mb, streamlit_process  # noqa: E402


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and of its children and theirs, alive now (ended ones are not counted)."""
    total = 0.0
    for p in [pid, *[c for c, _ in children(pid)], *[g for c, _ in children(pid) for g, _ in children(c)]]:
        with contextlib.suppress(OSError):  # it ended meanwhile
            total += cpu_seconds(p)
    return total


class CpuSampler(threading.Thread):
    """The server's own CPU use over time (percent of one core) and its peak RSS, sampled every second."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.stop = pid, threading.Event()
        self.samples: list[float] = []
        self.rss_peak = 0.0  # MB

    def run(self) -> None:
        last, at = cpu_seconds(self.pid), time.perf_counter()
        while not self.stop.wait(1.0):
            now, t = cpu_seconds(self.pid), time.perf_counter()
            self.samples.append(100 * (now - last) / (t - at))
            with contextlib.suppress(OSError):
                self.rss_peak = max(self.rss_peak, rss_mb(self.pid))
            last, at = now, t


CLIENT_NICE = 19


class ClientPriority(threading.Thread):
    """Keeps this process and all it starts (the websocket students, playwright, chromium) at the lowest CPU
    priority, every 0.5 s for the processes started since: the students' devices are their own in a class.

    Linux shares the CPU between sessions first (autogroups: ``/proc/sys/kernel/sched_autogroup_enabled``)
    and a process's nice value only counts within its session; the server runs in a session of its own,
    and so does chromium (playwright starts it detached).  So each client's session is lowered through
    ``/proc/<pid>/autogroup``, and its own nice value too (for a kernel without autogroups)."""

    def __init__(self, *, spare: set[int]) -> None:
        super().__init__(daemon=True)
        self.spare, self.stop = spare, threading.Event()
        self.lowered: set[int] = set()

    def run(self) -> None:
        while True:
            todo = [os.getpid()]
            while todo:
                pid = todo.pop()
                if pid in self.spare:
                    continue
                if pid not in self.lowered:
                    self._lower(pid)
                todo += [child for child, _ in children(pid)]
            if self.stop.wait(0.5):
                return

    def _lower(self, pid: int) -> None:
        with contextlib.suppress(OSError):  # it ended meanwhile, or no autogroups here
            Path(f"/proc/{pid}/autogroup").write_text(f"{CLIENT_NICE}\n")
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, pid, CLIENT_NICE)
        self.lowered.add(pid)


def _spread(seconds: list[float]) -> str:
    """p50, p95 and max of ``seconds``, in ms."""
    if not seconds:
        return "none"
    ms = sorted(1000 * x for x in seconds)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"p50 {ms[len(ms) // 2]:.0f} ms, p95 {p95:.0f} ms, max {ms[-1]:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--every", type=float, default=1.5)
    parser.add_argument("--arrive", type=float, default=10.0)
    parser.add_argument("--students-as", choices=("ws", "browser"), default="ws")
    parser.add_argument("--uploaders", type=int, default=5)
    parser.add_argument("--heavy", type=int, default=2)
    parser.add_argument("--upload-mb", type=float, default=1.0)
    parser.add_argument("--heavy-mb", type=float, default=9.5)  # MiB: under the 10 million byte cap
    parser.add_argument("--heavy-on", choices=("train", "lab"), default="train")
    parser.add_argument("--after", type=float, default=60.0)
    args = parser.parse_args()
    reason = missing_browser()
    if reason:
        print(f"needs chromium: {reason}")
        return 1
    with (
        tempfile.TemporaryDirectory() as tmp,
        streamlit_process(env=SHORT_CACHE, options=SHORT_LIFETIMES) as server,
    ):
        pid = server.process.pid
        small = [text_file(Path(tmp) / f"up{n}.txt", args.upload_mb, seed=n) for n in range(args.uploaders)]
        heavy = [
            text_file(Path(tmp) / f"heavy{n}.txt", args.heavy_mb, seed=100 + n) for n in range(args.heavy)
        ]
        before_rss = settle(server.url, pid)
        print(
            f"class of {args.students} students ({args.students_as}) x {args.steps} steps "
            f"every {args.every:g} s, {args.uploaders} uploads of "
            f"{args.upload_mb:g} MB to the lab and {args.heavy} of {args.heavy_mb:g} MB to the "
            f"{'Train page (pattern none)' if args.heavy_on == 'train' else 'lab'}; "
            f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
        )
        print(f"before: server RSS {before_rss:.0f} MB, server CPU {cpu_seconds(pid):.1f} s so far")
        prober, cpu = ProbeProcess(server.url), CpuSampler(pid)
        cpu_start, tree_start = cpu_seconds(pid), tree_cpu(pid)
        prober.start()
        ws = args.students_as == "ws"
        students = StudentsProcess(
            server.url,
            TRAIN_URL.split("?", 1)[1],
            students=args.students if ws else 0,
            steps=args.steps,
            every=args.every,
            arrive=args.arrive,
        )
        students.start()
        lower = ClientPriority(spare={pid, prober.pid, students.pid})
        lower.start()
        cpu.start()
        started = time.perf_counter()
        result = classroom(
            server.url,
            pid,
            students=0 if ws else args.students,
            steps=args.steps,
            uploaders=args.uploaders + (args.heavy if args.heavy_on == "lab" else 0),
            files=(small + heavy if args.heavy_on == "lab" else small)
            or [text_file(Path(tmp) / "x.txt", 0.1, seed=0)],
            trainers=heavy if args.heavy_on == "train" else [],
        )
        stepped = students.join()
        seconds = time.perf_counter() - started
        prober.stop.set()
        cpu.stop.set()
        prober.join()
        cpu.join()
        lower.stop.set()
        used, tree = cpu_seconds(pid) - cpu_start, tree_cpu(pid) - tree_start
        print(f"during ({seconds:.0f} s): {result.summary()}")
        if ws:
            both = stepped.window + stepped.settled
            print(
                f"  {args.students} websocket students, {len(both)} reports answered: {_spread(both)}; "
                f"windows {_spread(stepped.window)}; settled {_spread(stepped.settled)}; "
                f"page loads {_spread(stepped.loads)}"
            )
            print(f"  the students' own loop woke late by {_spread(stepped.lags)} (their client's CPU share)")
            result.errors[:0] = stepped.errors
        print(f"  {summary(prober.latencies)}")
        mean, peak = sum(cpu.samples) / max(1, len(cpu.samples)), max(cpu.samples, default=0.0)
        print(
            f"  server CPU {used:.1f} s ({mean:.0f}% of a core on average, peak {peak:.0f}%)"
            f"; with its live workers {tree:.1f} s; RSS peak {max(result.peak_rss, cpu.rss_peak):.0f} MB"
        )
        for error in result.errors[:10]:
            print(f"  error: {error}")
        after = settle(server.url, pid, wait=args.after)
        print(f"after {args.after:.0f} s: server RSS {after:.0f} MB (before: {before_rss:.0f} MB)")
        print(f"server RSS now {rss_mb(pid):.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
