"""Memory given back: cached results have lifetimes, the memory thread drops them, bad settings say so."""

from __future__ import annotations

import pytest

from mergescope_ui.shared import hosting
from mergescope_ui.shared.workers.memory import release
from mergescope_ui.shared.workers.progress_cache import ProgressCache, expire_all


def test_expire_all_drops_results_past_their_lifetime_without_anyone_asking():
    clock = [0.0]
    timed = ProgressCache(entries=4, seconds=10, clock=lambda: clock[0])
    forever = ProgressCache(entries=4)
    timed.put("old", 1)
    clock[0] = 8
    timed.put("new", 2)
    forever.put("kept", 3)
    clock[0] = 15
    expire_all()
    assert list(timed._data) == ["new"] and list(forever._data) == ["kept"]
    clock[0] = 30
    release()  # what the server's memory thread does every few seconds
    assert not timed._data and forever.get("kept") == 3


@pytest.mark.parametrize("raw", ["0", "-5", "soon", "inf", "nan"])
def test_a_bad_cache_lifetime_is_a_clear_error(monkeypatch, raw):
    monkeypatch.setenv("MERGESCOPE_CACHE_SECONDS", raw)
    with pytest.raises(ValueError, match=r"MERGESCOPE_CACHE_SECONDS=.* is not a positive number of seconds"):
        hosting.seconds("MERGESCOPE_CACHE_SECONDS")


def test_the_cache_lifetime_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("MERGESCOPE_CACHE_SECONDS", " 5 ")
    assert hosting.seconds("MERGESCOPE_CACHE_SECONDS") == 5.0
    monkeypatch.delenv("MERGESCOPE_CACHE_SECONDS")
    assert hosting.seconds("MERGESCOPE_CACHE_SECONDS") == 120.0


def test_a_slow_full_collection_is_not_repeated_every_tick(monkeypatch):
    """A full collection that took long (a big heap) is followed by young ones only, until its period."""
    from mergescope_ui.shared.workers import memory

    monkeypatch.setattr(memory, "_last_full", {"seconds": 0.0, "at": float("-inf")})
    monkeypatch.setattr(memory, "_busy_since_full", [False])
    assert memory.collect(now=0.0, busy=False) == 2
    memory._last_full["seconds"] = 1.5  # as the class's server measured: 1.4-1.9 s
    assert [memory.collect(now=t, busy=False) for t in (15.0, 30.0, 590.0)] == [1, 1, 1]
    assert memory.collect(now=600.0, busy=False) == 2
    for now in (615.0, 630.0):  # a class's heap, the heavy work in workers (56-101 ms): every tick
        memory._last_full["seconds"] = 0.1  # (not this process's own collection time, which varies)
        assert memory.collect(now=now, busy=False) == 2


def test_a_busy_server_collects_the_young_generations_only(monkeypatch):
    """While sessions run pages (the collector runs again and again), no tick collects the whole heap: a
    class of 40's took 1.5-2 s, every page waiting; once the class has gone, the next tick does."""
    import gc

    from mergescope_ui.shared.workers import memory

    monkeypatch.setattr(memory, "_last_full", {"seconds": 0.0, "at": float("-inf")})
    monkeypatch.setattr(memory, "_collections", [0])
    monkeypatch.setattr(memory, "_busy_since_full", [False])
    gc.callbacks.append(memory._count_collection)  # as start_trimmer does (the collector's own list)
    try:
        for _ in range(memory.BUSY_COLLECTIONS):
            gc.collect(0)  # what allocating 20,000 objects sets off
    finally:
        gc.callbacks.remove(memory._count_collection)
    assert memory._collections[0] >= memory.BUSY_COLLECTIONS
    assert memory.collect(now=0.0) == 1, "busy: the young generations only"
    assert memory._collections[0] == 0
    assert memory.collect(now=15.0) == 2, "quiet since: the whole heap"


def test_the_first_quiet_tick_after_a_busy_one_collects_the_whole_heap_once(monkeypatch):
    """A class that leaves: its sessions' objects are old cycles that only a full collection frees.  The
    first quiet tick after busy ones collects the whole heap even when the last full collection was
    slow, and the quiet ticks after it do not (until busy again, or the period)."""
    from mergescope_ui.shared.workers import memory

    monkeypatch.setattr(memory, "_last_full", {"seconds": 1.5, "at": 0.0})
    monkeypatch.setattr(memory, "_busy_since_full", [False])
    assert memory.collect(now=15.0, busy=False) == 1, "slow last time, nothing happened since"
    assert [memory.collect(now=t, busy=True) for t in (30.0, 45.0)] == [1, 1]
    assert memory.collect(now=60.0, busy=False) == 2, "quiet after busy: the whole heap"
    memory._last_full["seconds"] = 1.5  # still a big heap (sessions connected)
    assert [memory.collect(now=t, busy=False) for t in (75.0, 90.0)] == [1, 1]
    assert memory.collect(now=105.0, busy=True) == 1
    assert memory.collect(now=120.0, busy=False) == 2
