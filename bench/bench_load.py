"""A classroom on one server (loopback only): Next latency under load, peak memory, memory after the class.

    python bench/bench_load.py [--students 20] [--steps 20] [--uploaders 5] [--upload-mb 3]

Starts ``streamlit run app.py`` on 127.0.0.1 with the lifetimes shortened so the
end of the class comes sooner (sessions dropped 5 s after their browser closes,
``--server.disconnectedSessionTTL 5``; cached results of one user's text kept 5 s,
``MERGESCOPE_CACHE_SECONDS=5``; both are 120 s by default), loads the Train page
once to take the baseline memory, then runs :func:`tests.browser.load.classroom`:
``--students`` sessions each load the Train page and press Next ``--steps``
times while ``--uploaders`` sessions each upload a ``--upload-mb`` MB text to
the Vocab-size lab.  Prints p50/p95 Next latency (click to new step on
screen), the lab runs' times, the server's peak RSS and its RSS once every
session has closed and the memory thread has run (``mergescope_ui.shared.workers.memory``).
Needs chromium and playwright (requirements-dev.txt).  Prints figures; asserts
nothing (``tests/browser/test_load.py`` is the smaller class that asserts).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.load import (  # noqa: E402
    AFTER_CLASS_SECONDS,
    SHORT_CACHE,
    SHORT_LIFETIMES,
    classroom,
    settle,
    text_file,
)
from tests.browser.support import missing_browser, streamlit_process  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--uploaders", type=int, default=5)
    parser.add_argument("--upload-mb", type=float, default=3.0)
    args = parser.parse_args()
    reason = missing_browser()
    if reason:
        print(f"cannot run: {reason}")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        files = [
            text_file(Path(tmp) / f"upload_{n}.txt", args.upload_mb, seed=100 + n)
            for n in range(max(1, args.uploaders))
        ]
        print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        with streamlit_process(options=SHORT_LIFETIMES, env=SHORT_CACHE) as server:
            baseline = settle(server.url, server.process.pid)
            print(f"server RSS after the first page load: {baseline:.0f} MB")
            start = time.perf_counter()
            result = classroom(
                server.url,
                server.process.pid,
                students=args.students,
                steps=args.steps,
                uploaders=args.uploaders,
                files=files,
            )
            print(
                f"{args.students} students x {args.steps} Next + {args.uploaders} lab uploads of "
                f"{args.upload_mb:g} MB, in {time.perf_counter() - start:.0f} s"
            )
            print(result.summary())
            for error in result.errors[:20]:
                print("  error:", error)
            after = settle(server.url, server.process.pid, wait=AFTER_CLASS_SECONDS)
            print(f"server RSS after every session closed: {after:.0f} MB ({after - baseline:+.0f} MB)")
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
