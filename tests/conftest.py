"""Markers by folder, so the README's quick test command can leave out the slow kinds of test.

``browser``: every test in ``tests/browser/`` (a Streamlit server and chromium; skipped, saying why,
where chromium is missing);
``load``: the tests that run a small class against one server.  The markers are
registered in ``pytest.ini`` (``--strict-markers`` rejects any other name).
``python -m pytest -m "not browser and not load"`` runs the engine, the UI units
and the AppTest page tests; plain ``python -m pytest`` runs everything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# A shared 2-core machine under a full run is slow to *generate* inputs now and then; that says nothing
# about the code, so the "too slow" health check is off (each test's own deadline stays as set).
settings.register_profile("mergescope", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mergescope")

ROOT = Path(__file__).resolve().parents[1]
MARKERS = {  # a path under the repo (a folder or a file) -> the marker of every test in it
    "tests/browser": "browser",
    "tests/browser/test_load.py": "load",
}


def markers_of(path: Path) -> list[str]:
    """The markers of a test file, from the folders and files of :data:`MARKERS` that hold it.

    >>> markers_of(ROOT / "tests/browser/test_load.py"), markers_of(ROOT / "tests/engine/test_cli.py")
    (['browser', 'load'], [])
    """
    rel = path.resolve().relative_to(ROOT).as_posix()
    return [marker for where, marker in MARKERS.items() if rel == where or rel.startswith(where + "/")]


# The apps browser tests run (Streamlit scripts: importing one for its doctests would run it).
collect_ignore_glob = ["browser/apps/*.py"]


# The longest test files, longest first.  pytest-xdist (--dist loadfile) hands whole files to the two
# workers, those with the most tests first and, among files with as many tests, in collection order: a
# long file of one test would otherwise start last, beside an idle core (the fit walk is one test per
# text for the same reason).  Figures from --durations in .ci/run; a file not here keeps its place.
FIRST = (
    "tests/browser/fit/test_train_fit.py",
    "tests/browser/fit/test_train_fit_quiz.py",
    "tests/browser/test_load.py",
    "tests/browser/test_accessibility.py",
    "tests/browser/test_train.py",
    "tests/browser/test_hosting.py",
    "tests/browser/test_classroom.py",
)


def first(path: Path) -> int:
    """Where a test file runs among :data:`FIRST` (``len(FIRST)``: after them, in its usual place).

    >>> first(ROOT / "tests/browser/fit/test_train_fit.py"), first(ROOT / "tests/engine/test_cli.py")
    (0, 7)
    """
    rel = path.resolve().relative_to(ROOT).as_posix()
    return FIRST.index(rel) if rel in FIRST else len(FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    no_browser: str | None = None
    if any("browser" in markers_of(item.path) for item in items):
        from tests.browser.support import missing_browser

        no_browser = missing_browser()
    for item in items:
        for marker in markers_of(item.path):
            item.add_marker(marker)
        if no_browser is not None and "browser" in markers_of(item.path):  # skipped, saying why
            item.add_marker(pytest.mark.skip(reason=f"browser tests need chromium: {no_browser}"))
    items.sort(key=lambda item: first(item.path))  # stable: the rest keep their order
