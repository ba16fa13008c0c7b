"""Markers by folder, so the README's quick test command can leave out the slow kinds of test.

``browser``: every test in ``tests/browser/`` (a Streamlit server and chromium);
``load``: the tests that run a small class against one server.  The markers are
registered in ``pytest.ini`` (``--strict-markers`` rejects any other name).
``python -m pytest -m "not browser and not load"`` runs the engine, the UI units
and the AppTest page tests; plain ``python -m pytest`` runs everything.
"""

from __future__ import annotations

from pathlib import Path

import pytest

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for marker in markers_of(item.path):
            item.add_marker(marker)
