"""A live room under load (issue 26): a teacher stepping every 2 s, 1, 10 and 40 students following.

    python bench/bench_classroom.py [--students 1 10 40] [--steps 10] [--every 2.0]

Starts ``streamlit run app.py`` on 127.0.0.1.  The teacher is a real headless
chromium on the Train page: it opens a room, then presses Next every
``--every`` seconds.  Each student is a websocket client speaking Streamlit's
own protocol (as the browser does, without drawing): it opens ``/room?code=``,
fills the join form, and then sends the reruns the page's fragment asks for
(``run_every``: the auto-rerun messages), exactly as a browser tab would.  A
student "sees" a step when the message carrying the page drawn for it arrives
(the line "Teacher at step N" and the stage's window with it); a phone's own
drawing time (about 50-150 ms in chromium, see tests/browser/test_classroom.py)
is not in the figure.  For each class size it prints p50/p95/max of the time
from the teacher's click to each student's screen, how many (student, step)
pairs never arrived (a student who redraws slower than the teacher steps skips
a step), the server's CPU (share of one core over the stepping, CPU time per
teacher step, and the share of one core the class takes while the teacher does
not step: what following costs between steps), its RSS before and at peak, and the machine's load average
(on a shared machine the wall-clock figures grow with it; CPU per step does not).

Prints figures; asserts nothing.  Needs chromium and playwright (the teacher).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.support import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    cpu_seconds,
    missing_browser,
    rss_mb,
    streamlit_process,
    wait_idle,
)

TEACHER = "/train?corpus=low_lower_newest_widest&pattern=none"
STEP_BYTES = re.compile(rb"Teacher at step ([\d,]+)")


class Student:
    """One student as a websocket client: joins, then follows (records when each step arrives)."""

    def __init__(self, base: str, code: str, name: str, seen: dict[int, float]) -> None:
        self.base, self.code, self.name, self.seen = base, code, name, seen
        self.page_hash = ""
        self.widgets: dict[str, str] = {}  # label -> widget id
        self.submit = ""
        self.fragments: dict[str, float] = {}  # fragment id -> seconds between its reruns
        self.done = asyncio.Event()

    def _rerun(self, *, widgets: list | None = None, fragment: str = "") -> bytes:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = f"code={self.code}"
        state.page_name = "room"
        state.page_script_hash = self.page_hash
        if fragment:
            state.fragment_id = fragment
            state.is_auto_rerun = True
        for w in widgets or []:
            state.widget_states.widgets.append(w)
        return msg.SerializeToString()

    def _read(self, raw: bytes) -> bool:
        """Take one message in; True when a script run finished.  After joining, a large message (a page
        drawn) is only searched for the step line: parsing 40 students' pages would starve this process
        before the server."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        found = STEP_BYTES.search(raw)
        if found:
            self.seen.setdefault(int(found.group(1).replace(b",", b"")), time.perf_counter())
        if self.done.is_set() and len(raw) > 2048:
            return False
        msg = ForwardMsg()
        msg.ParseFromString(raw)
        kind = msg.WhichOneof("type")
        if kind == "navigation" and msg.navigation.page_script_hash:
            self.page_hash = msg.navigation.page_script_hash
        elif kind == "auto_rerun":
            self.fragments[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            what = element.WhichOneof("type")
            if what == "text_input":
                self.widgets[element.text_input.label] = element.text_input.id
            elif what == "button" and element.button.is_form_submitter:
                self.submit = element.button.id
        return kind == "script_finished"

    async def _timers(self, ws, stop: asyncio.Event) -> None:
        """The browser's run_every timers: a rerun of each fragment at its interval."""
        due: dict[str, float] = {}
        while not stop.is_set():
            now = time.perf_counter()
            for fragment, every in list(self.fragments.items()):
                if every > 0 and now >= due.setdefault(fragment, now + every):
                    await ws.send(self._rerun(fragment=fragment))
                    due[fragment] = now + every
            await asyncio.sleep(0.05)

    async def run(self, stop: asyncio.Event) -> None:
        import websockets
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        parts = urlsplit(self.base)
        url = f"ws://{parts.netloc}/_stcore/stream"
        async with websockets.connect(
            url, subprotocols=["streamlit"], origin=self.base, max_size=None, open_timeout=120
        ) as ws:
            await ws.send(self._rerun())
            while not self._read(await ws.recv()):
                pass
            states = []
            for label, value in (("Room code", self.code), ("Your name", self.name)):
                w = WidgetState(id=self.widgets[label])
                w.string_value = value
                states.append(w)
            states.append(WidgetState(id=self.submit, trigger_value=True))
            await ws.send(self._rerun(widgets=states))
            self.done.set()
            timers = asyncio.ensure_future(self._timers(ws, stop))
            try:
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                    except TimeoutError:
                        continue
                    self._read(raw)
            finally:
                timers.cancel()


def join_class(base: str, code: str, students: int) -> tuple[list[dict[int, float]], asyncio.Event, object]:
    """Start ``students`` websocket students in a thread of their own; when each saw each step, the event
    that stops them, and their thread (once every one has joined and drawn the room once)."""
    seen: list[dict[int, float]] = [{} for _ in range(students)]
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    crowd = [Student(base, code, f"student {n}", seen[n]) for n in range(students)]

    async def follow() -> None:
        results = await asyncio.gather(*(s.run(stop) for s in crowd), return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        if failed:
            print(f"{len(failed)} of {len(crowd)} students failed: {failed[0]!r}", file=sys.stderr)

    thread = threading.Thread(target=loop.run_until_complete, args=(follow(),), daemon=True)
    thread.start()
    deadline = time.time() + 180
    while not all(s.done.is_set() for s in crowd) and time.time() < deadline:
        time.sleep(0.2)
    time.sleep(3.0)  # every join answered and the room drawn once
    joined = sum(s.done.is_set() for s in crowd)
    drawn = sum(bool(s.seen) for s in crowd)
    if joined < students or drawn < students:
        print(f"of {students} students, {joined} sent their join and {drawn} saw the room", file=sys.stderr)
    return seen, stop, (loop, thread)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[1, 10, 40])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--every", type=float, default=2.0)
    args = parser.parse_args()
    reason = missing_browser()
    if reason:
        sys.exit(f"needs chromium: {reason}")
    from playwright.sync_api import sync_playwright

    print(f"teacher steps every {args.every} s, {args.steps} steps per class size")
    head = ("students", "p50 ms", "p95 ms", "max ms", "missed", "CPU %", "CPU ms/step", "idle %", "RSS MB")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, (8, 8, 8, 8, 7, 6, 12, 6, 14), strict=True)), " load")
    # Every student joins from this machine, one client address: the host's limits on one address's joins
    # and rooms (mergescope_ui/shared/rooms/model.py Limits) are lifted for the bench.
    unlimited = {
        "MERGESCOPE_JOINS_PER_MINUTE": str(10 * sum(args.students)),
        "MERGESCOPE_ROOMS_PER_ADDRESS": str(len(args.students) + 1),
    }
    with streamlit_process(env=unlimited) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        pid = server.process.pid
        for size in args.students:
            teacher = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            teacher.goto(server.url + TEACHER)
            teacher.locator(".ms-stage .ms-card").first.wait_for(timeout=120_000)
            wait_idle(teacher, timeout=120_000)
            teacher.get_by_role("button", name="📡 Open a live room").click()
            teacher.get_by_label("Room code").wait_for(timeout=60_000)
            code = teacher.get_by_label("Room code").inner_text().strip()
            rss_before = rss_mb(pid)
            seen, stop, (loop, thread) = join_class(server.url, code, size)
            idle0, idle_wall = cpu_seconds(pid), time.perf_counter()
            time.sleep(4.0)  # the class following, the teacher not stepping: what waiting costs
            idle = (cpu_seconds(pid) - idle0) / (time.perf_counter() - idle_wall)
            clicks: dict[int, float] = {}
            cpu0, wall0, rss_peak = cpu_seconds(pid), time.perf_counter(), rss_before
            for k in range(1, args.steps + 1):
                clicks[k] = time.perf_counter()
                teacher.get_by_role("button", name="Next ▶").click()
                end = clicks[k] + args.every
                while time.perf_counter() < end:
                    rss_peak = max(rss_peak, rss_mb(pid))
                    time.sleep(0.1)
            time.sleep(1.0)
            used = cpu_seconds(pid) - cpu0
            cpu = used / (time.perf_counter() - wall0)
            load = os.getloadavg()[0]
            loop.call_soon_threadsafe(stop.set)
            thread.join(timeout=10)
            latencies = [(student[k] - clicks[k]) * 1000 for student in seen for k in clicks if k in student]
            missed = sum(k not in student for student in seen for k in clicks)
            latencies.sort()
            if latencies:
                p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
                print(
                    f"{size:>8} {statistics.median(latencies):>8.0f} {p95:>8.0f} {latencies[-1]:>8.0f} "
                    f"{missed:>7} {100 * cpu:>6.0f} {1000 * used / args.steps:>12.0f} {100 * idle:>6.0f} "
                    f"{rss_before:>6.0f}->{rss_peak:<6.0f} {load:>5.1f}"
                )
            else:
                print(
                    f"{size:>8} no step arrived ({missed} missed); CPU {100 * cpu:.0f} %, "
                    f"{1000 * used / args.steps:.0f} ms a step, load {load:.1f}"
                )
            teacher.get_by_role("button", name="⏹ End room").click()
            teacher.context.close()
        browser.close()


if __name__ == "__main__":
    main()
