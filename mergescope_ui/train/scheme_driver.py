"""A run and its stage views behind the few questions the Train page asks, for every scheme (no Streamlit).

The page never reads a trainer: it asks a :data:`Driver` to train, to show a step, for the stage's
window, the quiz's question and verdict, a word's lattice, and gets records back.  A run here is a
:class:`LocalDriver` (BPE's :class:`~.session_run.BpeDriver`, :class:`SchemeDriver`); a WordPiece or
Unigram run on a text over :data:`IN_PROCESS_CHARS` lives in a session worker, the one BPE's large
runs use (:class:`RemoteSchemeDriver`, a :class:`~mergescope_ui.shared.workers.remote.Remote`: only
records cross the pipe), with the page the same.

>>> from .scheme_run import SchemeSettings
>>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
>>> driver = start_driver(text, SchemeSettings(scheme="unigram", vocab_size=12))
>>> driver.advance(1), driver.ask().question
(StepperState(position=0, pulled=1, finished=False, stop_reason=None, max_steps=20000), \
'🤔 Which of these pieces is pruned in round 1?')
>>> driver.answer("bu").outcome, driver.state.position
('right', 1)
>>> remote = RemoteSchemeDriver.start(text, SchemeSettings(scheme="unigram", vocab_size=12))
>>> remote.jump(9) == driver.jump(9), remote.lattice("▁hugs") == driver.lattice("▁hugs")
(True, True)
>>> remote.stop()
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar, cast

from bpe_core.unigram import Lattice
from mergescope_ui.shared import hosting
from mergescope_ui.shared.stage.contract import AHEAD, Window
from mergescope_ui.shared.stage.producer import RunProducer, StageSettings
from mergescope_ui.shared.training_run import TrainingRun
from mergescope_ui.shared.workers.jobs import MEGABYTE, Limits
from mergescope_ui.shared.workers.remote import Remote
from mergescope_ui.shared.workers.session_worker import Context

from .quiz import QuizQuestion, QuizResult
from .scheme_run import (
    SCHEME_STEPS,
    Scheme,
    SchemeIdentity,
    SchemeRun,
    SchemeSettings,
    SchemeSteps,
    start_scheme_run,
)
from .scheme_stage import SchemeViews
from .unigram_stage import UnigramViews
from .wordpiece_stage import WordPieceViews

IN_PROCESS_CHARS: Final = hosting.positive_int("MERGESCOPE_SCHEME_IN_PROCESS_CHARS")
"""Texts up to this many characters train WordPiece and Unigram here, longer ones in a session worker.
Lower than BPE's line: a Unigram round costs a pass of Viterbi and two of EM over the words (on 1 MB,
seconds a round holding the interpreter lock)."""
LIMITS: Final = Limits(seconds=600, memory_bytes=2560 * MEGABYTE)
"""Per request (the start, or one stretch of training) and per worker."""
STRETCH_SECONDS: Final = 5.0
"""A remote jump trains in requests of about this long (at least one step each), so that no request
nears the time limit however far the jump goes, and the page hears from the worker between them."""
SCHEME_VIEWS: dict[Scheme, Callable[[SchemeRun, str], SchemeViews]] = {
    "wordpiece": WordPieceViews,
    "unigram": UnigramViews,
}
"""Each scheme's stage views, by name (its run's hooks are :data:`~.scheme_run.SCHEME_STEPS`)."""

Progress = Callable[[int, int], object]
RunT = TypeVar("RunT", bound=TrainingRun | SchemeRun)
ViewsT = TypeVar("ViewsT", bound=RunProducer)


@dataclass(frozen=True, slots=True)
class StepperState:
    """Where a run is (:class:`~mergescope_ui.shared.training_run.Stepper`'s fields, as a record)."""

    position: int
    pulled: int
    finished: bool
    stop_reason: str | None
    max_steps: int


@dataclass(frozen=True, slots=True)
class QuizAsk:
    """The quiz's question about the next step, and its choices (in label order)."""

    question: str
    choices: tuple[str, ...]


class Hooks:
    """A scheme's hooks, as every driver has them, and what a driver without a worker or a lattice says."""

    noun: str = "step"  # :class:`~.scheme_run.SchemeSteps` says what these hooks are
    ahead: int = AHEAD
    has_lattice: bool = False
    identity: Hashable  # what the run was trained from (the text's digest and the settings)

    def hooks(self, steps: type[SchemeSteps[Any]]) -> None:
        """Take a WordPiece or Unigram run's hooks from its :class:`~.scheme_run.SchemeSteps`."""
        self.noun, self.ahead, self.has_lattice = steps.noun, steps.ahead, steps.has_lattice

    def here(self) -> tuple[Any, Any] | None:
        """The run and its views, when they are in this process (a live room follows them)."""
        return None

    def stop(self, message: str = "") -> None:
        """End the run's worker, if it has one."""

    def settle(self, *, progress: Progress | None = None) -> None:
        """Wait (with ``progress``) for the end of a request the page stopped waiting for, if any."""

    def lattice_words(self) -> list[str]:
        """The words offered for the lattice (:meth:`~.scheme_run.SchemeSteps.lattice_words`)."""
        return []

    def lattice(self, word: str) -> Lattice:
        """``word``'s lattice under the pieces of the step shown (a ValueError for a word too long, or a
        scheme without one)."""
        raise ValueError("a lattice is drawn for a Unigram run; choose Unigram")


class LocalDriver(Hooks, Generic[RunT, ViewsT]):
    """A run in this process, its stage views and its scheme's quiz question, answering the page."""

    def __init__(self, run: RunT, views: ViewsT, quiz: QuizQuestion[Any]) -> None:
        self.run, self.views, self.quiz, self.identity = run, views, quiz, run.identity

    @property
    def state(self) -> StepperState:
        """Where the run is."""
        run = self.run
        return StepperState(run.position, run.pulled, run.finished, run.stop_reason, run.max_steps)

    def here(self) -> tuple[RunT, ViewsT]:
        return self.run, self.views

    def advance(
        self,
        want: int,
        *,
        progress: Progress | None = None,
        stopped: Callable[[], bool] | None = None,
        seconds: float | None = None,
        within: bool = False,
    ) -> StepperState:
        """Train until ``want`` steps are made (or training ends); ``progress(done, 1000)`` between two
        steps, and with ``within`` inside a step too where the scheme reports there (a Unigram round:
        only where ``progress`` cannot raise, :meth:`~.scheme_run.SchemeSteps.during`); it returns
        early, between two steps, once ``stopped()`` or after ``seconds``."""
        run = self.run
        start, began = run.pulled, time.monotonic()
        todo = max(0, want - start)
        while run.pulled < want:
            if within and progress is not None:  # a step may be long
                self.during(_within(progress, run.pulled - start, todo))
            try:
                if not run.pull():
                    break
            finally:
                if within:
                    self.during(None)
            if progress is not None:
                progress(int(1000 * (run.pulled - start) / todo), 1000)
            if (stopped is not None and stopped()) or (
                seconds is not None and time.monotonic() - began >= seconds
            ):
                break
        return self.state

    def during(self, progress: Progress | None) -> None:
        """Report ``progress`` inside the next steps too (None: stop), where the scheme can."""

    def jump(self, target: int, *, progress: Progress | None = None) -> StepperState:
        """Train up to step ``target`` and show it (or the last step, where training stopped)."""
        self.run.jump(target, progress=progress)
        return self.state

    def ping(self) -> None:
        """Nothing: a remote driver's way to wait for a request the page stopped waiting for."""

    def show(self, position: int) -> StepperState:
        """Show step ``position`` (at most the steps trained)."""
        self.run.position = max(0, min(position, self.run.pulled))
        return self.state

    def places_from(self, k: int, start: int) -> None:
        """The stage shows step ``k``'s places from the ``start``-th on."""
        if 0 < k <= self.run.pulled:
            self.views.place_start[k] = start

    def window(self, *, serial: int, options: StageSettings, notice: str = "", tab: str = "places") -> Window:
        position = self.run.position
        return self.views.window(position=position, serial=serial, settings=options, notice=notice, tab=tab)

    def ask(self) -> QuizAsk | None:
        """The quiz's question about the step after the one shown (None when training has ended)."""
        upcoming = self.run.peek()
        if upcoming is None:
            return None
        return QuizAsk(question=self.quiz.question(upcoming), choices=tuple(self.quiz.choices(upcoming)))

    def grade(self, step: int, guess: str) -> QuizResult | None:
        """Grade ``guess`` against step ``step`` (made already); None when it is no choice of its question
        (a report from the browser names only those)."""
        records = self.run.records
        if not 0 < step <= len(records):
            return None
        made = records[step - 1]
        return self.quiz.grade(guess, made) if guess in self.quiz.choices(made) else None

    def answer(self, guess: str | None) -> QuizResult | None:
        """Grade ``guess`` (None: no guess) against the next step, then show that step."""
        upcoming = self.run.peek()
        result = self.quiz.grade(guess, upcoming) if guess and upcoming is not None else None
        self.run.forward()
        return result


class SchemeDriver(LocalDriver[SchemeRun, SchemeViews]):
    """A WordPiece or Unigram run here, its views, and the hooks of its :class:`~.scheme_run.SchemeSteps`."""

    identity: SchemeIdentity

    def __init__(self, run: SchemeRun, views: SchemeViews) -> None:
        super().__init__(run, views, views.quiz)
        self.hooks(type(run.steps))

    def during(self, progress: Progress | None) -> None:
        self.run.steps.during(progress)

    def lattice_words(self) -> list[str]:
        return self.run.steps.lattice_words(self.run)

    def lattice(self, word: str) -> Lattice:
        return self.run.steps.lattice(self.run, word)


def _within(progress: Progress, done: int, todo: int) -> Progress:
    """A step's progress (thousandths) as the progress of ``todo`` steps of which ``done`` are done."""

    def report(d: int, t: int) -> None:
        progress(int(1000 * (done + d / max(t, 1)) / max(todo, 1)), 1000)

    return report


def start_driver(text: str, settings: SchemeSettings, *, progress: Progress | None = None) -> SchemeDriver:
    """A run of ``settings`` on ``text`` with its views, here (a ValueError that says how to fix a bad
    text or size)."""
    run = start_scheme_run(text, settings, progress=progress)
    return SchemeDriver(run, SCHEME_VIEWS[settings.scheme](run, text))


def open_driver(text: str, settings: SchemeSettings, *, progress: Progress | None = None) -> Driver:
    """A driver for ``text``: here when the text is small (quick: ``progress`` is not called, so nothing
    interrupts the start), else in a session worker."""
    if len(text) <= IN_PROCESS_CHARS:
        return start_driver(text, settings)
    return RemoteSchemeDriver.start(text, settings, progress=progress)


class RemoteSchemeDriver(Remote, Hooks):
    """A :class:`SchemeDriver` kept in a session worker: the same questions, asked over its pipe.

    ``state`` is the worker's, as of the last answer.  A worker that ended (a limit, a crash, Cancel)
    makes every later question a ``ValueError`` with the reason.
    """

    def __init__(self, remote: Remote, identity: SchemeIdentity, state: StepperState) -> None:
        super().__init__(remote.worker, remote.handle)
        self.identity, self._state = identity, state
        self.hooks(SCHEME_STEPS[identity.settings.scheme])

    @classmethod
    def start(
        cls,
        text: str,
        settings: SchemeSettings,
        *,
        progress: Progress | None = None,
        limits: Limits | None = None,
    ) -> RemoteSchemeDriver:
        """Start a worker and the run in it (the worker cap, a bad text: a ValueError saying so; an
        error, or the page stopping to wait (Cancel): the worker goes)."""
        remote, (_, identity, state) = Remote.open(
            _start, text, settings, name="scheme", limits=limits or LIMITS, progress=progress
        )
        return cls(remote, identity, state)  # a worker let go idle builds the run again (#28)

    @property
    def state(self) -> StepperState:
        return self._state

    def _call(self, method: str, *args: Any, progress: Progress | None = None, **kwargs: Any) -> Any:
        value, state = self.call(
            _ask, method, args, kwargs, progress=progress, late=self._late, beat=progress is not None
        )
        self._now(state)
        return value

    def _late(self, answer: tuple[Any, StepperState]) -> None:
        self._now(answer[1])  # an interrupted request's end: where the run got to

    def _now(self, state: StepperState) -> None:
        self._state = state
        self.remember(_restore, state.pulled, state.position, key="state")

    # ----- the driver's questions -----
    def advance(self, want: int, *, progress: Progress | None = None) -> StepperState:
        start = self.state.pulled
        todo = max(1, want - start)
        while self.state.pulled < want and not self.state.finished:
            have = self.state.pulled - start

            def part(done: int, total: int, have: int = have) -> None:
                if progress is not None:
                    progress(int(1000 * have / todo + done * (want - start - have) / todo), 1000)

            before = self.state.pulled
            self._call("advance", want, progress=part, seconds=STRETCH_SECONDS)
            if self.state.pulled == before:
                break
        return self.state

    def jump(self, target: int, *, progress: Progress | None = None) -> StepperState:
        if target < 0:
            raise ValueError(f"step {target} is negative; steps start at 0")
        self.advance(target, progress=progress)
        return self.show(target)

    def settle(self, *, progress: Progress | None = None) -> None:
        self._call("ping", progress=progress)

    def show(self, position: int) -> StepperState:
        self._call("show", position)
        return self.state

    def places_from(self, k: int, start: int) -> None:
        self._call("places_from", k, start)

    def window(self, *, serial: int, options: StageSettings, notice: str = "", tab: str = "places") -> Window:
        return cast(Window, self._call("window", serial=serial, options=options, notice=notice, tab=tab))

    def ask(self) -> QuizAsk | None:
        return cast(QuizAsk | None, self._call("ask"))

    def answer(self, guess: str | None) -> QuizResult | None:
        return cast(QuizResult | None, self._call("answer", guess))

    def grade(self, step: int, guess: str) -> QuizResult | None:
        return cast(QuizResult | None, self._call("grade", step, guess))

    def lattice_words(self) -> list[str]:
        return cast(list[str], self._call("lattice_words"))

    def lattice(self, word: str) -> Lattice:
        return cast(Lattice, self._call("lattice", word))


Driver = LocalDriver[Any, Any] | RemoteSchemeDriver
"""A run as the Train page asks it, for every scheme (see the module docstring)."""


# ----- in the worker -----
_METHODS = frozenset(
    {"advance", "ping", "show", "places_from", "window", "ask", "answer", "grade", "lattice_words", "lattice"}
)


def _start(ctx: Context, text: str, settings: SchemeSettings) -> tuple[int, SchemeIdentity, StepperState]:
    driver = start_driver(text, settings, progress=ctx.progress)
    return ctx.put(driver), driver.identity, driver.state


def _restore(ctx: Context, handle: int, pulled: int, position: int) -> None:
    """The run built again (its worker was let go idle) brought to where it was."""
    driver: SchemeDriver = ctx.get(handle)
    driver.advance(pulled, progress=ctx.progress)
    driver.show(position)


def _ask(
    ctx: Context, handle: int, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Any, StepperState]:
    if method not in _METHODS:
        raise ValueError(f"a scheme run answers no {method!r}")
    driver: SchemeDriver = ctx.get(handle)
    if method == "advance":
        kwargs = {**kwargs, "progress": ctx.progress, "stopped": ctx.stopped, "within": True}
    value = getattr(driver, method)(*args, **kwargs)
    return value, driver.state
