"""In the quiz, the Train page's stage, its verdict and its choices fit the screen at every step (#22).

The walk itself (what is measured at each step, at 1280x720, 1920x1080 and 390x844) is in
:mod:`tests.browser.fit_walk`; the normal and the quiz walks are two files so that pytest-xdist runs them
side by side.  Skipped with the reason when chromium or playwright is missing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.fit_walk import Server, fit_page, fit_server, texts, walk_every_step
from tests.browser.support import missing_browser

REASON = missing_browser()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"browser tests need chromium: {REASON}")


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with fit_server() as running:
        yield running


@pytest.fixture(scope="module")
def page(server: Server) -> Iterator[object]:
    with fit_page() as pg:
        yield pg


# One test per text (pytest-xdist starts the files with the most tests first; tests/conftest.py too).
@pytest.mark.parametrize(("name", "query"), texts(), ids=[name for name, _ in texts()])
def test_every_step_fits_the_quiz(server: Server, page, name: str, query: str) -> None:
    walk_every_step(server, page, name, query, quiz=True)
