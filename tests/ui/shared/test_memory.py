"""Memory given back: cached results have lifetimes, the memory thread drops them, bad settings say so."""

from __future__ import annotations

import pytest

from mergescope_ui.shared import settings
from mergescope_ui.shared.memory import release
from mergescope_ui.shared.progress_cache import ProgressCache, expire_all


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
        settings._seconds("MERGESCOPE_CACHE_SECONDS", 120.0)


def test_the_cache_lifetime_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("MERGESCOPE_CACHE_SECONDS", " 5 ")
    assert settings._seconds("MERGESCOPE_CACHE_SECONDS", 120.0) == 5.0
    monkeypatch.delenv("MERGESCOPE_CACHE_SECONDS")
    assert settings._seconds("MERGESCOPE_CACHE_SECONDS", 120.0) == 120.0
