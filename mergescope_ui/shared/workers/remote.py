"""An object kept in a session worker, and the questions the server asks it (no Streamlit).

Every run that trains in a :class:`~.session_worker.SessionWorker` (``RemoteTrainer``,
``RemoteSchemeDriver``) is a :class:`Remote`: the worker and the handle of the object it keeps.
``build(ctx, *args)`` returns what the server keeps of it, the handle first; a question is
``fn(ctx, handle, *args)`` (module-level functions).

>>> remote, facts = Remote.open(_build, 3, name="doctest")
>>> facts, remote.call(_times, 5)
((1, 'built'), 15)
>>> remote.stop()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .jobs import Limits
from .session_worker import Context, ProgressFn, SessionWorker


class Remote:
    """The object under ``handle`` in ``worker`` (a branch of a run: another handle in the same worker)."""

    def __init__(self, worker: SessionWorker, handle: int) -> None:
        self.worker, self.handle = worker, handle

    @classmethod
    def open(
        cls,
        build: Callable[..., Any],
        *args: Any,
        name: str,
        limits: Limits | None = None,
        idle_after: float | None = None,
        progress: ProgressFn | None = None,
    ) -> tuple[Remote, Any]:
        """Start a worker and run ``build(ctx, *args)`` there, written down to be built again after idle:
        the remote object and the build's answer (the worker goes with any error, or when the page
        stops waiting; ``progress`` beats, see :meth:`SessionWorker.call`)."""
        worker = SessionWorker(limits=limits, name=name, idle_after=idle_after)
        try:
            answer = worker.call(build, *args, progress=progress, beat=progress is not None)
        except BaseException:
            worker.stop()
            raise
        worker.remember(build, *args)  # to build it again in a new process (after idle)
        return cls(worker, answer[0]), answer

    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(ctx, handle, *args, **kwargs)`` in the worker (``progress``, ``late`` and ``beat`` as for
        :meth:`SessionWorker.call`)."""
        return self.worker.call(fn, self.handle, *args, **kwargs)

    def remember(self, fn: Callable[..., Any], *args: Any, key: Any = None) -> None:
        """Write down ``fn(ctx, handle, *args)`` (see :meth:`SessionWorker.remember`)."""
        self.worker.remember(fn, self.handle, *args, key=key)

    def stop(self, message: str = "cancelled: the run was stopped") -> None:
        """End the worker now; every later question is a ``ValueError(message)``."""
        self.worker.stop(message)


# ----- in the worker (the module docstring's) -----
def _build(ctx: Context, n: int) -> tuple[int, str]:
    return ctx.put(n), "built"


def _times(ctx: Context, handle: int, m: int) -> int:
    n: int = ctx.get(handle)
    return n * m
