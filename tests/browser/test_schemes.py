"""Compare schemes in a real browser (Debian chromium through playwright), at 1280x720 in presenter mode
and at 1920x1080: the four cuts, the table and the chart show, nothing sticks out of its box, and a
hostile sentence stays text.  Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.layout import STICKING_OUT
from tests.browser.support import chromium_page, full_screenshot, streamlit_server, wait_idle

SCHEMES = ["Byte-level BPE", "WordPiece", "Unigram", "Characters"]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


def open_schemes(page, url: str) -> None:
    page.goto(url)
    page.get_by_role("heading", name="Compare schemes").first.wait_for(timeout=60_000)
    page.locator(".ms-scheme-row").first.wait_for(timeout=120_000)
    wait_idle(page, timeout=120_000)


def check_cuts(page) -> None:
    names = page.locator(".ms-scheme-row .ms-scheme-name").all_inner_texts()
    assert [n.split("\n")[0].strip() for n in names] == SCHEMES
    labels = page.locator(".ms-scheme-row .ms-t").all_inner_texts()
    assert any(t.startswith("##") for t in labels) and any(t.startswith("▁") for t in labels)
    assert page.locator(".ms-scheme-row .ms-unk").count() >= 1  # "café" and "6:30!" are unknown to some


@pytest.mark.parametrize(
    ("width", "height", "presenter"), [(1280, 720, True), (1920, 1080, False)], ids=["projector", "full-hd"]
)
def test_the_page_fits_its_boxes(server, width, height, presenter):
    with chromium_page(width=width, height=height) as page:
        open_schemes(page, f"{server}/schemes" + ("?presenter=true" if presenter else ""))
        check_cuts(page)
        assert page.locator(".ms-schemes-table tbody tr").count() == 8
        assert page.evaluate(STICKING_OUT) == []
        full_screenshot(page, f"schemes_{width}x{height}")
        page.get_by_role("tab", name="Across vocab sizes").click()
        page.locator(
            '[data-testid="stVegaLiteChart"] svg, [data-testid="stVegaLiteChart"] canvas'
        ).first.wait_for(timeout=60_000)
        assert page.evaluate(STICKING_OUT) == []
        full_screenshot(page, f"schemes_chart_{width}x{height}")
        page.get_by_role("tab", name="What is lost").click()
        page.locator(".ms-lost").first.wait_for(timeout=30_000)
        page.wait_for_timeout(800)
        assert page.evaluate(STICKING_OUT) == []
        full_screenshot(page, f"schemes_lost_{width}x{height}")


def test_a_hostile_sentence_stays_text(server):
    with chromium_page(width=1280, height=720) as page:
        open_schemes(page, f"{server}/schemes")
        box = page.get_by_role("textbox", name="Sentence to cut")
        box.fill('<img src=x onerror="document.title=1"> [a](https://evil.example) **bold**')
        box.press("Enter")
        page.get_by_text("evil", exact=False).first.wait_for(timeout=60_000)
        wait_idle(page, timeout=120_000)
        main = page.locator('[data-testid="stMain"]')
        assert main.locator("img").count() == 0 and main.locator('a[href*="evil"]').count() == 0
        assert page.title() == "MergeScope"
        assert main.locator(".ms-scheme-row .ms-t", has_text="<").count() >= 1
