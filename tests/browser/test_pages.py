"""Each page's URL as the first request of a fresh server, in a fresh browser (chromium via playwright).

A ``pages/`` folder beside ``app.py`` switches Streamlit to its legacy
multipage mode until ``st.navigation`` first runs (see ``mergescope_ui/shared/entry.py``):
a fresh server whose first request is ``/train`` runs the top-level ``pages/train.py``
alone, or shows "Page not found" over the page if there is none.  So each URL
gets its own server and its own browser profile.
"""

from __future__ import annotations

import pytest

from tests.browser.support import chromium_page, streamlit_server, wait_idle

NAVIGATION = ["Welcome", "Train", "Tokenize", "Vocab-size lab", "Compare schemes", "Live room"]


@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("/", "MergeScope"),
        ("/home", "MergeScope"),  # the Welcome page's old URL
        ("/train", "Train: watch BPE learn, merge by merge"),
        ("/tokenize", "Tokenize: paste text, see tokens"),
        ("/vocab-lab", "Vocab-size lab"),
        ("/schemes", "Compare schemes"),
        ("/room", "Live room"),
    ],
)
def test_first_visit_straight_to_a_page_shows_navigation_title_and_presenter_toggle(
    path: str, heading: str
) -> None:
    with streamlit_server() as url, chromium_page(width=1280, height=720) as page:
        page.goto(url + path)
        page.get_by_role("heading", name=heading).first.wait_for(timeout=60_000)
        nav = page.locator('[data-testid="stSidebarNav"]')
        nav.wait_for(timeout=30_000)
        links = [t.strip() for t in nav.locator("a").all_inner_texts()]
        assert [link.split("\n")[-1].strip() for link in links] == NAVIGATION, links
        page.get_by_role("switch", name="Presenter mode").wait_for(timeout=30_000)  # drawn by app.py
        assert page.title() == "MergeScope"  # app.py's page config
        wait_idle(page)
        assert page.get_by_text("Page not found").count() == 0  # no dialog of Streamlit's over the page
        if path == "/home":
            assert page.url.split("?")[0] == url + "/", "the old URL moves to the root"


def test_a_shared_link_keeps_its_parameters_on_a_fresh_server() -> None:
    with streamlit_server() as url, chromium_page(width=1280, height=720) as page:
        page.goto(f"{url}/train?corpus=aaabdaaabac&pattern=none&presenter=true")
        page.get_by_role("heading", name="Train: watch BPE learn").first.wait_for(timeout=60_000)
        page.get_by_text("Step 0: the text as raw bytes").wait_for(timeout=60_000)
        wait_idle(page)
        assert page.get_by_role("switch", name="Presenter mode").is_checked()
        sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
        assert "Wikipedia's BPE example" in sidebar  # ?corpus=aaabdaaabac
        assert "(no split: the whole text is one chunk)" in sidebar  # ?pattern=none
        size = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
        assert size >= 20, "presenter mode's large text"
