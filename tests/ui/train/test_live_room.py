"""The teacher's live room on the Train page under AppTest: open, the room follows the steps, ask, reveal,
end with the summary and its CSV (issue 26)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from mergescope_ui.shared.keys import RUN
from mergescope_ui.shared.rooms import BLOCK, room_store
from mergescope_ui.shared.rooms import host as room_host
from mergescope_ui.shared.stage.contract import SETTLE_MS, view_ids
from mergescope_ui.train.whatif.branch import pair_label
from tests.ui.train.stage_driver import stage_data, step_through

ROOT = Path(__file__).resolve().parents[3]


def test_a_teacher_opens_a_room_that_follows_asks_reveals_and_ends() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.query_params.update({"corpus": "low_lower_newest_widest", "pattern": "none"})
    at.switch_page("pages/views/train.py").run()
    assert stage_data(at)["settle_ms"] == SETTLE_MS  # alone, the page follows once stepping pauses
    at.button(key="room_open").click().run()
    assert not at.exception, at.exception
    assert stage_data(at)["settle_ms"] == 0  # with a room, each step goes to the students at once
    host = at.session_state[room_host.HOST]
    store = room_store()
    code = store.hosted(host)
    assert code is not None
    assert any(f">{code}</span>" in h.value for h in at.html)  # the code, large
    step_through(at, 1, 2)
    state = store.state(code)
    assert state is not None and state.position == 2  # the room follows the teacher's step
    window = store.window(code, position=99, serial=1)
    assert window is not None and window.hi == 2  # nothing past the teacher's step reaches a phone
    # A student pages through merge 2's places: the teacher's run makes the page (7th place on).
    first = {v.step: v for v in window.views}[2].places
    assert first is not None and first.start == 0 and first.total > 6
    paged = store.window(code, position=2, serial=2, starts={2: 6})
    places = {v.step: v for v in paged.views}[2].places
    assert places.start == 6 and [p.number for p in places.items][:1] == [7]
    assert set(view_ids(paged.views)) <= {int(i) for i in paged.labels}  # every token shown has its label

    at.button(key="room_ask").click().run()
    state = store.state(code)
    assert state.asked is not None and state.asked.question.step == 3 and not state.asked.revealed
    assert state.asked.question.answer in state.asked.question.choices
    student = store.join(code, "Ada")
    assert store.answer(code, student, 1, state.asked.question.answer)
    at.button(key="room_reveal").click().run()
    assert store.state(code).asked.revealed

    # The what-if: block the pair merge 3 makes; the room asks which pair would merge instead.
    at.button(key="room_ask_what_if").click().run()
    assert not at.exception, at.exception
    state = store.state(code)
    what_if = state.asked.question
    assert (state.asked.number, what_if.kind, what_if.step, state.asked.revealed) == (2, BLOCK, 3, False)
    real = at.session_state[RUN].records[2]  # the merge the run makes at step 3
    assert what_if.blocked == pair_label(real.left, real.right) != what_if.answer
    assert what_if.blocked in what_if.choices and what_if.verdicts[what_if.blocked].outcome == "wrong"
    assert any("were blocked" in h.value for h in at.html)  # the teacher's line says what was asked
    assert store.answer(code, student, 2, what_if.blocked)
    at.button(key="room_reveal").click().run()

    at.button(key="room_end").click().run()
    assert not at.exception, at.exception
    assert store.state(code).closed and room_host.HOST not in at.session_state
    table = at.dataframe[0].value
    assert table["share right"].tolist() == [1.0, 0.0]
    assert table["blocked"].tolist() == ["", what_if.blocked]
    assert any(b.label == "⬇ Summary as CSV" for b in at.get("download_button"))
