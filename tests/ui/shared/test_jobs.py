"""The job runner's bounds: a time limit, a memory limit, cancel, a job nobody waits for, the queue.

Each bound is checked by its outcome (the job's state and message, and that
its process is gone), never by how long something took.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mergescope_ui.shared.workers import jobs
from mergescope_ui.shared.workers.jobs import MEGABYTE, Limits, Runner


# ----- jobs (module level: a worker imports them by name) -----
def forever(*, progress: Callable[..., None]) -> None:
    """Report once, then never end."""
    progress(1, 10, "started")
    while True:
        time.sleep(0.05)


def hungry(size: int, *, progress: Callable[..., None]) -> int:
    """Ask for ``size`` bytes at once."""
    return len(bytearray(size))


def counts(n: int, *, progress: Callable[..., None]) -> list[int]:
    out = []
    for i in range(n):
        out.append(i * i)
        progress(i + 1, n)
    return out


def broken(*, progress: Callable[..., None]) -> None:
    raise KeyError("an internal detail /etc/passwd")


def exits(*, progress: Callable[..., None]) -> None:
    os._exit(3)


# ----- helpers -----
@pytest.fixture(scope="module")
def runner() -> Iterator[Runner]:
    r = Runner(slots=2, tick=0.05)
    yield r
    r.shutdown()


def gone(pid: int) -> bool:
    """True when no live process has this pid (a zombie counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"


def until(check: Callable[[], bool], *, seconds: float = 60.0) -> None:
    """Poll ``check`` (a safety net against a hang, not a speed limit)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"still not true after {seconds} s: {check}")
        time.sleep(0.02)


def running_pid(runner: Runner, job: str) -> int:
    until(lambda: runner.status(job).state == jobs.RUNNING and runner.status(job).progress.done == 1)
    pid = runner.status(job).pid
    assert pid is not None and not gone(pid)
    return pid


# ----- tests -----
def test_a_job_returns_its_value_and_its_progress(runner):
    status = runner.wait(runner.submit(counts, 200, owner="a"), timeout=60)
    assert status.ok and status.value == [i * i for i in range(200)]
    assert status.progress.done == status.progress.total == 200  # the last report is always sent


def test_a_job_past_its_time_limit_is_killed_with_a_message(runner):
    status = runner.wait(runner.submit(forever, owner="a", limits=Limits(seconds=0.5)), timeout=60)
    assert status.state == jobs.TIMEOUT
    assert "stopped after 0.5 s, this server's time limit for one job" in status.message
    assert status.pid is not None and gone(status.pid)


def test_a_job_past_its_memory_limit_ends_with_a_message(runner):
    limits = Limits(memory_bytes=256 * MEGABYTE)
    status = runner.wait(runner.submit(hungry, 512 * MEGABYTE, owner="a", limits=limits), timeout=60)
    assert status.state == jobs.MEMORY
    assert "needed more than 256 MB, this server's memory limit for one job" in status.message
    small = runner.wait(runner.submit(hungry, 16 * MEGABYTE, owner="a", limits=limits), timeout=60)
    assert small.ok and small.value == 16 * MEGABYTE  # the limit is the job's, not a broken worker


def test_cancel_ends_the_job_and_its_process(runner):
    job = runner.submit(forever, owner="b")
    pid = running_pid(runner, job)
    assert runner.status(job).progress == jobs.Progress(1, 10, "started")
    runner.cancel(job)
    status = runner.status(job)
    assert status.state == jobs.CANCELLED and status.message.startswith("cancelled")
    assert gone(pid)  # cancel waits for the process to end
    assert pid not in runner.pids()


def test_a_job_whose_owner_stopped_asking_is_reaped(runner):
    watched = runner.submit(forever, owner="c")
    left = runner.submit(forever, owner="d")
    pid, watched_pid = running_pid(runner, left), running_pid(runner, watched)
    runner.stale_after = 0.5
    try:
        # Only ``watched``'s owner keeps asking; ``left``'s page is gone.
        until(
            lambda: runner.status(watched).state == jobs.RUNNING and runner._peek(left).state == jobs.REAPED
        )
        assert "nobody was waiting for it" in runner._peek(left).message
        assert gone(pid) and not gone(watched_pid)
        runner.cancel(watched)
    finally:
        runner.stale_after = jobs.STALE_SECONDS


def test_cancel_owner_ends_all_of_a_sessions_jobs(runner):
    job = runner.submit(forever, owner="e")
    pid = running_pid(runner, job)
    runner.cancel_owner("e")
    assert runner.status(job).state == jobs.CANCELLED and gone(pid)


def test_a_session_is_refused_a_third_job_and_a_full_queue_refuses_more():
    r = Runner(slots=1, queue=1, tick=0.05)
    try:
        first = r.submit(forever, owner="f")
        running_pid(r, first)
        second = r.submit(forever, owner="f")
        assert r.status(second).state == jobs.QUEUED
        with pytest.raises(ValueError, match="already has 2 jobs running; wait for one to finish or cancel"):
            r.submit(forever, owner="f")
        with pytest.raises(ValueError, match=r"the server is busy \(1 jobs waiting\)"):
            r.submit(forever, owner="g")
        r.cancel(first)  # the waiting job starts in the freed slot
        until(lambda: r.status(second).state == jobs.RUNNING)
    finally:
        r.shutdown()
    assert r.pids() == []


def test_errors_come_back_as_messages_without_tracebacks(runner):
    status = runner.wait(runner.submit(broken, owner="h"), timeout=60)
    assert status.state == jobs.FAILED and status.message.startswith("the job failed (KeyError)")
    assert "passwd" not in status.message
    status = runner.wait(runner.submit(exits, owner="h"), timeout=60)
    assert status.state == jobs.FAILED and "exit code 3" in status.message


def test_shutdown_leaves_no_job_process():
    r = Runner(slots=2, tick=0.05)
    pids = [running_pid(r, r.submit(forever, owner=f"s{i}")) for i in range(2)]
    r.shutdown()
    assert all(gone(pid) for pid in pids)
    with pytest.raises(ValueError, match="stopping"):
        r.submit(forever, owner="s")


def test_fork_is_refused():
    with pytest.raises(ValueError, match="fork is not safe"):
        Runner(method="fork")


SERVER = """
import sys, time
from mergescope_ui.shared.workers.jobs import Runner
from tests.ui.shared.test_jobs import forever
r = Runner(slots=1, tick=0.05)
job = r.submit(forever, owner="x")
while r.status(job).progress.done != 1:
    time.sleep(0.02)
print(r.status(job).pid, flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_a_server_that_dies_leaves_no_job_process(how):
    """Killed outright (no atexit) or stopped by the default SIGTERM (no atexit either): the worker
    sees its server gone and ends by itself."""
    import signal
    import subprocess

    root = Path(__file__).resolve().parents[3]
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=root, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        pid = int(server.stdout.readline())
        assert not gone(pid)
        server.send_signal(getattr(signal, how))
        server.wait(timeout=30)
        until(lambda: gone(pid), seconds=30)
    finally:
        server.kill()


def niceness(*, progress: object = None) -> int:
    """This process's nice value (a job's function: it runs in the worker)."""
    return os.nice(0)


def test_a_job_runs_at_a_lower_cpu_priority_than_the_server(runner):
    """Heavy jobs take what the server leaves: on 2 cores two of them would take both from the pages."""
    status = runner.wait(runner.submit(niceness, owner="a"), timeout=60)
    assert status.ok and status.value == min(os.nice(0) + jobs.WORKER_NICE, 19)
