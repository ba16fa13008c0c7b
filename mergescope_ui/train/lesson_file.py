"""An offline lesson file: a training run's steps as one self-contained HTML page (pure: no Streamlit).

The page (:mod:`mergescope_ui.shared.stage.offline`) draws the steps on the stage exactly as the Train
page does: the same producer (:class:`~.stage_data.StageViews`, or WordPiece's and Unigram's views) builds
each step's view, the same script draws it.  Nothing in it is fetched, so it opens from a disk, a USB
stick or a mail.  :func:`lesson_html` makes it for a :class:`LessonRequest` (the text, the scheme and its
settings, a range of steps); the Train page's "Download this lesson" button
(:mod:`.lesson_file_view`) and ``python -m mergescope_ui.lesson`` call it.

>>> from bpe_core import TrainOptions
>>> request = LessonRequest(text="low low lower newest", name="classroom", scheme="bpe",
...     settings=TrainOptions(vocab_size=266, pattern="none"), first=0, last=5)
>>> page = lesson_html(request)
>>> page.startswith("<!doctype html>"), "Content-Security-Policy" in page, "http://" in page
(True, True, False)
>>> steps_range("30"), steps_range("10-40")
((0, 30), (10, 40))
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bpe_core import Trainer, TrainOptions
from mergescope_ui.shared.html.styles import ASSETS as HTML_ASSETS
from mergescope_ui.shared.html.theme import page_css
from mergescope_ui.shared.stage.contract import Span, StepView, TokenLabel, Window, view_ids
from mergescope_ui.shared.stage.offline import OfflinePage, offline_html
from mergescope_ui.shared.stage.producer import RunProducer, StageSettings
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun

from .cards import CARD_CSS
from .pair_bars import BARS_CSS
from .scheme_driver import start_driver
from .scheme_run import SchemeSettings
from .scheme_stage import SCHEME_STAGE_CSS, visible
from .stage_data import StageViews

MAX_LESSON_STEPS = 2_000
"""The most steps one lesson file holds (its views are some 5–10 kB each)."""
MAX_LESSON_MB = 20
MAX_LESSON_BYTES = MAX_LESSON_MB * 2**20
"""The largest lesson file made: past it, a smaller range."""
MAX_LESSON_CHARS = 200_000
"""The longest text a lesson file is trained on here (the app trains it again, in the request)."""
SCHEMES = ("bpe", "wordpiece", "unigram")
SCHEME_LABELS = {"bpe": "BPE", "wordpiece": "WordPiece", "unigram": "Unigram"}
_RANGE = re.compile(r"\s*(\d+)\s*(?:[-–]\s*(\d+)\s*)?")


@dataclass(frozen=True, slots=True, kw_only=True)
class LessonRequest:
    """What a lesson file is made of: the ``text`` (``name`` says which, plain text), the ``scheme`` and
    its ``settings`` (BPE's :class:`~bpe_core.TrainOptions`, WordPiece's or Unigram's
    :class:`~.scheme_run.SchemeSettings`), the steps ``first``..``last`` (0 is before the first), and how
    the stage is set (``large``: presenter mode; ``animate``; ``speed``: Play's seconds per step)."""

    text: str
    name: str
    scheme: str
    settings: TrainOptions | SchemeSettings
    first: int = 0
    last: int = 30
    large: bool = False
    animate: bool = True
    speed: float = 1.0

    def __post_init__(self) -> None:
        check_range(self.first, self.last)
        if self.scheme not in SCHEMES:
            raise ValueError(f"the scheme {self.scheme!r} is unknown; use bpe, wordpiece or unigram")
        wanted = TrainOptions if self.scheme == "bpe" else SchemeSettings
        if not isinstance(self.settings, wanted):
            given = type(self.settings).__name__
            raise ValueError(f"{self.scheme}'s settings are a {wanted.__name__}, not a {given}")
        if not self.text:
            raise ValueError("the text is empty; give a text to train on")
        if len(self.text) > MAX_LESSON_CHARS:
            raise ValueError(
                f"the text has {len(self.text):,} characters, more than the {MAX_LESSON_CHARS:,} a lesson "
                "file is made from; use a shorter part of it"
            )


def check_range(first: int, last: int) -> None:
    """A ValueError that says how to fix a range of steps that is not one, or too long for one file (steps
    ``first``..``last`` are ``last - first`` steps after the first one shown).

    >>> check_range(0, 2_000)
    >>> check_range(5, 2_006)
    Traceback (most recent call last):
    ValueError: steps 5–2,006 are 2,001 steps, more than the 2,000 one lesson file holds; choose fewer
    """
    if not 0 <= first <= last:
        raise ValueError(f"the steps {first}–{last} are not a range; give a first step from 0 up to the last")
    if last - first > MAX_LESSON_STEPS:
        raise ValueError(
            f"steps {first:,}–{last:,} are {last - first:,} steps, more than the {MAX_LESSON_STEPS:,} one "
            "lesson file holds; choose fewer"
        )


def steps_range(value: str) -> tuple[int, int]:
    """``K`` (steps 0 to K) or ``A-B`` as (first, last); a ValueError that says how to write one."""
    match = _RANGE.fullmatch(value)
    if match is None:
        raise ValueError(f"the steps {value!r} are not a range; write K (steps 0 to K) or A-B, such as 10-40")
    first, last = (0, int(match[1])) if match[2] is None else (int(match[1]), int(match[2]))
    check_range(first, last)
    return first, last


@dataclass(frozen=True, slots=True)
class _Trained:
    """A run trained to the range's end, its producer, and each step's line in the list of steps."""

    producer: RunProducer
    lines: list[str]
    noun: str


def _train(request: LessonRequest) -> _Trained:
    if isinstance(request.settings, TrainOptions):
        options = request.settings
        run = TrainingRun(Trainer(request.text, options), identity=RunIdentity.of(request.text, options))
        run.jump(request.last)
        views = StageViews(run, request.text)
        lines = [f"{_bytes(s.left)} + {_bytes(s.right)} → {_bytes(s.left + s.right)}" for s in run.records]
        return _Trained(views, lines, "merge")
    driver = start_driver(request.text, request.settings)
    driver.jump(request.last)
    records: Sequence[Any] = driver.run.records
    if request.settings.scheme == "wordpiece":
        lines = [f"{visible(s.left)} + {visible(s.right)} → {visible(s.token)}" for s in records]
    else:
        lines = [
            f"{r.vocab_size_before:,} → {r.vocab_size:,} pieces, pruned "
            + ", ".join(visible(p.piece) for p in r.pruned[:8])
            + (" …" if len(r.pruned) > 8 else "")
            for r in records
        ]
    return _Trained(driver.views, lines, driver.noun)


def _bytes(token: bytes) -> str:
    return visible(token.decode("utf-8", errors="backslashreplace"))


def lesson_window(producer: RunProducer, *, first: int, last: int, settings: StageSettings) -> Window:
    """Every step ``first``..``last`` (as far as training went) in one window, its places as sent first;
    a range that ends before training does says so past its end (Next stops there)."""
    end = min(last, producer.last)
    first = min(first, end)
    base = producer.window(position=first, serial=0, settings=settings)
    views = tuple(_held(producer.build(k, 0)) for k in range(first, end + 1))
    finished = producer.finished and end == producer.last
    wording = base.wording
    if not finished:
        wording = replace(wording, past_limit=f"This lesson file ends at step {end:,}; showing it.")
    return replace(
        base,
        position=first,
        lo=first,
        hi=end,
        views=views,
        labels=producer.labels(sorted(view_ids(views))),
        last=end,
        finished=finished,
        max_steps=end,
        wording=wording,
        settle_ms=0,
    )


def _held(view: StepView) -> StepView:
    """``view`` with the places it holds as all there are: the file asks no server for more."""
    places = view.places
    if places is None or places.total <= len(places.items):
        return view
    return replace(view, places=replace(places, total=len(places.items)))


def lesson_html(request: LessonRequest) -> str:
    """The lesson file for ``request`` (a ValueError that says what to change: a bad range or setting, a
    text too long, a file over :data:`MAX_LESSON_BYTES`)."""
    trained = _train(request)
    settings = StageSettings(large=request.large, animate=request.animate, speed=request.speed, settle_ms=0)
    window = lesson_window(trained.producer, first=request.first, last=request.last, settings=settings)
    label = SCHEME_LABELS[request.scheme]
    noun = trained.noun
    steps = f"{noun}s {window.lo:,}–{window.hi:,}"
    about = (
        f"{label} on “{request.name}” ({len(request.text):,} characters), {steps}"
        f"{' (training ended there)' if window.finished else ''}; each step holds its first places. "
        "→ / ← or Next / Back step, P plays. Made by MergeScope; works offline."
    )
    page = OfflinePage(
        title=f"MergeScope lesson: {label} on {request.name}",
        about=about,
        window=window,
        before_first=f"This lesson file starts at {noun} {window.lo:,}; showing it.",
        after_last=f"This lesson file ends at {noun} {window.hi:,}; showing it.",
        css=page_css(presenter=False, pages=CARD_CSS + BARS_CSS + SCHEME_STAGE_CSS),
        presenter_css=(HTML_ASSETS / "presenter.css").read_text(encoding="utf-8"),
        fallback=_fallback(window),
        after=_step_list(trained.lines, window, noun),
    )
    text = offline_html(page)
    size = len(text.encode("utf-8"))
    if size > MAX_LESSON_BYTES:
        raise ValueError(
            f"the lesson file would be {size / 2**20:.1f} MB, more than {MAX_LESSON_MB} MB; "
            "choose a smaller range of steps"
        )
    return text


def _fallback(window: Window) -> str:
    """The first step of the window as static HTML (for a reader without scripts): its heading, its card
    and its text from the start, every string escaped."""
    view = window.views[0]
    tokens = "".join(_token_html(window.labels, span) for span in view.head)
    more = '<span class="ms-more"> … the text goes on</span>' if view.head_more else ""
    return (
        '<section class="ms-lesson-static" aria-label="The first step">'
        f"<p><b>{html.escape(view.heading)}</b> (this page needs scripts to step; the list of every step is "
        "below)</p>"
        f"{view.card}"
        f"<p>{html.escape(view.after_caption)}</p>"
        f'<div class="ms-tokens">{tokens}{more}</div></section>'
    )


def _token_html(labels: dict[str, TokenLabel], span: Span) -> str:
    out = []
    for token_id in span.ids:
        label = labels.get(str(token_id))
        if label is None:
            continue
        classes, title = html.escape(label.classes, quote=True), html.escape(label.title, quote=True)
        text = html.escape(label.text)
        out.append(f'<span class="{classes}" title="{title}">{text}</span>' + "<br>" * label.breaks)
    return "".join(out)


def _step_list(lines: list[str], window: Window, noun: str) -> str:
    """Every step of the window in one list (plain text lines, escaped)."""
    items = "".join(
        f'<li value="{k}">{html.escape(lines[k - 1])}</li>' for k in range(max(1, window.lo), window.hi + 1)
    )
    if not items:
        return ""
    return (
        f'<details class="ms-lesson-steps" open><summary>Every {noun} in this file</summary>'
        f"<ol>{items}</ol></details>"
    )
