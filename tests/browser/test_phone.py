"""A phone, 390x844: no page scrolls sideways, and its main output shows on the first screen.

Covers the Welcome, Train, Vocab-size lab and Compare schemes pages (the Tokenize page's phone layout
has its own test).  Screenshots of the first screen and of the whole page go to
``artifacts/phone_<page>.png`` and ``artifacts/phone_<page>_full.png``: look at them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.layout import STICKING_OUT
from tests.browser.support import (
    ARTIFACTS,
    chromium_page,
    full_screenshot,
    streamlit_server,
    wait_idle,
)

WIDTH, HEIGHT = 390, 844
# page -> (its heading, the parts of its main output that must be wholly on the first screen)
PAGES = {
    "/": ("MergeScope", ['[data-testid="stPageLink"]']),
    "/train": ("Train: watch BPE learn", [".ms-stage .ms-next", ".ms-stage .ms-play", ".ms-stage .ms-card"]),
    "/vocab-lab": ("Vocab-size lab", ['[data-testid="stMetric"]']),
    "/schemes": ("Compare schemes", [".ms-tokens"]),
}
# The schemes' table (thirteen columns) scrolls sideways in its own focusable box, not the page.
OWN_SCROLL = {"/schemes": re.compile(r"^(TABLE|THEAD|TBODY|TR|TH|TD)\b|^DIV\.ms-schemes-table hides")}
SIDEWAYS = """() => [document.documentElement, document.querySelector('[data-testid="stMain"]')]
  .filter((el) => el.scrollWidth > el.clientWidth + 1)
  .map((el) => `${el.tagName} ${el.scrollWidth} px wide`)"""
FIRST_BOX = """(sel) => { const el = [...document.querySelectorAll(sel)].find((e) => e.checkVisibility());
  if (!el) return null; const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"""
CUT_TABS = """() => [...document.querySelectorAll('[data-testid="stTabs"] [role="tab"]')]
  .filter((t) => t.checkVisibility()).filter((t) => {
    const r = t.getBoundingClientRect();
    return r.left < 0 || r.right > document.documentElement.clientWidth || t.scrollWidth > t.clientWidth + 1;
  }).map((t) => t.textContent)"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


@pytest.mark.parametrize("path", list(PAGES))
def test_a_page_on_a_phone_fits_its_width_and_shows_its_output_first(server: str, path: str) -> None:
    heading, output = PAGES[path]
    name = "phone_" + (path.strip("/").replace("-", "_") or "welcome")
    with chromium_page(width=WIDTH, height=HEIGHT) as page:
        page.goto(server + path)
        page.get_by_role("heading", name=heading).first.wait_for(timeout=60_000)
        wait_idle(page, timeout=180_000)
        for selector in output:
            page.locator(selector).first.wait_for(timeout=180_000)
        wait_idle(page, timeout=180_000)
        page.wait_for_timeout(500)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
        boxes = {selector: page.evaluate(FIRST_BOX, selector) for selector in output}
        sideways = page.evaluate(SIDEWAYS)
        allowed = OWN_SCROLL.get(path)
        out = [p for p in page.evaluate(STICKING_OUT, None) if not (allowed and allowed.search(p))]
        cut = page.evaluate(CUT_TABS)
        tabs = page.locator('[data-testid="stTabs"] [role="tab"]')
        for n in range(tabs.count()):  # every tab opens, and none of them makes the page scroll sideways
            tabs.nth(n).click()
            wait_idle(page, timeout=180_000)
            sideways += [f"tab {n}: {s}" for s in page.evaluate(SIDEWAYS)]
        full_screenshot(page, f"{name}_full")
    assert not sideways, f"{path} scrolls sideways on a phone: {sideways}"
    assert not out, f"{path}: parts stick out on a phone: {out}"
    assert not cut, f"{path}: tabs cut on a phone: {cut}"
    for selector, box in boxes.items():
        assert box is not None, f"{path}: {selector} is not on the page"
        assert box["top"] >= 0 and box["bottom"] <= HEIGHT, (
            f"{path}: {selector} is not on the first screen: {box}"
        )
