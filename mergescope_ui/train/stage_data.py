"""What the stage shows at each step of a BPE training run: the records of :mod:`..shared.stage_contract`
(pure: no Streamlit).

The stage (:mod:`.stage`) steps through a window of steps in the browser, so the server sends
it each step of the window at once: the merge card and the pair chart as escaped HTML, the
sentences, and the sequence around the merge as spans with their marks (each new token marked,
with the pair it was made from): the first places where the new token now stands in the whole
text, and the text from its start.  Token labels travel once
per window in a table: id -> :class:`~..shared.stage_contract.TokenLabel`.

>>> from bpe_core import Trainer, TrainOptions
>>> from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
>>> text, options = "low low lower", TrainOptions(vocab_size=260, pattern="none", tie_break="lowest-id")
>>> run = TrainingRun(Trainer(text, options), identity=RunIdentity.of(text, options))
>>> views = StageViews(run, text)
>>> run.jump(2), views.view(2).places.total, views.view(2).places.items[0].token
(2, 3, (Span(ids=(257,), mark='new', was=(256, 119)),))
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from bpe_core.bpe import Place as TextPlace
from bpe_core.byte_level import partial_note
from mergescope_ui.shared.html.tokens import STAGE_LABEL_COLUMNS, stage_label
from mergescope_ui.shared.stage.contract import (
    SETTLE_MS,
    Place,
    Places,
    Spans,
    StepView,
    TokenLabel,
    Window,
    Wording,
    spans,
    view_ids,
)
from mergescope_ui.shared.training_run import TrainingRun
from mergescope_ui.shared.workers.bounded import remember
from mergescope_ui.shared.workers.remote_trainer import characters_for, replay_for

from .cards import intro_card_html, merge_card_html
from .pair_bars import pair_bars_html

PLACES_PER_STEP = 6  # places sent with each step; the stage shows a few at a time and asks for more
CONTEXT_COLUMNS = 12  # text shown on each side of a place, in columns (a CJK character takes two)
HEAD_CHARS = 600  # the text from its start: characters shown
TOKEN_COLUMNS = STAGE_LABEL_COLUMNS  # columns a token's label takes in the sequences before it is cut
BEHIND, AHEAD = 4, 8  # steps sent before and after the current one
MAX_VIEWS = 400  # step views kept per run


@dataclass(frozen=True, slots=True)
class StageOptions:
    """How the stage runs: presenter sizes, the quiz, the animation, Play's seconds per step, the
    page's choices whose arrow keys step the stage (a CSS selector, "" for none), and how long stepping
    pauses before the page follows (``Window.settle_ms``)."""

    large: bool = False
    quiz: bool = False
    animate: bool = True
    speed: float = 1.0
    arrows_from: str = ""
    settle_ms: int = SETTLE_MS


def merged_spans(ids: Sequence[int], pair: tuple[int, int], new_id: int) -> Spans:
    """``ids`` after the merge of ``pair`` into ``new_id``: each new token marked ``new``, made from the pair.

    >>> merged_spans([5, 9, 6], (1, 2), 9)[1]
    Span(ids=(9,), mark='new', was=(1, 2))
    """
    return spans(ids, {n: ("new", pair) for n, i in enumerate(ids) if i == new_id})


@dataclass(eq=False)
class RunViews:
    """What every session on a run of one identity (text and settings) builds alike: its step views
    and its tokens' labels.  The engine is deterministic, so the identity fixes every record, and a
    class of 40 on one lesson builds each step's view once, not 40 times."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    views: dict[tuple[int, int], StepView] = field(default_factory=dict)  # (step, first place) -> view
    labels: dict[int, TokenLabel] = field(default_factory=dict)
    columns: dict[int, int] = field(default_factory=dict)  # token id -> columns its label takes


class SharedViews:
    """The :class:`RunViews` of each run identity for as long as some session's views hold them (a weak
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
        self._views: weakref.WeakValueDictionary[Hashable, RunViews] = weakref.WeakValueDictionary()

    def get(self, identity: Hashable) -> RunViews:
        """The views and labels of runs of ``identity``, made when no session holds them."""
        with self._lock:
            views = self._views.get(identity)
            if views is None:
                views = self._views[identity] = RunViews()
            return views

    def __len__(self) -> int:
        return len(self._views)


SHARED = SharedViews()


def shared_views(identity: Hashable) -> RunViews:
    """The views and labels of runs of ``identity`` (a BPE run's :class:`RunIdentity`, or a WordPiece or
    Unigram run's ``SchemeIdentity``), the same object for every session."""
    return SHARED.get(identity)


class StageViews:
    """Each step's view for one run, built on demand and kept (and the replay that finds the places).

    A live room's students page through places with :meth:`page` from their own sessions' threads,
    beside the teacher's: every build goes through one lock (the replay moves from step to step).
    The views and labels are kept in the :class:`RunViews` of the run's identity, which every
    session's views of an equal run share (each under its own lock first, then the shared one).
    """

    def __init__(self, run: TrainingRun, text: str) -> None:
        trainer = run.trainer
        self.lock = threading.RLock()
        self.run = run
        self.special_ids = frozenset(trainer.special_tokens.values())
        self.replay = replay_for(trainer, text)  # a large text's stays in its worker
        self.head_bytes = len(text[:HEAD_CHARS].encode("utf-8"))
        self.text_chars = len(text)
        self.chars = characters_for(trainer, text)  # ties a partial token's bytes to its character
        self.place_start: dict[int, int] = {}  # step -> the first place the stage asked to see
        self._merges: list[tuple[tuple[int, int], int]] = []
        self._shared = shared_views(run.identity)

    # ----- one step -----
    def _merges_so_far(self) -> list[tuple[tuple[int, int], int]]:
        records = self.run.records
        self._merges.extend((s.pair, s.new_id) for s in records[len(self._merges) :])
        return self._merges

    def view(self, k: int) -> StepView:
        """The view of step ``k`` (0: the raw bytes), built once per first place shown."""
        return self._view(k, self.place_start.get(k, 0))

    def _view(self, k: int, start: int) -> StepView:
        shared = self._shared
        with self.lock, shared.lock:
            return remember(shared.views, (k, start), lambda: self._build(k, start), limit=MAX_VIEWS)

    def page(self, step: int, start: int) -> tuple[StepView, dict[str, TokenLabel]] | None:
        """Step ``step``'s view with its places from the ``start``-th on, and the labels of the tokens
        it shows (a live room's :class:`~mergescope_ui.shared.rooms.Pager`); None for a step not trained.

        >>> from bpe_core import Trainer, TrainOptions
        >>> from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
        >>> text, options = "ab " * 20, TrainOptions(vocab_size=260, pattern="none")
        >>> run = TrainingRun(Trainer(text, options), identity=RunIdentity.of(text, options))
        >>> views = StageViews(run, text)
        >>> _ = run.jump(1)
        >>> view, labels = views.page(1, 6)
        >>> view.places.start, [p.number for p in view.places.items], views.page(2, 0)
        (6, [7, 8, 9, 10, 11, 12], None)
        """
        if not 0 < step <= self.run.pulled or start < 0:
            return None
        with self.lock:
            view = self._view(step, start)
            return view, self.labels(view_ids((view,)))

    def _build(self, k: int, start: int) -> StepView:
        run, replay = self.run, self.replay
        replay.move_to(k, self._merges_so_far())
        head = replay.head(max_bytes=self.head_bytes)
        more = self.text_chars > HEAD_CHARS
        if k == 0:
            upcoming = run.records[0] if run.records else None
            return StepView(
                step=0,
                heading="Step 0: the text as raw bytes",
                status="👉 Every token is one byte. Press Next ▶ (or the → key) to make the first merge.",
                card=intro_card_html(special_ids=self.special_ids),
                pairs=""
                if upcoming is None
                else pair_bars_html(upcoming, name_winner=False, chars=self.chars),
                figures=self._figures(k),
                before_caption="",
                after_caption="The text as raw bytes, from its start",
                head=spans(head),
                head_more=more,
                places=None,
            )
        step = run.records[k - 1]
        # Enough bytes for the columns on each side (a byte shown as <XX> takes four), then cut to them.
        found = [
            self._trim(p)
            for p in replay.places(
                step.new_id, start=start, limit=PLACES_PER_STEP, context_bytes=3 * CONTEXT_COLUMNS
            )
        ]

        def line(ids: Sequence[int]) -> Spans:
            return merged_spans(ids, step.pair, step.new_id)

        places = tuple(
            Place(
                number=p.index + 1,
                lead=line(p.left),
                token=line((p.token,)),
                tail=line(p.right),
                link=_link(p, nxt, line),
                cut_before=not p.text_start,
                cut_after=not p.text_end,
            )
            for p, nxt in zip(found, [*found[1:], None], strict=True)
        )
        return StepView(
            step=k,
            heading=f"Step {k:,} of up to {run.identity.settings.max_merges:,} merges",
            status="",
            card=merge_card_html(step, special_ids=self.special_ids, chars=self.chars),
            pairs=pair_bars_html(step, chars=self.chars),
            figures=self._figures(k),
            before_caption=f"Before merge {k}",
            after_caption=f"After merge {k}",
            head=line(head),
            head_more=more,
            places=Places(total=step.replaced, start=start, items=places),
        )

    def _trim(self, place: TextPlace) -> TextPlace:
        """``place`` with its context cut to :data:`CONTEXT_COLUMNS` on each side (at least one token)."""
        left, right = list(place.left), list(place.right)
        keep_left = keep_right = 0
        used = 0
        for i in reversed(left):
            used += self.columns(i)
            if keep_left and used > CONTEXT_COLUMNS:
                break
            keep_left += 1
        used = 0
        for i in right:
            used += self.columns(i)
            if keep_right and used > CONTEXT_COLUMNS:
                break
            keep_right += 1
        return replace(
            place,
            left=tuple(left[len(left) - keep_left :]),
            right=tuple(right[:keep_right]),
            text_start=place.text_start and keep_left == len(left),
            text_end=place.text_end and keep_right == len(right),
        )

    def _figures(self, k: int) -> str:
        trainer, step = self.run.trainer, self.run.records[k - 1] if k else None
        tokens = step.tokens_after if step else trainer.initial_tokens
        saved = f" ({step.replaced:,} fewer)" if step else ""
        return (
            f"Vocab {256 + len(self.special_ids) + k:,} · corpus tokens {tokens:,}{saved} · "
            f"{trainer.corpus_bytes / max(tokens, 1):.3f} bytes per token"
        )

    # ----- token labels -----
    def _labels_of(self, ids: Iterable[int]) -> dict[str, TokenLabel]:
        with self.lock:
            return self.labels(ids)

    def columns(self, token_id: int) -> int:
        """Columns token ``token_id``'s label takes in the sequences (as shortened)."""
        columns = self._shared.columns
        if token_id not in columns:
            self.labels([token_id])
        return columns[token_id]

    def labels(self, ids: Iterable[int]) -> dict[str, TokenLabel]:
        """id (as a string) -> its label in the stage's sequences."""
        # Every token made so far: the replay's vocab holds only those up to the step it is at.
        vocab = self.run.trainer.vocab
        shared = self._shared
        out: dict[str, TokenLabel] = {}
        with shared.lock:
            for i in ids:
                entry = shared.labels.get(i)
                if entry is None:
                    token = vocab[i]
                    special = i in self.special_ids
                    # a token that ends inside a character says which one, wherever it stands (the places too)
                    note = "" if special or not self.chars else partial_note(token, self.chars, shown=1)
                    entry, shared.columns[i] = stage_label(i, token, special=special, note=note)
                    shared.labels[i] = entry
                out[str(i)] = entry
        return out

    # ----- the window -----
    def window(
        self, *, position: int, serial: int, options: StageOptions, notice: str = "", tab: str = "places"
    ) -> Window:
        """Everything the stage needs around ``position`` (in the quiz, no step after it); ``tab``: the
        sequences' tab a new serial opens on."""
        run = self.run
        # the quiz sends no step after the current one (it would give the answer away), and as many
        # before it as the window holds otherwise: Back steps through them with no round trip
        lo = max(0, position - (BEHIND + AHEAD if options.quiz else BEHIND))
        hi = position if options.quiz else min(run.pulled, position + AHEAD)
        with self.lock:
            views = sorted((self.view(k) for k in self._order(lo, hi)), key=lambda v: v.step)
        if options.quiz and views[0].step == 0:  # before the first guess, the counts would give it away
            views[0] = replace(views[0], pairs="")
        ids = view_ids(views)
        max_merges = run.identity.settings.max_merges
        last, stop = run.pulled, run.stop_reason or ""
        return Window(
            serial=serial,
            position=position,
            lo=lo,
            hi=hi,
            views=tuple(views),
            labels=self._labels_of(sorted(ids)),
            last=last,
            finished=run.finished,
            max_steps=max_merges,
            quiz=options.quiz,
            animate=options.animate,
            speed=options.speed,
            large=options.large,
            notice=notice,
            tab=tab,
            settle_ms=options.settle_ms,
            wording=Wording(
                heading=f"Step {{step}} of up to {max_merges:,} merges",
                waiting="Training up to step {step}…",
                waiting_card="Merge {step}",
                past_end=f"Training stopped at step {last:,}: {stop}. Showing step {last:,}.",
                past_limit=(
                    f"Training stops at step {max_merges:,}, the number of merges set in the sidebar; "
                    "showing it."
                ),
                finished=f"🏁 Training finished after {last:,} merge{'' if last == 1 else 's'}: {stop}.",
            ),
            arrows_from=options.arrows_from,
        )

    def _order(self, lo: int, hi: int) -> list[int]:
        """Steps lo..hi, the nearest to the replay's step first (so it moves as little as it can)."""
        steps = list(range(lo, hi + 1))
        return steps if self.replay.step <= lo else steps[::-1] if self.replay.step >= hi else steps


def _link(place: TextPlace, nxt: TextPlace | None, line: Callable[[Sequence[int]], Spans]) -> Spans | None:
    """The text between ``place``'s token and the next place's, when that one stands in ``place``'s
    right context (same chunk): the two are then shown on one line."""
    if nxt is None or nxt.chunk != place.chunk:
        return None
    d = nxt.at - place.at
    if not 1 <= d <= len(place.right):
        return None
    return line(place.right[: d - 1])
