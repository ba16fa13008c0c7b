"""Students as websocket clients stepping the Train page, as its stage does (for ``bench/bench_class.py``).

A browser steps inside the window of steps the server sent without asking it
anything; what reaches the server are the stage's reports (its one state value,
:class:`mergescope_ui.shared.stage.contract.Shown`): ``window`` at once when the
next step nears an edge of that window (the server sends the stage a new one),
and ``settled`` 450 ms after the press (the part of the page below the stage
follows the step).  Each student here speaks Streamlit's own protocol: it opens
the Train page's link, reads the stage's element (its widget id, its fragment,
its window), and for each step sends those reports as the browser would, each a
rerun of the stage's fragment with the stage's new state, and times it from the
send to the end of the runs it starts (the page drawn for it: what a student
waits for after the press, beside the 450 ms the stage waits on purpose).

Drawing in a browser is not in the figure (about 50-150 ms in chromium, see
``bench/bench_training_page.py``), so 40 students fit a 2-core machine beside
the server, where 40 browser contexts do not (their drawing loads it past 30).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from bench.spawned import Spawned

SETTLE_S = 0.45  # the stage's SETTLE_MS (stage.js): it reports "settled" this long after a press


@dataclass
class StepTimes:
    """What the students saw: the seconds from a report to the end of its runs, by kind, and errors."""

    window: list[float] = field(default_factory=list)  # the stage needed a window (it waits for it)
    settled: list[float] = field(default_factory=list)  # the page below the stage follows the step
    loads: list[float] = field(default_factory=list)  # the page opened: the link to its first run's end
    errors: list[str] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)  # how late the clients' own loop woke, every 50 ms


class Stepper:
    """One student: opens ``query`` on the Train page ``arrive`` seconds after the class starts, then steps
    ``steps`` times, ``every`` seconds apart."""

    def __init__(
        self, base: str, query: str, *, steps: int, every: float, arrive: float, times: StepTimes, n: int
    ) -> None:
        self.base, self.query, self.n = base, query, n
        self.steps, self.every, self.arrive, self.times = steps, every, arrive, times
        self.page_hash = ""
        self.stage_id = ""
        self.fragment = ""
        self.window: dict = {}

    def _rerun(self, shown: dict | None = None) -> bytes:
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query
        state.page_name = "train"
        state.page_script_hash = self.page_hash
        if shown is not None:
            state.fragment_id = self.fragment
            w = WidgetState(id=self.stage_id)
            w.json_value = json.dumps({"shown": shown})
            state.widget_states.widgets.append(w)
        return msg.SerializeToString()

    def _read(self, raw: bytes) -> bool:
        """Take one message in (the stage's element: its id, fragment and window); True at a run's end."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = ForwardMsg()
        msg.ParseFromString(raw)
        kind = msg.WhichOneof("type")
        if kind == "navigation" and msg.navigation.page_script_hash:
            self.page_hash = msg.navigation.page_script_hash
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            if element.WhichOneof("type") == "bidi_component":
                stage = element.bidi_component
                kind = stage.WhichOneof("data")  # a dict is sent as JSON; a packed window as bytes
                data = json.loads(stage.json if kind == "json" else stage.bytes if kind == "bytes" else "0")
                if isinstance(data, dict) and "lo" in data:
                    self.stage_id, self.fragment = stage.id, msg.delta.fragment_id
                    self.window = data
        return kind == "script_finished"

    async def _runs(self, ws, *, quiet: float = 0.2) -> float:
        """Read until the runs a message started have ended; when the last one ended."""
        ended = 0.0
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=quiet if ended else 300)
            except TimeoutError:
                return ended
            if self._read(raw):
                ended = time.perf_counter()

    def _needs_window(self, k: int) -> bool:
        d = self.window
        held = {v["step"] for v in d.get("views", [])}
        more = d["hi"] < d["max_steps"] and not (d["finished"] and d["hi"] >= d["last"])
        return k not in held or (more and k >= d["hi"] - 2)

    async def run(self) -> None:
        import websockets

        url = f"ws://{urlsplit(self.base).netloc}/_stcore/stream"
        await asyncio.sleep(self.arrive)
        opened = time.perf_counter()
        async with websockets.connect(
            url, subprotocols=["streamlit"], origin=self.base, max_size=None, open_timeout=300
        ) as ws:
            await ws.send(self._rerun())
            self.times.loads.append(await self._runs(ws) - opened)
            if not self.stage_id:
                raise RuntimeError(f"student {self.n}: no stage on the page")
            await asyncio.sleep(random.Random(self.n).uniform(0, self.every))  # students differ
            position = self.window["position"]
            for k in range(position + 1, position + 1 + self.steps):
                pressed = time.perf_counter()
                shown = {"position": k, "start": 0, "serial": self.window["serial"], "tab": "places"}
                if self._needs_window(k):
                    await ws.send(self._rerun({**shown, "window": True, "settled": False}))
                    self.times.window.append(await self._runs(ws) - pressed)
                await asyncio.sleep(max(0.0, pressed + SETTLE_S - time.perf_counter()))
                sent = time.perf_counter()
                await ws.send(self._rerun({**shown, "window": False, "settled": True}))
                self.times.settled.append(await self._runs(ws) - sent)
                await asyncio.sleep(max(0.0, pressed + self.every - time.perf_counter()))


async def step_together(
    base: str, query: str, *, students: int, steps: int, every: float, arrive: float, times: StepTimes
) -> None:
    """``students`` students stepping ``query`` at once, each arriving at a moment drawn evenly from the
    first ``arrive`` seconds (a class opening the teacher's link); what they saw goes into ``times``."""
    moments = random.Random(0)
    crowd = [
        Stepper(base, query, steps=steps, every=every, arrive=moments.uniform(0, arrive), times=times, n=n)
        for n in range(students)
    ]
    lag = asyncio.ensure_future(_watch_lag(times.lags))
    results = await asyncio.gather(*(s.run() for s in crowd), return_exceptions=True)
    lag.cancel()
    times.errors += [f"{type(r).__name__}: {str(r)[:200]}" for r in results if isinstance(r, BaseException)]


async def _watch_lag(lags: list[float], *, every: float = 0.05) -> None:
    """How late the clients' loop wakes from a sleep of ``every`` seconds, each time: a client starved of CPU
    (or of its interpreter lock) times its own waits as the server's, so the bench prints this beside."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - asked - every)


def _students_loop(base: str, query: str, options: dict[str, Any], out: Any) -> None:
    """:func:`step_together` in a process of its own, in a session of its own (its own autogroup, at the
    usual priority): the students' devices are their own, so their timing must not wait for the bench's
    other clients (chromium's driver in the bench's process held the lock the loop needed: the loop woke up
    to 4.7 s late, and that was counted as the server's)."""
    with contextlib.suppress(OSError):
        os.setsid()
    times = StepTimes()
    asyncio.run(step_together(base, query, times=times, **options))
    out.send(times)


class StudentsProcess(Spawned):
    """:func:`step_together` in a spawned process: ``start``, then ``join`` for its :class:`StepTimes`."""

    def __init__(
        self, base: str, query: str, *, students: int, steps: int, every: float, arrive: float
    ) -> None:
        options = {"students": students, "steps": steps, "every": every, "arrive": arrive}
        super().__init__(_students_loop, base, query, options)

    def join(self) -> StepTimes:
        times: StepTimes = super().join()
        return times
