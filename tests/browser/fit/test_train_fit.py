"""The Train page's stage fits the screen at every step of every built-in text (issue #22: 2 and 9).

The walk and what it measures: :mod:`tests.browser.fit.walk`."""

from __future__ import annotations

from tests.browser.fit.walk import EVERY_TEXT, NEEDS_BROWSER, Server, walk_every_step

pytestmark = NEEDS_BROWSER


@EVERY_TEXT
def test_every_step_fits_the_projector(server: Server, page, name: str, query: str) -> None:
    walk_every_step(server, page, name, query, quiz=False)
