"""Without presenter mode, the stage's boxes show whole lines at every step of the largest built-in texts
(issue #40): the page scrolls there, so only what the boxes cut is measured.

A file of its own, so that pytest-xdist walks it beside the other walks; the texts with the most to show
(the others fit their boxes whole in plain mode, and presenter mode walks them all)."""

from __future__ import annotations

import pytest

from tests.browser.fit.walk import NEEDS_BROWSER, Server, texts, walk_every_step

pytestmark = NEEDS_BROWSER
LARGEST = ("lighthouse_story", "machine_learning_zh", "mixed_scripts", "word_counter_py")
LARGEST_TEXTS = [t for t in texts() if t[0] in LARGEST]


@pytest.mark.parametrize(("name", "query"), LARGEST_TEXTS, ids=[name for name, _ in LARGEST_TEXTS])
def test_every_step_shows_whole_lines_in_plain_mode(server: Server, page, name: str, query: str) -> None:
    walk_every_step(server, page, name, query, quiz=False, presenter=False)
