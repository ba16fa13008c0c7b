"""What WordPiece's and Unigram's producers share: their run, how a label looks, and the few HTML pieces
both draw (pure: no Streamlit).

Each (:class:`~.wordpiece_stage.WordPieceViews`, :class:`~.unigram_stage.UnigramViews`) gives each piece
an id; the stage gets the same ``Window`` as from BPE's producer (:mod:`.stage_data`).

>>> visible("▁a b\\nc")
'▁a␣b↵c'
"""

from __future__ import annotations

import html
from abc import abstractmethod
from typing import Any, ClassVar

from bpe_core.byte_level import WHITESPACE_MARKERS, spoken
from mergescope_ui.shared.html.tokens import clip_label, label_width
from mergescope_ui.shared.stage.contract import (
    BEHIND,
    HEAD_CHARS,
    LABEL_COLUMNS,
    Place,
    Places,
    Question,
    Spans,
    StepView,
    TokenLabel,
)
from mergescope_ui.shared.stage.producer import RunProducer, shared_views

from .quiz import QuizQuestion, stage_question
from .scheme_run import SchemeRun

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
    return "".join(WHITESPACE_MARKERS.get(ch, ch) for ch in piece)


def esc(text: object) -> str:
    """Escaped for HTML text and attributes."""
    return html.escape(str(text), quote=True)


class SchemeViews(RunProducer):
    """The views of one :class:`~.scheme_run.SchemeRun`'s steps, built on demand and kept."""

    scheme: ClassVar[str]  # the scheme whose runs it shows (its run's trainer and steps are that scheme's)
    quiz: ClassVar[QuizQuestion[Any]]  # the scheme's quiz question (about its own kind of step)
    # The quiz sends these steps before the one shown (as it always has here; BPE's sends a whole window).
    quiz_behind: ClassVar[int] = BEHIND

    def __init__(self, run: SchemeRun, text: str) -> None:
        if run.scheme != self.scheme:
            raise ValueError(f"{type(self).__name__} shows a {self.scheme} run, not a {run.scheme} one")
        super().__init__(shared_views(run.identity))  # every session's views of an equal run share them
        self.run: SchemeRun = run
        self.head_more = len(text) > HEAD_CHARS

    @property
    def max_steps(self) -> int:
        return self.run.max_steps

    def ask(self, k: int) -> Question | None:
        records = self.run.records
        return stage_question(self.quiz, records[k - 1], k) if 0 < k <= len(records) else None

    def make_label(self, piece: str, *, classes: str, title: str) -> tuple[TokenLabel, int]:
        """A label for ``piece`` (plain text, shortened in the middle when long) and the columns it takes."""
        text = clip_label(visible(piece), LABEL_COLUMNS)
        said = spoken(text)
        label = TokenLabel(
            text=text,
            classes=classes,
            title=title,
            breaks=min(2, piece.count("\n")),
            spoken="" if said == text else said,
        )
        return label, label_width(text)

    @abstractmethod
    def figures(self, k: int) -> str:
        """The line of figures after step ``k`` (0: before the first)."""

    def step_view(self, k: int, head: Spans, *, places: Places | None = None, **texts: str) -> StepView:
        """Step ``k``'s view: its ``head``, ``places`` and ``texts`` (heading, card, pairs, captions,
        status: "" unless given), with its figures."""
        texts = {"status": "", "before_caption": ""} | texts
        return StepView(
            step=k, figures=self.figures(k), head=head, head_more=self.head_more, places=places, **texts
        )

    def ended(self, step: str) -> tuple[int, str, str]:
        """The last step made, why training stopped, and "finished after N steps" (``step``: its noun)."""
        last, stop = self.run.pulled, self.run.stop_reason or ""
        return last, stop, f"finished after {last:,} {step}{'' if last == 1 else 's'}: {stop}."


def word_place(number: int, token: Spans, *, lead: Spans = (), tail: Spans = ()) -> Place:
    """A place that is one word of the text, whole (nothing cut before or after it)."""
    return Place(
        number=number, lead=lead, token=token, tail=tail, link=None, cut_before=False, cut_after=False
    )
