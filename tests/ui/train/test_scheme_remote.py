"""WordPiece and Unigram trained in a session worker (the in-process line set to 0): the page shows what
an in-process run shows, a Cancel ends a long jump between two steps, the server's cap and a time limit
are messages, and a new run lets the old worker go."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.workers import session_worker
from mergescope_ui.shared.workers.jobs import Limits
from mergescope_ui.train import keys, scheme_driver
from mergescope_ui.train.lattice_view import lattice_html
from mergescope_ui.train.scheme_driver import RemoteSchemeDriver, start_driver
from mergescope_ui.train.scheme_run import SchemeSettings
from tests.ui.shared.test_jobs import gone, until
from tests.ui.train.stage_driver import as_html, send, stage_data, view
from tests.ui.train.train_page import open_train

CORPORA = Path(__file__).resolve().parents[3] / "corpora"
KIND = (CORPORA / "kind_kindness_unkind.txt").read_text(encoding="utf-8")
HUG = (CORPORA / "hug_pug_pun.txt").read_text(encoding="utf-8")


@pytest.fixture
def remote(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheme_driver, "IN_PROCESS_CHARS", 0)


def _wire(window) -> dict:
    """The window as the page sends it, read as stage_driver.stage_data reads it (blocks as HTML)."""
    from mergescope_ui.shared.stage.contract import wire

    data = wire(window)
    for v in data["views"]:
        v["card"], v["pairs"] = as_html(v["card"]), as_html(v["pairs"])
    return data  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("scheme", "source", "size"),
    [
        ("unigram", "kind_kindness_unkind", {keys.UG_VOCAB: 50}),
        ("wordpiece", "hug_pug_pun", {keys.WP_MERGES: 6}),
    ],
)
def test_a_remote_run_shows_what_a_run_here_shows(remote: None, scheme: str, source: str, size: dict) -> None:
    at = open_train(**{keys.SCHEME: scheme, keys.SOURCE: source, **size})
    driver = at.session_state[keys.SCHEME_RUN]
    assert isinstance(driver, RemoteSchemeDriver) and driver.worker.alive
    text = KIND if scheme == "unigram" else HUG
    settings = driver.identity.settings
    here = start_driver(text, settings)
    for k in range(driver.state.finished or 6):
        send(at, position=k)
        here.advance(k + 1)  # the page trains one ahead before it builds a window
        here.show(k)
        shown = stage_data(at)
        mine = _wire(here.window(serial=shown["serial"], options=StageSettings()))
        assert view(at) == next(v for v in mine["views"] if v["step"] == k), k
    if scheme == "unigram":
        (pills,) = at.get("button_group")
        offered = [o.content for o in pills.proto.options]
        assert offered == here.lattice_words()
        at.session_state[keys.LATTICE_WORD] = offered[0]
        at.run()
        drawn = [h.value for h in at.html if h.value.startswith('<div class="ms-lat"')]
        assert drawn == [lattice_html(here.lattice(offered[0]))]


def test_cancel_stops_a_long_jump_between_two_rounds() -> None:
    driver = RemoteSchemeDriver.start(KIND, SchemeSettings(scheme="unigram", vocab_size=50))

    def cancel(done: int, total: int) -> None:
        raise KeyboardInterrupt  # what a click does to the waiting script: an exception out of progress

    with pytest.raises(KeyboardInterrupt):
        driver.jump(6, progress=cancel)
    driver.settle()  # the round under way ends; the worker stops there and keeps the run
    assert 1 <= driver.state.pulled < 6 and driver.worker.alive
    assert driver.jump(6).position == 6
    driver.stop()
    assert not driver.worker.alive


def test_the_servers_cap_and_a_time_limit_are_messages(remote: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_worker, "MAX_WORKERS", 0)
    at = open_train(**{keys.SCHEME: "unigram", keys.SOURCE: "kind_kindness_unkind", keys.UG_VOCAB: 50})
    assert not at.exception and keys.SCHEME_RUN not in at.session_state
    assert any("large runs of other sessions, its limit" in e.value for e in at.error), at.error
    monkeypatch.setattr(session_worker, "MAX_WORKERS", 4)
    monkeypatch.setattr(scheme_driver, "LIMITS", Limits(seconds=0.001))
    at.run()
    assert not at.exception and keys.SCHEME_RUN not in at.session_state
    assert any("time limit" in e.value for e in at.error), at.error


def test_a_new_run_lets_the_old_worker_go(remote: None) -> None:
    at = open_train(**{keys.SCHEME: "unigram", keys.SOURCE: "kind_kindness_unkind", keys.UG_VOCAB: 50})
    pid = at.session_state[keys.SCHEME_RUN].worker.pid
    assert pid is not None and not gone(pid)
    at.session_state[keys.UG_VOCAB] = 60
    at.run()
    assert not at.exception and at.session_state[keys.SCHEME_RUN].identity.settings.vocab_size == 60
    gc.collect()
    until(lambda: gone(pid))


def test_a_remote_jump_trains_up_to_the_step_and_past_the_end_says_where_it_stopped(remote: None) -> None:
    at = open_train(**{keys.SCHEME: "unigram", keys.SOURCE: "kind_kindness_unkind", keys.UG_VOCAB: 50})
    send(at, jump=4)
    driver = at.session_state[keys.SCHEME_RUN]
    assert not at.exception and driver.state.position == 4 and stage_data(at)["position"] == 4
    assert view(at)["heading"].startswith("Round 4:")
    send(at, jump=50)
    data = stage_data(at)
    assert driver.state.finished and data["position"] == driver.state.pulled == 6 and data["finished"]
    assert "Training stopped at round 6: reached the requested vocab size" in data["notice"]


@pytest.mark.parametrize(
    ("scheme", "size"), [("unigram", {"vocab_size": 50}), ("wordpiece", {"vocab_size": 80})]
)
def test_a_run_whose_worker_was_let_go_idle_comes_back_where_it_was(
    monkeypatch: pytest.MonkeyPatch, scheme: str, size: dict
) -> None:
    """#28: an idle worker ends to free the server; the next question builds the run again, at its step."""
    monkeypatch.setattr(session_worker, "IDLE_SECONDS", 0.5)
    text = KIND if scheme == "unigram" else HUG
    settings = SchemeSettings(scheme=scheme, **size)
    driver = RemoteSchemeDriver.start(text, settings)
    here = start_driver(text, settings)
    try:
        driver.advance(4)
        driver.show(2)
        here.advance(4)
        here.show(2)
        pid = driver.worker.pid
        until(lambda: driver.worker.idle)
        assert pid is not None and gone(pid) and driver.worker not in session_worker.live_workers()
        mine = here.window(serial=1, options=StageSettings())
        assert driver.window(serial=1, options=StageSettings()) == mine  # step 2 of 4, in a new process
        assert driver.worker.pid != pid and driver.worker.restarts == 1
        assert driver.jump(5) == here.jump(5)
    finally:
        driver.stop()
