"""In the quiz, the stage, its verdict and its choices fit the screen at every step (#22).

A file of its own, so that pytest-xdist walks it beside the normal walk."""

from __future__ import annotations

from tests.browser.fit.walk import EVERY_TEXT, NEEDS_BROWSER, Server, walk_every_step

pytestmark = NEEDS_BROWSER


@EVERY_TEXT
def test_every_step_fits_the_quiz(server: Server, page, name: str, query: str) -> None:
    walk_every_step(server, page, name, query, quiz=True)
