"""A throwaway ``redis-server`` for the shared room store's tests (mergescope_ui/shared/rooms/redis_store.py).

The tests run against it when a ``redis-server`` binary is on PATH (``.ci/run``
installs Debian's) and the ``redis`` client is installed (requirements.txt);
otherwise they skip, saying why, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

BINARY = shutil.which("redis-server")


def missing() -> str:
    """Why the Redis tests cannot run here ("" when they can)."""
    if BINARY is None:
        return "no redis-server on PATH: apt-get install redis-server (CI installs it)"
    try:
        import redis  # noqa: F401
    except ImportError:
        return "no redis client: pip install -r requirements.txt"
    return ""


def skip_or_fail() -> None:
    """Skip the calling test when Redis cannot run here; in CI, fail instead."""
    reason = missing()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI runs the Redis tests: {reason}")
        pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisProcess:
    """A ``redis-server`` on one port of 127.0.0.1 that a test may stop and start again (a Redis that goes
    away mid-lesson); ``persist``: it writes its data down (append-only file) and reads it back on a start."""

    def __init__(self, folder: str, *, persist: bool) -> None:
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._folder, self._persist = folder, persist
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it (again, on the same port) and wait until it answers."""
        import redis

        assert BINARY is not None and self._proc is None
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always"] if self._persist else ["--appendonly", "no"]
        )
        self._proc = subprocess.Popen(
            [
                BINARY,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                self._folder,
                "--save",
                "",
                *persistence,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.ConnectionError:
                if self._proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)

    def freeze(self, frozen: bool) -> None:
        """Freeze it (``SIGSTOP``: it keeps its connections, answers nothing) or thaw it (``SIGCONT``)."""
        assert self._proc is not None
        self._proc.send_signal(signal.SIGSTOP if frozen else signal.SIGCONT)

    def stop(self) -> None:
        """Stop it (SIGTERM; SIGKILL after 10 s) and wait until it is gone."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def redis_process(*, persist: bool = False) -> Iterator[RedisProcess]:
    """A started :class:`RedisProcess`, its files in a temp dir; stopped (and its files gone) on exit."""
    if BINARY is None:
        raise RuntimeError("no redis-server on PATH")
    with tempfile.TemporaryDirectory(prefix="mergescope-redis-") as folder:
        server = RedisProcess(folder, persist=persist)
        try:
            server.start()
            yield server
        finally:
            server.stop()


@contextmanager
def redis_server() -> Iterator[str]:
    """A fresh ``redis-server`` on a free port of 127.0.0.1, its files in a temp dir, no persistence; its
    URL.  Stopped (and its files gone) on exit."""
    with redis_process() as server:
        yield server.url
