"""Without presenter mode, the stage's boxes show whole lines at every step of the largest built-in texts
(issue #40): the page scrolls there, so only what the boxes cut is measured.

A file of its own, so that pytest-xdist walks it beside the other walks; the texts with the most to show,
two where it merged (the tab a link opens) and two from the start of the text (``view=start``: a box that
scrolls in plain mode too)."""

from __future__ import annotations

import pytest

from tests.browser.fit.walk import NEEDS_BROWSER, Server, texts, walk_every_step

pytestmark = NEEDS_BROWSER
VIEWS = {
    "lighthouse_story": "",
    "machine_learning_zh": "",
    "mixed_scripts": "start",
    "word_counter_py": "start",
}
LARGEST = [
    (name, query + (f"&view={VIEWS[name]}" if VIEWS[name] else ""))
    for name, query in texts()
    if name in VIEWS
]


@pytest.mark.parametrize(("name", "query"), LARGEST, ids=[name for name, _ in LARGEST])
def test_every_step_shows_whole_lines_in_plain_mode(server: Server, page, name: str, query: str) -> None:
    walk_every_step(server, page, name, query, quiz=False, presenter=False)
