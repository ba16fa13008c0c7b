"""Drive the Train page's stage under AppTest, which runs no JavaScript.

The stage (a components v2 component) reports to Python through its state
(``position``) and its triggers (``jump``, ``next``, ``places``).  AppTest has
no element type for such a component, so :func:`send` builds the widget
states a browser would send and runs the script with them (AppTest's
``_run``); :func:`stage_data` reads back what the page sent to the stage.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from streamlit.testing.v1 import AppTest

_SEQ = itertools.count(1)
# The component's trigger widget: "$$STREAMLIT_INTERNAL_KEY_" + its id + "__events"
# (streamlit.components.v2.bidi_component.main._make_trigger_id).
_TRIGGERS = "$$STREAMLIT_INTERNAL_KEY_{id}__events"


def _stage(at: AppTest):
    found = [el for el in at.get("bidi_component") if el.proto.component_name == "mergescope_train_stage"]
    assert len(found) == 1, f"expected one stage on the page, found {len(found)}"
    return found[0]


def stage_data(at: AppTest) -> dict[str, Any]:
    """The data the page last sent to the stage (see mergescope_ui.train.stage_data)."""
    return json.loads(_stage(at).proto.json)


def view(at: AppTest, step: int | None = None) -> dict[str, Any]:
    """The stage's view of ``step`` (default: the step the page says is shown)."""
    data = stage_data(at)
    return data["views"][str(data["position"] if step is None else step)]


def send(at: AppTest, *, position: int | None = None, **triggers: Any) -> AppTest:
    """Run the page as after the stage reported ``position`` and/or fired ``triggers``
    (``jump=``, ``next=``, ``places=``)."""
    el = _stage(at)
    states = at._tree.get_widget_states()
    if position is not None:
        state = states.widgets.add()
        state.id = el.proto.id
        state.json_value = json.dumps({"position": {"step": position, "seq": next(_SEQ)}})
    if triggers:
        state = states.widgets.add()
        state.id = _TRIGGERS.format(id=el.proto.id)
        state.json_trigger_value = json.dumps([{"event": k, "value": v} for k, v in triggers.items()])
    at._run(states)
    assert not at.exception, at.exception
    return at


def step_through(at: AppTest, *steps: int) -> AppTest:
    """Report each step in turn, as Next / Back clicks in the stage would."""
    for k in steps:
        send(at, position=k)
    return at
