"""What a producer sends to the stage: typed records, and the one function that turns them into JSON.

The stage (``assets/stage.js``) shows a *window* of steps, each step's view made on the server: HTML
blocks (the card, the chart), plain sentences, and stretches of the text as *spans*, each a run of
token ids under one *mark*.  The browser steps, pages, fits and reports, and knows nothing of BPE.
Producers (:class:`~.producer.StageProducer`: BPE, WordPiece and Unigram training, the encode trace)
build these records; the stage's geometry is defined here once, for all of them.  The names are the
JavaScript's: ``stage.js`` opens with a JSDoc typedef of each record, and
``tests/ui/train/test_stage_contract.py`` fails when the two drift apart.

Nothing reaches the browser as markup: labels and sentences are plain text; a view's ``card`` and
``pairs`` are HTML built from escaped parts, which :func:`wire` sends as trees of
:class:`~.markup.Element` records that the stage builds element by element.

>>> wire(spans([5, 6, 9], {2: ("new", (1, 2))}))
[{'ids': [5, 6], 'mark': '', 'was': None}, {'ids': [9], 'mark': 'new', 'was': [1, 2]}]
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Literal, TypeAlias, TypeVar

from .markup import Element, fragment

# How a span is shown after the step: "" plain; "new" each token outlined (what the step made;
# before the step, what it was made from is shown in one dashed box).  A producer that needs
# another mark adds it here, to the typedef and to the MARKS table of stage.js (a test checks).
Mark: TypeAlias = Literal["", "new"]
MARKS: tuple[Mark, ...] = ("", "new")


SETTLE_MS = 450  # stepping paused this long: the page beside the stage follows (sent as Window.settle_ms)

# The stage's geometry, the same for every producer (a producer that needs another value overrides the
# attribute of its :class:`~.producer.StageProducer` and says why).
BEHIND, AHEAD = 4, 8  # steps a window holds before and after the step shown
PLACES_PER_STEP = 6  # places sent with each step; the stage shows a few at a time and asks for more
CONTEXT_COLUMNS = 12  # text shown on each side of a place, in columns (a CJK character takes two)
HEAD_CHARS = 600  # the text from its start: characters shown
LABEL_COLUMNS = 14  # columns a token's label may take in the stage's sequences before it is shortened
MAX_VIEWS = 400  # step views a producer keeps


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenLabel:
    """How one token looks in the stage's sequences (sent once per window for every id shown).

    ``text``: the label, plain text (shortened in the middle when long); ``classes``: its CSS
    classes; ``title``: the tooltip, plain text (id, bytes, the whole text); ``breaks``: line
    breaks after it in running text (the newlines it holds, at most two); ``spoken``: the label in
    words for a screen reader ("space" for ␣), "" when it reads as it is.  A byte-level token that
    starts or ends inside a UTF-8 character carries those bytes: ``closes``, the bytes at its start
    that end a character begun in the token before; ``opens``, those at its end that begin one
    finished in the tokens after (``()`` where it starts or ends on a character's edge).  The stage
    joins them along a line and shows each character its tokens make above them (one glyph over its
    2-4 byte tokens, named by the character for a screen reader).
    """

    text: str
    classes: str
    title: str
    breaks: int
    spoken: str = ""
    closes: tuple[int, ...] = ()
    opens: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Span:
    """Token ids in a row under one :data:`Mark`, and what they were before the step.

    ``was`` is None where the step changed nothing; else the ids it made ``ids`` from (a merge:
    the pair), which the stage shows in one box where it shows the text before the step.
    """

    ids: tuple[int, ...]
    mark: Mark
    was: tuple[int, ...] | None


Spans: TypeAlias = tuple[Span, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Place:
    """One place where the step's new token stands, with the text around it.

    ``number`` counts places from 1 in text order.  ``lead`` is the text just before the token,
    ``token`` the token itself, ``tail`` the text just after it; ``cut_before`` / ``cut_after``
    say the text goes on past them.  ``link`` is set when the next place is near (its token
    stands in this place's ``tail``): the text between the two tokens.  The stage then shows
    both places on one line: ``lead``, ``token``, ``link``, the next place's ``token`` and so
    on, ending with the last one's ``tail``.
    """

    number: int
    lead: Spans
    token: Spans
    tail: Spans
    link: Spans | None
    cut_before: bool
    cut_after: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Places:
    """The places of a step's new token: ``total`` of them, ``items`` from the ``start``-th (0-based) on."""

    total: int
    start: int
    items: tuple[Place, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class StepView:
    """Everything the stage shows at one step.

    ``heading``: the step line; ``status``: a hint under it ("" for none); ``card`` and
    ``pairs``: HTML blocks built from escaped parts (sent as element trees, see :func:`wire`);
    ``figures``: the line under the stage; ``head``: the text from its start (``head_more``: it
    goes on); ``places``: where the step changed the text
    (None at a step that changed nothing, such as step 0); ``before_caption`` /
    ``after_caption``: the captions of the two sequences ("" hides ``before``).
    """

    step: int
    heading: str
    status: str
    card: str
    pairs: str
    figures: str
    before_caption: str
    after_caption: str
    head: Spans
    head_more: bool
    places: Places | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Wording:
    """The stage's sentences for a step it has no view of, or past the end (plain text; ``{step}``
    stands for a step number), and the names of the places a step changed: ``places_tab`` (the tab),
    ``next_places`` (its pager's ▸ button) and ``places_noun`` (its count, "places 1–3 of 9"); and
    ``step_noun``, what one step is called ("round" for Unigram: the box reads "Jump to round")."""

    heading: str
    waiting: str
    waiting_card: str
    past_end: str
    past_limit: str
    finished: str
    places_tab: str = "Where it merged"
    next_places: str = "The next places where it merged"
    places_noun: str = "places"
    step_noun: str = "step"


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonTitles:
    """The tooltips of the stage's Back, Next, Play and Reset buttons (plain text), for a producer that
    steps something other than a training run (the stage's own speak of merges learned)."""

    back: str
    next: str
    play: str
    reset: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Choice:
    """One choice of a quiz :class:`Question`: ``label``, what is guessed (and reported back, plain
    text); ``short``, what it shows (shortened in the middle); and how that guess goes, so the stage
    judges it with no round trip: ``outcome`` ("right", "tied" or "wrong") and ``verdict`` (the
    sentence, plain text)."""

    label: str
    short: str
    outcome: str
    verdict: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """The quiz's question about step ``step``, asked while the step before it is shown: ``text`` (our
    own words), its ``choices`` in label order (their order gives nothing away), and ``answer`` (the
    step's own choice's short label, named when Next is pressed with no guess)."""

    step: int
    text: str
    choices: tuple[Choice, ...]
    answer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """A guess the stage judged: the ``step`` it was about, the ``guess`` (a choice's label) and its
    ``outcome``.  A window carries the answers the server keeps; the stage reports the ones it judged
    since (the server grades those again: an ``outcome`` from the browser is not taken, read as "")."""

    step: int
    guess: str
    outcome: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Window:
    """What the stage is sent at each run: the views of steps ``lo``..``hi`` around ``position``.

    ``serial`` changes when the server moves the stage itself (a jump that had to train, the
    quiz's Next, a new run): the stage then shows ``position`` and drops what it held.  ``labels``
    maps each token id shown (as a string, JSON's keys) to its :class:`TokenLabel`.  ``last``:
    the last step made (``finished``: there is none after it); ``max_steps``: the most the
    settings allow.  ``quiz``: Next asks the server (it grades the guess) instead of stepping.
    ``notice``: a sentence for the status line, shown once.  ``arrows_from``: a CSS selector of the
    page's own choices (outside the stage) whose ← → keys step the stage too (the quiz's guess),
    "" for none.  ``tab``: the sequences' tab a new serial opens on, ``"places"`` (where it merged)
    or ``"head"`` (from the start of the text).  ``titles``: the buttons' tooltips, in place of the
    stage's own (which speak of training); None keeps those.  ``settle_ms``: how long stepping pauses
    before the stage reports it settled (the page beside the stage follows then); 0 in a live room,
    whose students follow each step the teacher shows.

    The quiz in the stage (``quiz``): ``questions`` about the steps after ``position`` the window holds
    (the stage asks each before it shows its step, judges the guess itself and reports it, see
    :class:`Shown`), ``answers`` the server keeps (the score counts them and the ones reported since),
    ``hint``: the ranked counts stay in sight during a question (else the guess takes their place
    until the reveal).  ``hidden_counts``: a
    step whose ranked counts the stage hides (a live room's question about the step after it is open;
    -1 for none).
    """

    serial: int
    position: int
    lo: int
    hi: int
    views: tuple[StepView, ...]
    labels: dict[str, TokenLabel]
    last: int
    finished: bool
    max_steps: int
    quiz: bool
    animate: bool
    speed: float
    large: bool
    notice: str
    wording: Wording
    arrows_from: str
    tab: str = "places"
    titles: ButtonTitles | None = None
    settle_ms: int = SETTLE_MS
    questions: tuple[Question, ...] = ()
    answers: tuple[Answer, ...] = ()
    hint: bool = False
    hidden_counts: int = -1


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown:
    """What the stage reports back (its one state value): the step it shows, the first place it needs
    sent for that step, the ``serial`` of the window it was sent (a report about an older
    window is ignored), and the sequences' tab shown (``"places"`` or ``"head"``).

    Why it reports: ``window``, it needs a window the server has not sent (a step or places it does
    not hold, or it nears an edge of the one it holds), at once; ``settled``, stepping paused on this
    step (or a single action such as a tab chose it), so what the page shows beside the stage can
    follow.  A producer may redraw everything at either (the simplest), or only the stage at a
    ``window`` report and only the rest at a ``settled`` one (the Train page:
    :mod:`mergescope_ui.train.stage`).  ``answers``: the quiz's guesses the stage judged that the
    window it holds does not list yet (every report carries them until one does)."""

    position: int
    start: int
    serial: int
    tab: str = "places"
    window: bool = True
    settled: bool = False
    answers: tuple[Answer, ...] = ()


MAX_STEP = 10_000_000  # a step or place number from the browser above this is not one
MAX_ANSWERS = 1000  # answers read from one report (the stage sends the ones the server has not listed)
MAX_LABEL = 2000  # characters of a guessed label read from a report (a pair of long tokens is shorter)
TABS = ("places", "head")  # the sequences' tabs: where it merged, and from the start of the text


def _number(value: object) -> int | None:
    """A step or place number sent by the browser, or None when it is not one.

    >>> _number(3), _number(3.0), _number(True), _number("3"), _number(-1)
    (3, 3, None, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return None
    return int(value) if 0 <= value <= MAX_STEP else None


def read_shown(value: object) -> Shown | None:
    """The stage's report (its state value, from the browser) as a record, or None when it is not one;
    a tab it does not know is "places"; a report that does not say why it came is a ``window`` one
    (not ``settled``).

    >>> read_shown({"position": 3, "start": 0, "serial": 2})
    Shown(position=3, start=0, serial=2, tab='places', window=True, settled=False, answers=())
    >>> read_shown({"position": -1, "start": 0, "serial": 2}) is None
    True
    >>> read_shown({"position": 3, "start": 0, "serial": 2, "tab": "head"}).tab, read_shown("3")
    ('head', None)
    >>> r = read_shown({"position": 3, "start": 0, "serial": 2, "window": False, "settled": True})
    >>> r.window, r.settled
    (False, True)
    >>> read_shown({"position": 3, "start": 0, "serial": 2,
    ...     "answers": [{"step": 3, "guess": "a + b", "outcome": "right"}, {"step": "x"}, 7]}).answers
    (Answer(step=3, guess='a + b', outcome=''),)
    """
    if not isinstance(value, dict):
        return None
    numbers = [_number(value.get(name)) for name in ("position", "start", "serial")]
    if None in numbers:
        return None
    position, start, serial = numbers
    tab = value.get("tab") if value.get("tab") in TABS else "places"
    return Shown(
        position=position or 0,
        start=start or 0,
        serial=serial or 0,
        tab=str(tab),
        window=value.get("window") is not False,
        settled=value.get("settled") is True,
        answers=_answers(value.get("answers")),
    )


def _answers(value: object) -> tuple[Answer, ...]:
    """The answers a report carries (each a step number and a label; anything else is skipped)."""
    if not isinstance(value, list):
        return ()
    out = []
    for item in value[:MAX_ANSWERS]:
        if not isinstance(item, dict):
            continue
        step, guess = _number(item.get("step")), item.get("guess")
        if step is not None and isinstance(guess, str) and 0 < len(guess) <= MAX_LABEL:
            out.append(Answer(step=step, guess=guess, outcome=""))
    return tuple(out)


RECORDS: tuple[type, ...] = (
    TokenLabel,
    Span,
    Place,
    Places,
    StepView,
    Wording,
    ButtonTitles,
    Choice,
    Question,
    Answer,
    Window,
    Shown,
    Element,
)
# A view's HTML blocks leave Python as element trees (markup.fragment), never as markup.
_BLOCKS = frozenset({"card", "pairs"})


def spans(ids: Sequence[int], changed: Mapping[int, tuple[Mark, tuple[int, ...]]] | None = None) -> Spans:
    """``ids`` as spans: the id at each position in ``changed`` alone in its span, with its mark and
    what it was before the step; the others in plain runs.

    >>> [(s.ids, s.mark, s.was) for s in spans([5, 6, 9, 7], {2: ("new", (1, 2))})]
    [((5, 6), '', None), ((9,), 'new', (1, 2)), ((7,), '', None)]
    """
    changed = changed or {}
    out: list[Span] = []
    run: list[int] = []
    for n, i in enumerate(ids):
        if n in changed:
            if run:
                out.append(Span(ids=tuple(run), mark="", was=None))
                run = []
            mark, was = changed[n]
            out.append(Span(ids=(i,), mark=mark, was=was))
        else:
            run.append(i)
    if run:
        out.append(Span(ids=tuple(run), mark="", was=None))
    return tuple(out)


def view_ids(views: Iterable[StepView]) -> set[int]:
    """Every token id the ``views`` show (for the label table a window carries)."""
    ids: set[int] = set()
    for v in views:
        lines = [v.head] + [
            line
            for p in (v.places.items if v.places else ())
            for line in (p.lead, p.token, p.tail, p.link)
            if line
        ]
        ids.update(i for line in lines for span in line for i in (*span.ids, *(span.was or ())))
    return ids


_FIELDS: dict[type, tuple[str, ...]] = {}
_PLAIN = (str, int, float, bool, type(None))
# Step views wired already, by the view itself (its id, the view kept beside it so the id stays its
# own): a producer keeps its views (StageProducer), and a window shares all its views but one or two
# with the one before, so each view is wired once.  The wired form is only read (sent as JSON).
_WIRED_VIEWS: OrderedDict[int, tuple[StepView, dict[str, Any]]] = OrderedDict()
_WIRED_LOCK = threading.Lock()
MAX_WIRED_VIEWS = 512


def wire(value: Any) -> Any:
    """``value`` (a record, or tuples, lists and dicts of them) as plain JSON-ready data: each record a
    dict of its fields by name, tuples as lists.  The only way records leave Python.

    Runs at every run that sends a window, so a tuple of ids (a tuple is of one type, as its
    annotation says) is copied whole, and a step view already wired is not wired again (each call
    gets its own dict of the view's fields; what they hold is shared: set a field anew, never change
    what it holds).

    >>> from dataclasses import replace
    >>> view = StepView(step=1, heading="Merge 1", status="", card="<b>card</b>", pairs="", figures="",
    ...     before_caption="", after_caption="", head=(), head_more=False, places=None)
    >>> first, again = wire(view), wire(view)
    >>> first["card"] is again["card"], first is again, first == wire(replace(view))
    (True, False, True)
    """
    cls = type(value)
    if cls in _PLAIN:
        return value
    if cls is tuple or cls is list:
        if value and type(value[0]) is int:
            return list(value)
        return [wire(v) for v in value]
    if cls is dict:
        return {str(k): wire(v) for k, v in value.items()}
    names = _FIELDS.get(cls)
    if names is None:
        if not is_dataclass(value):
            raise ValueError(f"{cls.__name__} is not a stage record; send the records of stage_contract")
        names = _FIELDS[cls] = tuple(f.name for f in fields(value))
    if cls is StepView:
        return _wire_view(value, names)
    return {name: wire(getattr(value, name)) for name in names}


# Step views encoded as JSON already, by the view (as _WIRED_VIEWS): the sessions of a class on one run
# share their views (mergescope_ui.shared.stage.producer.ViewMemo), so each is encoded once, not per session.
_VIEW_JSON: OrderedDict[int, tuple[StepView, bytes]] = OrderedDict()


def window_json(window: Window) -> bytes:
    """``window`` as the JSON bytes the stage reads: ``json.dumps(wire(window))`` but for the order of its
    keys, each step view encoded once.  A window of a lesson is some 150 kB, nearly all views, and
    ``json.dumps`` holds the interpreter lock for all of it: per session and per window, that is time
    every other session's page and the server's own loop wait.  Given as bytes, Streamlit sends it as
    it is (no JSON of it made, nor hashed, at each mount).

    >>> view = StepView(step=1, heading="Merge 1", status="", card="<b>card</b>", pairs="", figures="",
    ...     before_caption="", after_caption="", head=(), head_more=False, places=None)
    >>> words = Wording(heading="heading", waiting="waiting", waiting_card="card", past_end="end",
    ...     past_limit="limit", finished="finished")
    >>> window = Window(serial=2, position=1, lo=1, hi=1, views=(view,), labels={}, last=1,
    ...     finished=False, max_steps=5, quiz=False, animate=True, speed=1.0, large=False, notice="",
    ...     wording=words, arrows_from="")
    >>> json.loads(window_json(window)) == wire(window), window_json(window).startswith(b'{"serial":2,')
    (True, True)
    """
    names = _FIELDS.get(Window) or tuple(f.name for f in fields(Window))
    rest = {name: wire(getattr(window, name)) for name in names if name != "views"}
    head = json.dumps(rest, separators=(",", ":")).encode()
    views = b",".join(map(_view_json, window.views))
    return head[:-1] + b',"views":[' + views + b"]}"


def _view_json(view: StepView) -> bytes:
    return _kept(_VIEW_JSON, view, lambda: json.dumps(wire(view), separators=(",", ":")).encode())


def _wire_view(view: StepView, names: tuple[str, ...]) -> dict[str, Any]:
    def make() -> dict[str, Any]:
        return {n: wire(fragment(getattr(view, n)) if n in _BLOCKS else getattr(view, n)) for n in names}

    kept = _kept(_WIRED_VIEWS, view, make)
    return dict(kept)  # a field set anew in one window's copy stays out of the others


_T = TypeVar("_T")


def _kept(memo: OrderedDict[int, tuple[StepView, _T]], view: StepView, make: Callable[[], _T]) -> _T:
    """``memo``'s value for ``view`` (by its id, the view kept beside it so the id stays its own), made by
    ``make()`` the first time; past :data:`MAX_WIRED_VIEWS` the least recently used goes first."""
    with _WIRED_LOCK:
        kept = memo.get(id(view))
        if kept is not None and kept[0] is view:
            memo.move_to_end(id(view))
            return kept[1]
    made = make()
    with _WIRED_LOCK:
        memo[id(view)] = (view, made)
        while len(memo) > MAX_WIRED_VIEWS:
            memo.popitem(last=False)
    return made
