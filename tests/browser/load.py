"""A classroom on one server: many browser sessions at once, on loopback (the load test and its benchmark).

:func:`classroom` opens ``students`` sessions that each load the Train page and
press Next ``steps`` times, ``uploaders`` sessions that each upload a text
file to the Vocab-size lab and wait for its results, and one session per file
of ``trainers`` that uploads it to the Train page (pattern ``none``) and waits
for its first steps, all at the same time in
one headless chromium.  It records every Next's time from click to the new
step on screen, the server's resident memory while it runs, and every error a
page showed or logged.  Nothing leaves the machine: the server listens on
127.0.0.1 and the pages load only from it.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mergescope_ui.shared.workers.memory import TRIM_EVERY_SECONDS
from tests.browser.support import CHROMIUM, CHROMIUM_ARGS, chromium_page, generated_text, rss_mb, wait_idle

TRAIN_URL = "/train?corpus=lighthouse_story"
LAB_URL = "/vocab-lab"
UPLOAD_TRAIN_URL = "/train?corpus=__upload__&pattern=none&merges=20000"
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
# The class ends sooner with short lifetimes: sessions dropped 5 s after their browser closed, cached
# results of one user's text 5 s after their last use (both 120 s by default); the memory thread
# (mergescope_ui.shared.workers.memory) runs every 15 s, so all is given back
# AFTER_CLASS_SECONDS (and one more run of that thread) after the end.
SHORT_LIFETIMES = ("--server.disconnectedSessionTTL", "5")
SHORT_CACHE = {"MERGESCOPE_CACHE_SECONDS": "5"}
AFTER_CLASS_SECONDS = 20.0
# Streamlit first probes /<page>/_stcore/... before the root; those 404s are expected.
EXPECTED_404 = re.compile(r"/[\w-]+/_stcore/(health|host-config)$")


@dataclass
class ClassroomResult:
    """What a classroom run saw: Next latencies (ms), lab times (s), memory (MB), errors."""

    next_ms: list[float] = field(default_factory=list)
    lab_seconds: list[float] = field(default_factory=list)
    train_seconds: list[float] = field(default_factory=list)  # a large upload's first steps on the Train page
    rss_samples: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def percentile(self, p: float) -> float:
        ms = sorted(self.next_ms)
        return ms[min(len(ms) - 1, int(p / 100 * len(ms)))] if ms else float("nan")

    @property
    def peak_rss(self) -> float:
        return max(self.rss_samples, default=float("nan"))

    def summary(self) -> str:
        median = statistics.median(self.next_ms) if self.next_ms else float("nan")
        return (
            f"{len(self.next_ms)} Next clicks: p50 {median:.0f} ms, p95 {self.percentile(95):.0f} ms, "
            f"max {max(self.next_ms, default=float('nan')):.0f} ms; {len(self.lab_seconds)} lab runs: "
            f"max {max(self.lab_seconds, default=float('nan')):.1f} s; {len(self.train_seconds)} large "
            f"trainings: max {max(self.train_seconds, default=float('nan')):.1f} s; server peak RSS "
            f"{self.peak_rss:.0f} MB; {len(self.errors)} errors; {self.seconds:.0f} s in all"
        )


class MemorySampler:
    """Samples a process's resident memory every ``every`` seconds in a thread, until stopped."""

    def __init__(self, pid: int, every: float = 0.25) -> None:
        self.pid, self.every, self.samples = pid, every, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.samples.append(rss_mb(self.pid))
            except (OSError, ValueError):
                return
            self._stop.wait(self.every)

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _watch(page, errors: list[str], who: str) -> None:
    page.on("pageerror", lambda exc: errors.append(f"{who}: page error {exc}"))
    page.on(
        "console",
        lambda m: (
            m.type == "error"
            and "Failed to load resource" not in m.text
            and errors.append(f"{who}: console {m.text[:200]}")
        ),
    )
    page.on(
        "response",
        lambda r: (
            r.status >= 400 and not EXPECTED_404.search(r.url) and errors.append(f"{who}: HTTP {r.status}")
        ),
    )


async def _idle(page, timeout: float) -> None:
    await page.wait_for_selector(IDLE, timeout=timeout)
    await page.wait_for_selector('[data-testid="stSkeleton"]', state="detached", timeout=timeout)


async def _exceptions(page, errors: list[str], who: str) -> None:
    shown = await page.locator('[data-testid="stException"]').count()
    if shown:
        errors.append(f"{who}: {shown} exception(s) on the page")


async def _student(browser, url: str, steps: int, result: ClassroomResult, n: int) -> None:
    who = f"student {n}"
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = await context.new_page()
        _watch(page, result.errors, who)
        await page.goto(url + TRAIN_URL, timeout=180_000)
        await page.get_by_text("Step 0: the text as raw bytes").wait_for(timeout=180_000)
        await _idle(page, 180_000)
        for step in range(1, steps + 1):
            start = time.perf_counter()
            await page.get_by_role("button", name="Next ▶").click(timeout=60_000)
            await page.get_by_text(f"Merge {step}", exact=True).first.wait_for(timeout=120_000)
            result.next_ms.append(1000 * (time.perf_counter() - start))
            await _idle(page, 120_000)
        await _exceptions(page, result.errors, who)
    except Exception as exc:  # a timeout or a lost page is an error of the run, not of the driver
        result.errors.append(f"{who}: {type(exc).__name__}: {str(exc)[:300]}")
    finally:
        await context.close()


async def _uploader(browser, url: str, text_file: Path, result: ClassroomResult, n: int) -> None:
    who = f"lab {n}"
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = await context.new_page()
        _watch(page, result.errors, who)
        await page.goto(url + LAB_URL, timeout=180_000)
        await page.get_by_role("heading", name="Vocab-size lab").first.wait_for(timeout=180_000)
        await _idle(page, 180_000)
        start = time.perf_counter()
        await page.locator('[data-testid="stSidebar"] input[type="file"]').first.set_input_files(
            str(text_file)
        )
        # the upload (the built-in texts are a few thousand characters; a part is held out, so a 1 MB
        # upload trains on some 700,000)
        large = re.compile(r"Trained on [\d,]{7,} characters")
        await page.get_by_text(large).first.wait_for(timeout=600_000)
        result.lab_seconds.append(time.perf_counter() - start)
        await _idle(page, 180_000)
        await _exceptions(page, result.errors, who)
    except Exception as exc:
        result.errors.append(f"{who}: {type(exc).__name__}: {str(exc)[:300]}")
    finally:
        await context.close()


async def _trainer(browser: Any, url: str, text_file: Path, result: ClassroomResult, n: int) -> None:
    """Upload a large text to the Train page (pattern none: it trains in a session worker) and wait for
    its first steps on the stage."""
    who = f"trainer {n}"
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = await context.new_page()
        _watch(page, result.errors, who)
        await page.goto(url + UPLOAD_TRAIN_URL, timeout=180_000)
        await page.get_by_text("Upload a .txt file in the sidebar").first.wait_for(timeout=180_000)
        await _idle(page, 180_000)
        start = time.perf_counter()
        await page.locator('[data-testid="stSidebar"] input[type="file"]').first.set_input_files(
            str(text_file)
        )
        await page.get_by_text("tokens before any merge").first.wait_for(timeout=600_000)
        result.train_seconds.append(time.perf_counter() - start)
        await _idle(page, 180_000)
        await _exceptions(page, result.errors, who)
    except Exception as exc:
        result.errors.append(f"{who}: {type(exc).__name__}: {str(exc)[:300]}")
    finally:
        await context.close()


async def _classroom(
    url: str, students: int, steps: int, uploaders: int, files: list[Path], trainers: list[Path]
) -> ClassroomResult:
    from playwright.async_api import async_playwright

    result = ClassroomResult()
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            start = time.perf_counter()
            tasks = [_student(browser, url, steps, result, n) for n in range(students)]
            tasks += [_uploader(browser, url, files[n % len(files)], result, n) for n in range(uploaders)]
            tasks += [_trainer(browser, url, path, result, n) for n, path in enumerate(trainers)]
            await asyncio.gather(*tasks)
            result.seconds = time.perf_counter() - start
        finally:
            await browser.close()
    return result


def classroom(
    url: str,
    server_pid: int,
    *,
    students: int = 20,
    steps: int = 20,
    uploaders: int = 5,
    files: list[Path],
    trainers: list[Path] | None = None,
    on_sample: Callable[[float], None] | None = None,
) -> ClassroomResult:
    """Run the classroom against the server at ``url`` (process ``server_pid``); see the module docstring."""
    with MemorySampler(server_pid) as sampler:
        result = asyncio.run(_classroom(url, students, steps, uploaders, files, list(trainers or [])))
    result.rss_samples = sampler.samples
    return result


def text_file(path: Path, megabytes: float, *, seed: int) -> Path:
    """A UTF-8 text file of about ``megabytes`` MB of varied text (see ``generated_text``)."""
    size = int(megabytes * 1024 * 1024)
    data = generated_text(size, seed=seed).encode("utf-8")[:size]
    path.write_bytes(data.decode("utf-8", errors="ignore").encode("utf-8"))
    return path


def settle(url: str, server_pid: int, *, wait: float = 0.0) -> float:
    """Wait ``wait`` seconds (for the sessions and cached results of a class that ended to expire),
    load the Train page once in a fresh browser and close it (Streamlit drops the expired sessions it
    keeps for a reconnect only when it stores another: this page's, as it closes), and return the
    server's RSS in MB; after a wait, once the memory thread has run again
    (:data:`mergescope_ui.shared.workers.memory.TRIM_EVERY_SECONDS`: at its next quiet tick it collects the
    whole heap, where the dropped sessions' objects are)."""
    time.sleep(wait)
    with chromium_page(width=1280, height=800) as page:
        page.goto(url + TRAIN_URL)
        page.get_by_text("Step 0: the text as raw bytes").wait_for(timeout=120_000)
        wait_idle(page, timeout=120_000)
    time.sleep(1.0 + (TRIM_EVERY_SECONDS + 2.0 if wait else 0.0))
    return rss_mb(server_pid)
