"""One base for every producer of the stage's records (pure: no Streamlit).

A producer turns something that goes step by step (a BPE, WordPiece or Unigram training run, a text's
encode trace) into the records of :mod:`.contract`.  :class:`StageProducer` does what every producer does
alike: the window of steps around the one shown (:meth:`~StageProducer.window`), the pages of a step's
places a live room asks for (:meth:`~StageProducer.page`), the memo of the views it built
(:class:`ViewMemo`, shared by the sessions on an equal run: :func:`shared_views`), the table of token
labels with the columns each takes, and the text around a place cut to :data:`~.contract.CONTEXT_COLUMNS`
(:meth:`~StageProducer.fit`).  A producer gives its hooks only: :meth:`~StageProducer.build` (a step's
view), :meth:`~StageProducer.label` (a token's label), :meth:`~StageProducer.wording` (the sentences
for steps it has no view of), :meth:`~StageProducer.titles` (the buttons' tooltips, when the stage's own
do not fit), and where it stands (:attr:`~StageProducer.last`, :attr:`~StageProducer.finished`,
:attr:`~StageProducer.max_steps`; a training run's producer, a :class:`RunProducer`, reads the first two
from its run).

>>> from .contract import spans
>>> class Counting(StageProducer):
...     last, finished, max_steps = 3, True, 3
...     def build(self, k, start):
...         return StepView(step=k, heading=f"Step {k}", status="", card="", pairs="", figures="",
...             before_caption="", after_caption="", head=spans([k]), head_more=False, places=None)
...     def label(self, token_id):
...         return TokenLabel(text=str(token_id), classes="", title="", breaks=0), 1
...     def wording(self):
...         return Wording(heading="Step {step}", waiting="", waiting_card="", past_end="", past_limit="",
...             finished="")
>>> window = Counting().window(position=3, serial=0, settings=StageSettings())
>>> window.lo, window.hi, [v.heading for v in window.views], sorted(window.labels)
(0, 3, ['Step 0', 'Step 1', 'Step 2', 'Step 3'], ['0', '1', '2', '3'])
"""

from __future__ import annotations

import threading
import weakref
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from typing import ClassVar, Protocol

from .contract import (
    AHEAD,
    BEHIND,
    CONTEXT_COLUMNS,
    MAX_VIEWS,
    SETTLE_MS,
    ButtonTitles,
    Question,
    StepView,
    TokenLabel,
    Window,
    Wording,
    view_ids,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class StageSettings:
    """How a person set the stage: presenter sizes, the quiz, the animation, Play's seconds per step, the
    page's choices whose arrow keys step the stage (a CSS selector, "" for none), how long stepping
    pauses before the page follows (``Window.settle_ms``), the quiz's ranked counts in sight as a hint
    during a question (``hint``), and ``upto``: no step after the one shown is sent (a live room's moment:
    its students see the teacher's step, never past it)."""

    large: bool = False
    quiz: bool = False
    animate: bool = True
    speed: float = 1.0
    arrows_from: str = ""
    settle_ms: int = SETTLE_MS
    hint: bool = False
    upto: bool = False


@dataclass(eq=False)
class ViewMemo:
    """The step views a producer built and its tokens' labels (with the columns each takes).  Every
    session on a run of one identity (text and settings) builds them alike: the engine is deterministic,
    so a class of 40 on one lesson shares one memo (:func:`shared_views`) and builds each view once."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    views: dict[tuple[int, int], StepView] = field(default_factory=dict)  # (step, first place) -> view
    labels: dict[int, TokenLabel] = field(default_factory=dict)
    columns: dict[int, int] = field(default_factory=dict)  # token id -> columns its label takes
    questions: dict[int, Question | None] = field(default_factory=dict)  # step -> the quiz's question


class SharedViews:
    """The :class:`ViewMemo` of each run identity for as long as some session's producer holds it (a weak
    map): a class shares one while it steps a lesson, and the server lets it go with the last session on
    that run (its memory comes back when the class leaves).

    >>> shared = SharedViews()
    >>> held = shared.get("lesson")
    >>> shared.get("lesson") is held, len(shared)
    (True, 1)
    >>> del held
    >>> len(shared)
    0
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._views: weakref.WeakValueDictionary[Hashable, ViewMemo] = weakref.WeakValueDictionary()

    def get(self, identity: Hashable) -> ViewMemo:
        """The views and labels of runs of ``identity``, made when no session holds them."""
        with self._lock:
            views = self._views.get(identity)
            if views is None:
                views = self._views[identity] = ViewMemo()
            return views

    def __len__(self) -> int:
        return len(self._views)


SHARED = SharedViews()


def shared_views(identity: Hashable) -> ViewMemo:
    """The views and labels of runs of ``identity`` (a BPE run's ``RunIdentity``, a WordPiece or Unigram
    run's ``SchemeIdentity``), the same object for every session."""
    return SHARED.get(identity)


class StageProducer(ABC):
    """Each step's view of one thing that steps, built on demand and kept, and the windows around a step.

    A live room's students page through places with :meth:`page` from their own sessions' threads, beside
    the teacher's: every build goes through :attr:`lock` (a producer's replay moves from step to step),
    then the memo's (which the sessions on an equal run share).
    """

    behind: ClassVar[int] = BEHIND
    ahead: ClassVar[int] = AHEAD
    # A window that sends no step after the one shown (a live room's moment: StageSettings.upto) sends as
    # many before it as the window holds otherwise: Back steps through them with no round trip.
    quiz_behind: ClassVar[int] = BEHIND + AHEAD

    def __init__(self, memo: ViewMemo | None = None) -> None:
        self.lock = threading.RLock()
        self.memo = ViewMemo() if memo is None else memo
        self.place_start: dict[int, int] = {}  # step -> the first place the stage asked to see

    # ----- the hooks -----
    @property
    @abstractmethod
    def last(self) -> int:
        """The last step made (the stage can show 0..last)."""

    @property
    @abstractmethod
    def finished(self) -> bool:
        """No step comes after :attr:`last`."""

    @property
    @abstractmethod
    def max_steps(self) -> int:
        """The most steps the settings allow."""

    @abstractmethod
    def build(self, k: int, start: int) -> StepView:
        """The view of step ``k`` (0: before the first) with its places from the ``start``-th on."""

    @abstractmethod
    def label(self, token_id: int) -> tuple[TokenLabel, int]:
        """Token ``token_id``'s label in the stage's sequences, and the columns it takes."""

    @abstractmethod
    def wording(self) -> Wording:
        """The stage's sentences for a step it has no view of, or past the end."""

    def titles(self) -> ButtonTitles | None:
        """The stage buttons' tooltips, where the stage's own (of merges learned) do not fit (None)."""
        return None

    def ask(self, k: int) -> Question | None:
        """The quiz's question about step ``k`` (made, 1 or more), or None: a producer with no quiz."""
        return None

    def question(self, k: int) -> Question | None:
        """The quiz's question about step ``k`` (:meth:`ask`), made once for every session on the run."""
        memo = self.memo
        with self.lock, memo.lock:
            if k not in memo.questions:
                memo.questions[k] = self.ask(k)
            return memo.questions[k]

    def replay_step(self) -> int:
        """The step the producer's replay of the text stands at: the steps nearest it are built first, so
        it moves as little as it can (0 for a producer with no replay)."""
        return 0

    # ----- the views -----
    def view(self, k: int) -> StepView:
        """The view of step ``k``, built once per first place shown."""
        return self._view(k, self.place_start.get(k, 0))

    def _view(self, k: int, start: int) -> StepView:
        memo = self.memo
        with self.lock, memo.lock:
            views = memo.views
            view = views.get((k, start))
            if view is None:
                if len(views) >= MAX_VIEWS:  # the oldest goes first
                    views.pop(next(iter(views)))
                view = views[(k, start)] = self.build(k, start)
            return view

    def page(self, step: int, start: int) -> tuple[StepView, dict[str, TokenLabel]] | None:
        """Step ``step``'s view with its places from the ``start``-th on, and the labels of the tokens it
        shows (a live room's :class:`~mergescope_ui.shared.rooms.model.Pager`); None for a step not made."""
        if not 0 < step <= self.last or start < 0:
            return None
        with self.lock:
            view = self._view(step, start)
            return view, self.labels(view_ids((view,)))

    # ----- token labels -----
    def labels(self, ids: Iterable[int]) -> dict[str, TokenLabel]:
        """id (as a string) -> its label in the stage's sequences."""
        memo = self.memo
        out: dict[str, TokenLabel] = {}
        with memo.lock:
            for i in ids:
                entry = memo.labels.get(i)
                if entry is None:
                    entry, memo.columns[i] = self.label(i)
                    memo.labels[i] = entry
                out[str(i)] = entry
        return out

    def columns(self, token_id: int) -> int:
        """Columns token ``token_id``'s label takes in the sequences (as shortened)."""
        columns = self.memo.columns
        if token_id not in columns:
            self.labels([token_id])
        return columns[token_id]

    def fit(self, ids: Iterable[int]) -> int:
        """How many of ``ids`` (the nearest to a place first) fit in :data:`~.contract.CONTEXT_COLUMNS`
        beside it: one at least."""
        kept = used = 0
        for i in ids:
            used += self.columns(i)
            if kept and used > CONTEXT_COLUMNS:
                break
            kept += 1
        return kept

    # ----- the window -----
    def window(
        self, *, position: int, serial: int, settings: StageSettings, notice: str = "", tab: str = "places"
    ) -> Window:
        """Everything the stage needs around ``position`` (with :attr:`StageSettings.upto`, no step after
        it; in the quiz, the questions about the steps after it); ``tab``: the sequences' tab a new serial
        opens on."""
        last = self.last
        position = max(0, min(position, last))
        lo = max(0, position - (self.quiz_behind if settings.upto else self.behind))
        hi = position if settings.upto else min(last, position + self.ahead)
        with self.lock:
            views = sorted((self.view(k) for k in self._order(lo, hi)), key=lambda v: v.step)
            if settings.upto and views[0].step == 0:  # before the first guess, the chart would give it away
                views[0] = replace(views[0], pairs="")
            labels = self.labels(sorted(view_ids(views)))
            asked = (self.question(k) for k in range(position + 1, hi + 1)) if settings.quiz else ()
            questions = tuple(q for q in asked if q is not None)
        return Window(
            serial=serial,
            position=position,
            lo=lo,
            hi=hi,
            views=tuple(views),
            labels=labels,
            last=self.last,
            finished=self.finished,
            max_steps=self.max_steps,
            quiz=settings.quiz,
            animate=settings.animate,
            speed=settings.speed,
            large=settings.large,
            notice=notice,
            wording=self.wording(),
            arrows_from=settings.arrows_from,
            tab=tab,
            titles=self.titles(),
            settle_ms=settings.settle_ms,
            questions=questions,
            hint=settings.hint,
        )

    def _order(self, lo: int, hi: int) -> list[int]:
        """Steps lo..hi, the nearest to the replay's step first (so it moves as little as it can)."""
        steps = list(range(lo, hi + 1))
        at = self.replay_step()
        return steps if at <= lo else steps[::-1] if at >= hi else steps


class Run(Protocol):
    """What a producer of a training run reads of it: the steps made so far, and whether training ended."""

    @property
    def pulled(self) -> int: ...

    @property
    def finished(self) -> bool: ...


class RunProducer(StageProducer):
    """The producer of a training run's steps (BPE's, WordPiece's, Unigram's): the steps it can show are
    the ones the run has made."""

    run: Run

    @property
    def last(self) -> int:
        return self.run.pulled

    @property
    def finished(self) -> bool:
        return self.run.finished
