"""What WordPiece's and Unigram's producers share: the window of step views around the step shown, the
token labels, and the few HTML pieces both draw (pure: no Streamlit).

A producer (:class:`~.wordpiece_stage.WordPieceViews`, :class:`~.unigram_stage.UnigramViews`) gives
each piece an id, builds the view of a step (:meth:`SchemeViews.build`) and says how a label looks
(:meth:`SchemeViews.label`); this class sends the stage the same :class:`~..shared.stage_contract.Window`
byte-level BPE's producer sends (:mod:`.stage_data`), so the stage, its controls, keys and presenter
mode work unchanged.

>>> visible("▁a b\\nc")
'▁a␣b↵c'
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterable
from dataclasses import replace

from mergescope_ui.shared.html.tokens import clip_label
from mergescope_ui.shared.stage.contract import (
    ButtonTitles,
    StepView,
    TokenLabel,
    Window,
    Wording,
    view_ids,
)
from mergescope_ui.shared.workers.bounded import remember

from .scheme_run import SchemeRun
from .stage_data import AHEAD, BEHIND, MAX_VIEWS, TOKEN_COLUMNS, StageOptions, shared_views

HEAD_CHARS = 600  # the text from its start: characters shown
PLACES_PER_STEP = 6  # places sent with each step (the stage pages through them and asks for more)

SCHEME_STAGE_CSS = """
<style>
.ms-card .ms-sc-score{font-size:1.05em;font-variant-numeric:tabular-nums;}
.ms-card .ms-sc-score b{font-size:1.1em;}
.ms-card .ms-sc-grid{display:grid;grid-template-columns:max-content max-content;gap:0 .8em;margin:.2rem 0;
  font-variant-numeric:tabular-nums;}
.ms-card .ms-sc-bpe{border-left:4px solid #1c7ed6;padding-left:.5em;}
.ms-card .ms-sc-shrink{height:.8em;background:rgba(128,128,128,.15);border-radius:.3em;overflow:hidden;
  margin:.2rem 0;}
.ms-card .ms-sc-shrink span{display:block;height:100%;background:#e8590c;}
.ms-bar.ms-bpe .ms-bar-f{background:#1c7ed6;}
.ms-bar.ms-bpe .ms-bar-l{text-decoration:underline 2px #1c7ed6;}
.ms-bar.ms-kept .ms-bar-f{background:#74c0fc;}
.ms-bar.ms-pruned .ms-bar-f{background:#e8590c;}
.ms-bars .ms-bars-sep{font-size:.85em;opacity:.8;margin:.25rem 0 .1rem 0;font-weight:600;}
</style>
"""


def visible(piece: str) -> str:
    """A piece as the stage writes it: white space made visible (``▁`` and ``##`` stay as they are)."""
    return piece.replace(" ", "␣").replace("\n", "↵").replace("\t", "⇥").replace("\r", "␍")


def esc(text: object) -> str:
    """Escaped for HTML text and attributes."""
    return html.escape(str(text), quote=True)


class SchemeViews:
    """The views of one :class:`~.scheme_run.SchemeRun`'s steps, built on demand and kept."""

    noun = "step"  # what one step is called in the stage's sentences

    def __init__(self, run: SchemeRun) -> None:
        self.run = run
        self.lock = threading.RLock()  # a live room's students page from their sessions' threads
        self.place_start: dict[int, int] = {}  # step -> the first place the stage asked to see
        self._shared = shared_views(run.identity)  # every session's views of an equal run share them

    # ----- to be given by each scheme -----
    def build(self, k: int, start: int) -> StepView:
        raise NotImplementedError

    def label(self, token_id: int) -> TokenLabel:
        raise NotImplementedError

    def wording(self) -> Wording:
        raise NotImplementedError

    def titles(self) -> ButtonTitles | None:
        """The stage buttons' tooltips, where the stage's own (of merges) do not fit; None keeps them."""
        return None

    # ----- shared -----
    def view(self, k: int) -> StepView:
        """The view of step ``k`` (0: before the first), built once per first place shown."""
        return self._view(k, self.place_start.get(k, 0))

    def _view(self, k: int, start: int) -> StepView:
        shared = self._shared
        with self.lock, shared.lock:
            return remember(shared.views, (k, start), lambda: self.build(k, start), limit=MAX_VIEWS)

    def page(self, step: int, start: int) -> tuple[StepView, dict[str, TokenLabel]] | None:
        """Step ``step``'s view with its places from the ``start``-th on, and the labels of its tokens
        (a live room's :class:`~mergescope_ui.shared.rooms.Pager`); None for a step not trained."""
        if not 0 < step <= self.run.pulled or start < 0:
            return None
        with self.lock:
            view = self._view(step, start)
            return view, self.labels(view_ids((view,)))

    def make_label(self, token_id: int, piece: str, *, classes: str, title: str) -> TokenLabel:
        """A label for ``piece`` (plain text, shortened in the middle when long)."""
        return TokenLabel(
            text=clip_label(visible(piece), TOKEN_COLUMNS),
            classes=classes,
            title=title,
            breaks=min(2, piece.count("\n")),
        )

    def labels(self, ids: Iterable[int]) -> dict[str, TokenLabel]:
        shared = self._shared
        out = {}
        with shared.lock:
            for i in ids:
                if i not in shared.labels:
                    shared.labels[i] = self.label(i)
                out[str(i)] = shared.labels[i]
        return out

    def window(self, *, position: int, serial: int, options: StageOptions, notice: str = "") -> Window:
        """Everything the stage needs around ``position`` (in the quiz, no step after it)."""
        run = self.run
        lo = max(0, position - BEHIND)
        hi = position if options.quiz else min(run.pulled, position + AHEAD)
        with self.lock:
            views = [self.view(k) for k in range(lo, hi + 1)]
            if options.quiz and views[0].step == 0:  # before the first guess, the chart would give it away
                views[0] = replace(views[0], pairs="")
            labels = self.labels(sorted(view_ids(views)))
        return Window(
            serial=serial,
            position=position,
            lo=lo,
            hi=hi,
            views=tuple(views),
            labels=labels,
            last=run.pulled,
            finished=run.finished,
            max_steps=run.max_steps,
            quiz=options.quiz,
            animate=options.animate,
            speed=options.speed,
            large=options.large,
            notice=notice,
            wording=self.wording(),
            arrows_from=options.arrows_from,
            titles=self.titles(),
        )
