"""A throwaway ``redis-server`` for the shared room store's tests (mergescope_ui/shared/rooms/redis_store.py).

The tests run against it when a ``redis-server`` binary is on PATH (``.ci/run``
installs Debian's) and the ``redis`` client is installed (requirements.txt);
otherwise they skip, saying why, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import os
import shutil
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


@contextmanager
def redis_server() -> Iterator[str]:
    """A fresh ``redis-server`` on a free port of 127.0.0.1, its files in a temp dir, no persistence; its
    URL.  Stopped (and its files gone) on exit."""
    if BINARY is None:
        raise RuntimeError("no redis-server on PATH")
    import redis

    with tempfile.TemporaryDirectory(prefix="mergescope-redis-") as folder:
        port = _free_port()
        proc = subprocess.Popen(
            [
                BINARY,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                folder,
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        url = f"redis://127.0.0.1:{port}/0"
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    redis.Redis.from_url(url).ping()
                    break
                except redis.ConnectionError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"redis-server did not start on port {port}") from None
                    time.sleep(0.05)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
