"""A URL that names no page says so and links to every page (it used to show the Welcome page).

On a fresh server's very first request Streamlit's legacy multipage mode (see
``mergescope_ui/shared/entry.py``) also shows its own "Page not found" dialog over the page (no file in
``pages/`` has that name); from then on only MergeScope's page shows.
"""

from __future__ import annotations

from tests.browser.support import ARTIFACTS, chromium_page, streamlit_server, wait_idle

NAVIGATION = ["Welcome", "Train", "Tokenize", "Vocab-size lab", "Compare schemes", "Live room"]


def test_an_unknown_url_says_there_is_no_such_page_and_links_to_the_pages() -> None:
    with streamlit_server() as url:
        with chromium_page(width=1280, height=720) as page:  # the fresh server's first request
            page.goto(f"{url}/vocab_lab")
            page.get_by_role("heading", name="No such page").wait_for(timeout=60_000)
        with chromium_page(width=1280, height=720) as page:
            page.goto(f"{url}/vocab_lab?presenter=true")  # an old name of the lab's URL
            page.get_by_role("heading", name="No such page").wait_for(timeout=60_000)
            wait_idle(page)
            page.wait_for_timeout(500)
            assert page.get_by_text("Page not found").count() == 0  # Streamlit's own dialog is not shown
            main = page.locator('[data-testid="stMain"]')
            assert "MergeScope has no page at /vocab_lab." in main.inner_text()
            links = [t.strip() for t in main.locator('[data-testid="stPageLink"] a').all_inner_texts()]
            assert [link.split("\n")[-1].strip() for link in links] == NAVIGATION
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "no_such_page.png"))
            main.get_by_role("link", name="Vocab-size lab").click()
            page.get_by_role("heading", name="Vocab-size lab").first.wait_for(timeout=60_000)
            assert page.url.split("?")[0].endswith("/vocab-lab")
            page.goto(f"{url}/tokenize")  # a known page is not caught
            page.get_by_role("heading", name="Tokenize: paste text").first.wait_for(timeout=60_000)
            assert page.get_by_role("heading", name="No such page").count() == 0
            page.goto(f"{url}/home")  # nor is the Welcome page's old URL
            page.get_by_role("heading", name="MergeScope").first.wait_for(timeout=60_000)
            wait_idle(page)
            assert page.get_by_role("heading", name="No such page").count() == 0
            assert page.get_by_text("Page not found").count() == 0
