"""Drive the Train page's stage under AppTest, which runs no JavaScript.

The stage (a components v2 component) reports to Python through one state value,
``shown`` (mergescope_ui.shared.stage.contract.Shown: the step it shows, the first
place it needs, the serial of the window it was sent).  AppTest has no element type
for such a component, so :func:`send` builds the widget state a browser would send
for a user's action and runs the script with it (AppTest's ``_run``);
:func:`stage_data` reads back what the page sent to the stage.
"""

from __future__ import annotations

import html
import json
import math
import re
from typing import Any

from streamlit.testing.v1 import AppTest


def _stage(at: AppTest):
    found = [el for el in at.get("bidi_component") if el.proto.component_name == "mergescope_stage"]
    assert len(found) == 1, f"expected one stage on the page, found {len(found)}"
    return found[0]


def as_html(nodes: list[Any]) -> str:
    """A block sent as element trees (markup.Element as JSON), written as the HTML the stage builds
    from it: every text escaped, as the browser's text nodes are."""
    out = []
    for node in nodes:
        if isinstance(node, str):
            out.append(html.escape(node, quote=True))
            continue
        attrs = "".join(f' {name}="{html.escape(value, quote=True)}"' for name, value in node["attrs"])
        inner = "" if node["tag"] == "br" else f"{as_html(node['children'])}</{node['tag']}>"
        out.append(f"<{node['tag']}{attrs}>{inner}")
    return "".join(out)


def stage_data(at: AppTest) -> dict[str, Any]:
    """The window the page last sent to the stage (mergescope_ui.shared.stage.contract.Window, as JSON),
    each view's card and chart written back as HTML (:func:`as_html`)."""
    proto = _stage(at).proto
    data = json.loads(proto.bytes if proto.WhichOneof("data") == "bytes" else proto.json)  # bytes: a room
    for v in data["views"]:
        v["card"], v["pairs"] = as_html(v["card"]), as_html(v["pairs"])
    return data


def view(at: AppTest, step: int | None = None) -> dict[str, Any]:
    """The stage's view of ``step`` (default: the step the page says is shown)."""
    data = stage_data(at)
    k = data["position"] if step is None else step
    (found,) = [v for v in data["views"] if v["step"] == k]
    return found


def send(
    at: AppTest,
    *,
    position: Any = None,
    start: Any = 0,
    jump: Any = None,
    next: Any = None,  # the quiz's Next button
    places: Any = None,
    tab: str = "places",
    why: dict[str, bool] | None = None,
    answers: Any = None,
) -> AppTest:
    """Run the page as after one action in the stage, reported as the browser does:
    ``position=k`` (it shows step k: Next, Back, a step in reach), ``jump=k`` (Jump to step k),
    ``next=k`` (the quiz's Next at step k: it reveals step k + 1), ``places={"step": k, "start": n}``
    (it pages to places it was not sent), ``answers=[{"step": k, "guess": label}, ...]`` (the quiz's
    guesses the stage judged, as its reports carry them).  ``why``: the report's ``window`` and
    ``settled`` (left out, the report is a window's, as from a browser that does not say)."""
    if jump is not None:
        position = jump
    if next is not None:
        position = next + 1
    if places is not None:
        position, start = places.get("step"), places.get("start")
    el = _stage(at)
    states = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = el.proto.id
    shown = {"position": position, "start": start, "serial": stage_data(at)["serial"], "tab": tab}
    shown.update(why or {})
    if answers is not None:
        shown["answers"] = answers
    state.json_value = json.dumps({"shown": shown})
    at._run(states)
    assert not at.exception, at.exception
    return at


def step_through(at: AppTest, *steps: int) -> AppTest:
    """Report each step in turn, as Next / Back clicks in the stage would."""
    for k in steps:
        send(at, position=k)
    return at


def spans_ids(spans: list[dict[str, Any]]) -> list[int]:
    """The token ids of a stretch of text as sent (after the step)."""
    return [i for span in spans for i in span["ids"]]


LOSSES = re.compile(r"loss before([\d,.]+)loss after([\d,.]+) · ([+−][\d,.]+) \(([+−][\d,.]+)%\)")


def _number(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def assert_losses_shown(card: str, before: float, after: float) -> None:
    """The card shows ``before`` and ``after`` rounded to decimals that tell them apart, and the change
    (absolute, and relative in %) to two significant digits, never "+0.00"."""
    found = LOSSES.search(card)
    assert found, f"no loss before/after/change in {card!r}"
    shown_before, shown_after, delta, pct = found.groups()
    places = len(shown_before.partition(".")[2])
    assert places == len(shown_after.partition(".")[2]) >= 2
    assert abs(_number(shown_before) - before) <= 0.5 * 10**-places
    assert abs(_number(shown_after) - after) <= 0.5 * 10**-places
    assert shown_before != shown_after  # the change shows in the numbers themselves
    for text, value in ((delta, after - before), (pct, 100 * (after - before) / before)):
        digits = text.lstrip("+−").replace(",", "").replace(".", "").lstrip("0")
        assert len(digits) >= 2, text
        assert math.isclose(_number(text), value, rel_tol=0.05), (text, value)
