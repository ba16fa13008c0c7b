"""A large text's trainer in a session worker: the same records, tables, branches and places as the
engine's own trainer, and the worker's bounds (time, memory, cancel, interruption, the session's end).

Each bound is checked by its outcome (the message, the process gone), never by how long it took.
"""

from __future__ import annotations

import gc
import os
import time

import pytest

import bpe_core
from bpe_core.byte_level import character_counts
from bpe_core.training.places import TextReplay
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.shared.workers import jobs, session_worker
from mergescope_ui.shared.workers.jobs import MEGABYTE, Limits
from mergescope_ui.shared.workers.remote_trainer import (
    RemoteReplay,
    RemoteTrainer,
    characters_for,
    replay_for,
    start_trainer,
)
from mergescope_ui.shared.workers.session_worker import Context, SessionWorker
from tests.ui.shared.test_jobs import gone, until

TEXT = (
    "low low low low low lower lower newest newest newest newest newest newest widest widest widest "
    "<|eot|> the keeper of the light climbed the stairs; the lamp was lit. 自然语言处理 😀😀 "
) * 3


# ----- requests (module level: the worker imports them by name) -----
def forever(ctx: Context) -> None:
    ctx.progress(1, 10)
    while True:
        time.sleep(0.05)


def hungry(ctx: Context, size: int) -> int:
    return len(bytearray(size))


def counting(ctx: Context, n: int, *, until_stopped: bool = False) -> list[int]:
    """Count to ``n`` (reporting each), or until the page stops waiting."""
    out: list[int] = []
    while len(out) < n or until_stopped:
        out.append(len(out))
        ctx.progress(len(out), n)
        if ctx.stopped():
            break
        time.sleep(0.01)
    return out


class Interrupted(Exception):
    """What Streamlit raises out of a progress bar's call when a click reruns the script."""


# ----- the same as the engine's trainer -----
@pytest.mark.parametrize(
    ("pattern", "tie_break", "specials"),
    [("none", "lowest-id", ()), ("gpt2", "lexicographic", ("<|eot|>",)), (r"\w+|\W", "first-seen", ())],
)
def test_the_remote_trainer_yields_the_engines_records_tables_branches_and_places(
    pattern: str, tie_break: str, specials: tuple[str, ...]
) -> None:
    options = bpe_core.TrainOptions(
        vocab_size=256 + len(specials) + 60, pattern=pattern, tie_break=tie_break, special_tokens=specials
    )
    local, remote = bpe_core.Trainer(TEXT, options), RemoteTrainer.start(TEXT, options)
    try:
        assert (remote.corpus_bytes, remote.initial_tokens, remote.preview_text, remote.initial_sequence) == (
            local.corpus_bytes,
            local.initial_tokens,
            local.preview_text,
            local.initial_sequence,
        )
        steps = list(local)
        assert list(remote) == steps and remote.stop_reason == local.stop_reason
        assert remote.merges == local.merges and remote.vocab == local.vocab
        assert remote.tokenizer().encode(TEXT) == local.tokenizer().encode(TEXT)
        assert remote.characters == character_counts(TEXT) == characters_for(local, TEXT)
        for k in (1, len(steps) // 2, len(steps)):
            assert remote.pair_table(k) == local.pair_table(k)
        at = len(steps) // 3
        block = [steps[at - 1].pair]
        force = {at: steps[at - 1].top_pairs[1].pair}  # another row of its table
        for kwargs in ({"block": block}, {"force": force}):
            mine, theirs = local.branch(at, **kwargs), remote.branch(at, **kwargs)
            assert isinstance(theirs, RemoteTrainer)
            assert list(theirs) == list(mine) and theirs.merges == mine.merges and theirs.vocab == mine.vocab
            assert theirs.characters == remote.characters
        here = TextReplay(TEXT, local.pretokenizer, special_tokens=local.special_tokens)
        there = replay_for(remote, TEXT)
        assert isinstance(there, RemoteReplay)
        merges = [(s.pair, s.new_id) for s in steps]
        for k in (0, 7, len(steps), 3):
            here.move_to(k, merges)
            there.move_to(k, merges)
            assert there.step == k and there.head(max_bytes=80) == here.head(max_bytes=80)
            if k:
                new = steps[k - 1].new_id
                assert there.places(new, start=1, limit=3, context_bytes=9) == here.places(
                    new, start=1, limit=3, context_bytes=9
                )
    finally:
        remote.worker.stop()


def test_a_run_jumps_in_batches_with_progress_and_a_small_text_stays_here() -> None:
    options = bpe_core.TrainOptions(vocab_size=256 + 400, pattern="none")
    trainer = start_trainer(TEXT, options, in_process_chars=len(TEXT) - 1)
    assert isinstance(trainer, RemoteTrainer)
    assert type(start_trainer(TEXT, options, in_process_chars=len(TEXT))) is bpe_core.Trainer
    run = TrainingRun(trainer, identity=RunIdentity.of(TEXT, options))
    seen: list[tuple[int, int]] = []
    reached = run.jump(300, progress=lambda done, total: seen.append((done, total)))
    expected = list(bpe_core.Trainer(TEXT, options))
    assert reached == min(300, len(expected)) and run.records == expected[:reached]
    assert seen and all(total == 300 for _, total in seen)
    assert trainer.prefetch(10**6) == len(expected) - reached, "the rest, and no more"
    trainer.worker.stop()


def test_a_bad_text_is_the_engines_message_and_leaves_no_worker() -> None:
    before = {w.pid for w in session_worker.live_workers()}
    with pytest.raises(ValueError, match=r"regex|pattern|compile"):
        RemoteTrainer.start(TEXT, bpe_core.TrainOptions(vocab_size=300, pattern="(unclosed"))
    assert {w.pid for w in session_worker.live_workers()} <= before


# ----- bounds -----
def test_a_request_past_its_time_limit_ends_the_worker_with_a_message() -> None:
    worker = SessionWorker(limits=Limits(seconds=1))
    pid = worker.pid
    assert pid is not None
    # in words for every scheme (BPE merges, WordPiece merges, Unigram rounds)
    with pytest.raises(
        ValueError, match=r"stopped after 1 s, this server's time limit.*fewer steps \(merges or rounds\)"
    ):
        worker.call(forever)
    until(lambda: gone(pid))
    with pytest.raises(ValueError, match="time limit"):  # and every call after
        worker.call(counting, 1)


def test_a_worker_past_its_memory_limit_ends_with_a_message() -> None:
    worker = SessionWorker(limits=Limits(memory_bytes=128 * MEGABYTE))
    assert worker.call(hungry, MEGABYTE) == MEGABYTE
    with pytest.raises(ValueError, match="more than 128 MB, this server's memory limit"):
        worker.call(hungry, 1024 * MEGABYTE)
    pid = worker.pid
    assert pid is not None
    until(lambda: gone(pid))


def test_cancel_ends_the_worker_and_its_process() -> None:
    worker = SessionWorker()
    pid = worker.pid
    assert pid is not None and worker.call(counting, 2) == [0, 1]
    worker.stop()
    assert gone(pid) and not worker.alive
    with pytest.raises(ValueError, match="cancelled"):
        worker.call(counting, 1)


def test_an_interrupted_wait_stops_the_request_and_hands_over_what_it_made() -> None:
    worker = SessionWorker()
    late: list[list[int]] = []

    def interrupt(done: int, total: int) -> None:
        raise Interrupted

    with pytest.raises(Interrupted):
        worker.call(counting, 1, until_stopped=True, progress=interrupt, late=late.append)
    assert worker.call(counting, 2) == [0, 1], "the next request is answered, not the interrupted one's"
    assert len(late) == 1 and late[0] == list(range(len(late[0]))) and late[0], "its partial count"
    worker.stop()


def test_with_a_beat_a_silent_request_is_interrupted_at_the_next_look() -> None:
    """A worker that reports once and then says nothing: without ``beat`` the wait hears nothing more,
    with it the page's progress is called again (the last figures) at each look, so a click there stops
    the wait long before the request's time limit."""
    worker = SessionWorker(limits=Limits(seconds=60))
    seen: list[tuple[int, int]] = []

    def interrupt_at_the_third_repeat(done: int, total: int) -> None:
        seen.append((done, total))
        if seen.count((1, 10)) == 3:  # the worker reported (1, 10) once: the others are beats
            raise Interrupted

    with pytest.raises(Interrupted):
        worker.call(forever, progress=interrupt_at_the_third_repeat, beat=True)
    worker.stop()
    worker = SessionWorker(limits=Limits(seconds=1))
    seen.clear()
    with pytest.raises(ValueError, match="time limit"):
        worker.call(forever, progress=interrupt_at_the_third_repeat)
    assert seen in ([], [(1, 10)])  # at most the one report


def test_an_interrupted_pull_loses_no_record() -> None:
    options = bpe_core.TrainOptions(vocab_size=256 + 200, pattern="none")
    trainer = RemoteTrainer.start(TEXT, options)
    calls = [0]

    def interrupt(done: int, total: int) -> None:
        calls[0] += 1
        if calls[0] == 1:  # the first report, from inside the wait for a batch
            raise Interrupted

    run = TrainingRun(trainer, identity=RunIdentity.of(TEXT, options))
    with pytest.raises(Interrupted):
        run.jump(150, progress=interrupt)
    run.jump(200)
    assert run.records == list(bpe_core.Trainer(TEXT, options))[: run.pulled]
    trainer.worker.stop()


def test_a_run_let_go_of_takes_its_worker_with_it() -> None:
    """A session that ends (or starts a new run) drops its run: the worker's process ends."""
    options = bpe_core.TrainOptions(vocab_size=300, pattern="none")
    run = TrainingRun(RemoteTrainer.start(TEXT, options), identity=RunIdentity.of(TEXT, options))
    run.jump(5)
    branch = run.trainer.branch(3, block=[run.records[2].pair])
    trainer = run.trainer
    assert isinstance(trainer, RemoteTrainer)
    pid = trainer.worker.pid
    assert pid is not None and not gone(pid)
    del run, trainer
    gc.collect()
    assert not gone(pid), "the branch still holds the worker"
    del branch
    gc.collect()
    until(lambda: gone(pid))


def test_the_server_refuses_workers_past_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_worker, "MAX_WORKERS", len(session_worker.live_workers()) + 1)
    first = SessionWorker()
    with pytest.raises(ValueError, match="large runs of other sessions, its limit; try a smaller text"):
        SessionWorker()
    first.stop()
    SessionWorker().stop()  # a stopped one frees its place


def test_stop_all_leaves_no_worker_process() -> None:
    workers = [SessionWorker(), SessionWorker()]
    pids = [w.pid for w in workers]
    session_worker.stop_all()
    assert all(pid is not None and gone(pid) for pid in pids)


# ----- a worker let go when idle (#28) -----
def keep(ctx: Context, obj: object) -> int:
    return ctx.put(obj)


def kept(ctx: Context, handle: int) -> object:
    return ctx.get(handle)


def add(ctx: Context, a: int, b: int) -> int:
    return a + b


def let_go(worker: SessionWorker) -> int:
    """Wait until ``worker``'s process ended idle; its pid."""
    pid = worker.pid
    assert pid is not None
    until(lambda: worker.idle)
    until(lambda: gone(pid))
    assert worker not in session_worker.live_workers()  # its slot is free
    return pid


def test_a_run_whose_worker_was_let_go_idle_goes_on_with_the_same_records_tables_and_branches() -> None:
    options = bpe_core.TrainOptions(vocab_size=256 + 120, pattern="gpt2", tie_break="lexicographic")
    local = bpe_core.Trainer(TEXT, options)
    steps = list(local)
    remote = RemoteTrainer.start(TEXT, options, idle_after=0.5)
    try:
        run = TrainingRun(remote, identity=RunIdentity.of(TEXT, options))
        run.jump(20)
        block = [steps[9].pair]
        child = remote.branch(10, block=block)
        mine = local.branch(10, block=block)
        first = [next(child) for _ in range(5)]
        old = let_go(remote.worker)
        assert run.jump(60) == 60 and run.records == steps[:60]  # on from where it was, in a new process
        assert remote.worker.pid != old and remote.worker.restarts == 1 and remote.worker.alive
        assert remote.pair_table(40) == local.pair_table(40)
        assert first + list(child) == list(mine)  # the branch was rebuilt too, where it had got to
        here = TextReplay(TEXT, local.pretokenizer, special_tokens=local.special_tokens)
        there = replay_for(remote, TEXT)
        merges = [(s.pair, s.new_id) for s in steps]
        here.move_to(30, merges)
        there.move_to(30, merges)
        let_go(remote.worker)
        assert there.head(max_bytes=80) == here.head(max_bytes=80)
        assert list(remote) == steps[60:] and remote.worker.restarts == 2
    finally:
        remote.worker.stop()


def test_a_worker_let_go_idle_that_kept_objects_it_cannot_make_again_says_so() -> None:
    worker = SessionWorker(idle_after=0.3)
    try:
        handle = worker.call(keep, "a run")
        let_go(worker)
        with pytest.raises(ValueError, match=r"let go after 0\.3 s without a request.*start the run again"):
            worker.call(kept, handle)
    finally:
        worker.stop()
    stateless = SessionWorker(idle_after=0.3)  # one that keeps nothing starts again unseen
    try:
        assert stateless.call(add, 1, 2) == 3
        let_go(stateless)
        assert stateless.call(add, 2, 3) == 5 and stateless.restarts == 1
    finally:
        stateless.stop()


def test_a_request_sent_as_the_worker_ends_idle_is_answered_by_a_new_one(monkeypatch) -> None:
    worker = SessionWorker(idle_after=0.3)
    try:
        handle = worker.call(keep, "kept")
        worker.remember(keep, "kept")
        let_go(worker)
        looks = [0]
        real = SessionWorker.idle

        def late_look(self: SessionWorker) -> bool:  # the first look misses the end (it comes just after)
            looks[0] += 1
            return looks[0] > 1 and real.fget(self)  # type: ignore[attr-defined]

        monkeypatch.setattr(SessionWorker, "idle", property(late_look))
        assert worker.call(kept, handle) == "kept" and worker.restarts == 1
    finally:
        worker.stop()


def test_a_restart_refused_at_the_servers_limit_keeps_the_run_for_later(monkeypatch) -> None:
    options = bpe_core.TrainOptions(vocab_size=256 + 40, pattern="none")
    remote = RemoteTrainer.start(TEXT, options, idle_after=0.3)
    try:
        first = [next(remote) for _ in range(10)]
        let_go(remote.worker)
        monkeypatch.setattr(session_worker, "MAX_WORKERS", len(session_worker.live_workers()))
        with pytest.raises(ValueError, match="its limit"):
            remote.pair_table(5)
        monkeypatch.setattr(session_worker, "MAX_WORKERS", len(session_worker.live_workers()) + 1)
        local = bpe_core.Trainer(TEXT, options)
        assert first + list(remote) == list(local) and remote.pair_table(5) == local.pair_table(5)
    finally:
        remote.worker.stop()


def nice_value(ctx: Context) -> int:
    return os.nice(0)


def test_a_session_worker_runs_at_a_lower_cpu_priority_than_the_server() -> None:
    worker = SessionWorker()
    try:
        assert worker.call(nice_value) == min(os.nice(0) + jobs.WORKER_NICE, 19)
    finally:
        worker.stop()
