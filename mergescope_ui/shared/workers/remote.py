"""An object kept in a session worker, and the questions the server asks it (no Streamlit).

Every run that trains in a :class:`~.session_worker.SessionWorker` (BPE's
:class:`~.remote_trainer.RemoteTrainer`, WordPiece's and Unigram's
:class:`~mergescope_ui.train.scheme_driver.RemoteSchemeDriver`) is a :class:`Remote`: the worker and
the handle of the object it keeps there.  :meth:`Remote.open` starts the worker, builds the object
(a module-level ``build(ctx, *args)`` that returns what the server keeps of it, the handle first)
and writes the build down, so that a worker let go idle builds it again; :meth:`Remote.call` asks
it a question (a module-level ``fn(ctx, handle, *args)``), with a progress callback and a ``late``
callback for an answer the page stopped waiting for; :meth:`Remote.remember` writes down how far it
went.

>>> remote, facts = Remote.open(_build, 3, name="doctest")
>>> facts, remote.call(_times, 5)
((1, 'built'), 15)
>>> remote.stop()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .jobs import Limits
from .session_worker import Context, LateFn, ProgressFn, SessionWorker


class Remote:
    """The object under ``handle`` in ``worker`` (see the module docstring); a branch of a run shares its
    worker under a handle of its own."""

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
        """Start a worker, run ``build(ctx, *args)`` there, and return the remote object and the build's
        answer, a tuple whose first item is the handle (a bad input is the build's ValueError; the
        worker goes with any error, or when the page stops waiting).  ``progress`` beats: a page drawing
        a bar there notices a click however seldom the build reports."""
        worker = SessionWorker(limits=limits, name=name, idle_after=idle_after)
        try:
            answer = worker.call(build, *args, progress=progress, beat=progress is not None)
        except BaseException:
            worker.stop()
            raise
        worker.remember(build, *args)  # to build it again in a new process (after idle)
        return cls(worker, answer[0]), answer

    def call(
        self,
        fn: Callable[..., Any],
        *args: Any,
        progress: ProgressFn | None = None,
        late: LateFn | None = None,
        beat: bool = False,
        **kwargs: Any,
    ) -> Any:
        """``fn(ctx, handle, *args, **kwargs)`` in the worker (see :meth:`SessionWorker.call`)."""
        return self.worker.call(fn, self.handle, *args, progress=progress, late=late, beat=beat, **kwargs)

    def remember(self, fn: Callable[..., Any], *args: Any, key: Any = None) -> None:
        """Write down ``fn(ctx, handle, *args)``, a request a new process replays after the build (an
        entry with an earlier one's ``key`` takes its place: how far a run went, only the last counts)."""
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
