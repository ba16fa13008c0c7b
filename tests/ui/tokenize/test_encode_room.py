"""A live room opened from Watch it encode (issue 26), headless: it follows the encode stage, asks no
question (the trace has no next merge to guess), and students page through a step's places."""

from __future__ import annotations

from bpe_core.tokenizer.encode_trace import trace_encode
from mergescope_ui.shared.rooms import host as room_host
from mergescope_ui.shared.rooms import room_store
from mergescope_ui.tokenize import keys
from tests.ui.tokenize.test_page import cid, quick
from tests.ui.tokenize.test_watch_encode import watch
from tests.ui.train.stage_driver import step_through

TEXT = "the other theme: " * 12  # each early merge stands in many places


def test_a_room_follows_the_encode_stage_and_pages_its_places() -> None:
    at = watch(**{keys.TEXT: TEXT})
    trace = trace_encode(quick(cid("lighthouse"), 500), TEXT)
    at.button(key="room_open").click().run()
    assert not at.exception, at.exception
    store = room_store()
    code = store.hosted(at.session_state[room_host.HOST])
    assert code is not None
    assert not [b for b in at.button if b.key in ("room_ask", "room_ask_what_if", "room_reveal")]  # no quiz
    step_through(at, 1, 2)
    state = store.state(code)
    assert state is not None and state.position == 2 and not state.finished
    window = store.window(code, position=99, serial=1)
    assert window is not None and window.position == window.hi == 2  # nothing past the teacher's step
    assert [v.heading for v in window.views][-1].startswith("Step 2 of")
    many = trace.steps[1]
    assert len(many.places) > 6
    paged = store.window(code, position=2, serial=2, starts={2: 6})
    places = {v.step: v for v in paged.views}[2].places
    assert places is not None and places.start == 6 and places.items[0].number == 7
    at.button(key="room_end").click().run()
    assert not at.exception, at.exception
    assert store.state(code).closed
