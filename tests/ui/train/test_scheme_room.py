"""A live room opened from WordPiece or Unigram on the Train page (issue 26), headless: it follows the
scheme's stage, asks that scheme's question (which pair merges next; which piece a round prunes), and a
student pages through a step's places."""

from __future__ import annotations

from mergescope_ui.shared.rooms import NEXT, PRUNE, room_store
from mergescope_ui.shared.rooms import host as room_host
from mergescope_ui.train import keys
from tests.ui.train.stage_driver import send
from tests.ui.train.train_page import open_train


def test_a_wordpiece_room_follows_asks_and_pages() -> None:
    at = open_train(**{keys.SCHEME: "wordpiece", keys.SOURCE: "lighthouse_story", keys.WP_MERGES: 8})
    at.button(key="room_open").click().run()
    assert not at.exception, at.exception
    store = room_store()
    code = store.hosted(at.session_state[room_host.HOST])
    assert code is not None
    for k in range(1, 8):
        send(at, position=k)
    state = store.state(code)
    assert state is not None and state.position == 7
    assert store.window(code, position=99, serial=1).hi == 7  # nothing past the teacher's step
    assert not [b for b in at.button if b.key == "room_ask_what_if"]  # the what-if is byte-level BPE's
    at.button(key="room_ask").click().run()
    asked = store.state(code).asked
    run = at.session_state[keys.SCHEME_RUN].run  # the scheme host's run, trained here
    assert asked.question.kind == NEXT and asked.question.step == 8
    assert asked.question.answer == f"{run.records[7].left} + {run.records[7].right}"  # the engine's merge 8
    student = store.join(code, "Ada")
    assert store.answer(code, student, 1, asked.question.answer)
    at.button(key="room_reveal").click().run()
    assert store.state(code, student=student).asked.revealed
    first = store.window(code, position=7, serial=2)
    places = {v.step: v for v in first.views}[7].places
    assert places is not None and places.total > 6, "merge 7 of this text stands in more than 6 words"
    paged = {v.step: v for v in store.window(code, position=7, serial=3, starts={7: 6}).views}[7].places
    assert paged.start == 6 and paged.items and paged.items[0].number == 7
    at.button(key="room_end").click().run()
    assert not at.exception, at.exception


def test_a_unigram_room_asks_which_piece_is_pruned() -> None:
    at = open_train(**{keys.SCHEME: "unigram", keys.SOURCE: "kind_kindness_unkind", keys.UG_VOCAB: 50})
    at.button(key="room_open").click().run()
    assert not at.exception, at.exception
    assert any("pruned next" in b.label for b in at.button if b.key == "room_ask")
    at.button(key="room_ask").click().run()
    assert not at.exception, at.exception
    store = room_store()
    code = store.hosted(at.session_state[room_host.HOST])
    question = store.state(code).asked.question
    assert question.kind == PRUNE and question.prompt.startswith("which of these pieces is pruned in round 1")
    assert question.verdicts[question.answer].outcome == "right"
    at.button(key="room_end").click().run()
    assert not at.exception, at.exception
