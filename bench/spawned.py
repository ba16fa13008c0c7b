"""A bench's client in a spawned process of its own (the health probe, the websocket students): a client
busy beside others in one process would wait for their interpreter lock and count that as the server's."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any


class Spawned:
    """``target(*args, out)`` in a spawned daemon process; ``start``, then ``join`` for what it sent on
    ``out`` (a pipe's sending end).  ``context`` makes what ``args`` share with it (an ``Event``)."""

    context = multiprocessing.get_context("spawn")

    def __init__(self, target: Callable[..., None], *args: Any) -> None:
        self._answers, sender = self.context.Pipe(duplex=False)
        self._process = self.context.Process(target=target, args=(*args, sender), daemon=True)

    def start(self) -> None:
        self._process.start()

    @property
    def pid(self) -> int:
        return self._process.pid or 0

    def join(self) -> Any:
        answer = self._answers.recv()
        self._process.join()
        return answer
