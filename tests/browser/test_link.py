"""The Train page's link to this moment in a real browser (issue 22 #1): the URL follows the stage, a
reload and a fresh browser open on the same step with the same pasted text, Copy link copies it, and the
server's console stays free of warnings and stack traces for every link."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator

import pytest

from tests.browser.support import (
    Server,
    chromium_page,
    full_screenshot,
    open_app,
    streamlit_process,
    wait_idle,
)

HEADING = "Train: watch BPE learn"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with streamlit_process() as running:
        yield running


def _card(page, step: int):
    return page.locator(".ms-stage .ms-card:not(.ms-wait) h4").filter(has_text=re.compile(rf"^Merge {step}$"))


def _step_in_url(page, step: int) -> None:
    page.wait_for_function(
        "(k) => new URLSearchParams(window.location.search).get('step') === String(k)",
        arg=step,
        timeout=30_000,
    )


def test_the_link_follows_the_stage_and_reopens_on_the_same_step(server: Server) -> None:
    text = "lower newest 语言 🙂 widest newest newest lower"
    with chromium_page(width=1280, height=720) as page:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        open_app(page, f"{server.url}/train?corpus=__paste__&presenter=true", heading=HEADING)
        box = page.get_by_label("Your text")
        box.fill(text)
        box.press("Control+Enter")
        page.locator(".ms-stage .ms-card").wait_for()
        wait_idle(page)
        for k in (1, 2, 3):
            page.get_by_role("button", name="Next ▶").click()
            _card(page, k).wait_for()
        _step_in_url(page, 3)
        wait_idle(page)
        page.get_by_role("button", name="◀ Back").first.click()
        _step_in_url(page, 2)
        wait_idle(page)
        page.get_by_role("button", name=re.compile("Copy link")).click()
        page.get_by_text("Link copied").wait_for()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == page.url
        query = urllib.parse.parse_qs(urllib.parse.urlparse(copied).query)
        assert query["step"] == ["2"] and query["corpus"] == ["__paste__"] and "text" in query
        full_screenshot(page, "link_presenter_step2")
        page.reload()
        page.get_by_role("heading", name=HEADING).first.wait_for()
        _card(page, 2).wait_for(timeout=60_000)
    with chromium_page(width=1280, height=720) as fresh:
        open_app(fresh, copied, heading=HEADING)
        _card(fresh, 2).wait_for(timeout=60_000)
        assert fresh.get_by_label("Your text").input_value() == text
        fresh.get_by_text("QR code of this link").click()
        fresh.get_by_role("img").filter(has=fresh.locator("xpath=self::img")).last.wait_for()
        wait_idle(fresh)
        full_screenshot(fresh, "link_fresh_browser_qr")
    log = server.log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log and "WARNING" not in log and "Session State" not in log, log[-3000:]


def test_every_kind_of_link_leaves_the_console_clean(server: Server) -> None:
    links = [
        "pattern=none&corpus=low_lower_newest_widest&step=5",
        "pattern=custom&regex=%5Cw%2B&specials=%3Cs%3E&quiz=true&step=2",
        "pattern=bogus&corpus=nope&step=x&text=!!!&tie_break=zzz&merges=-4",
        "corpus=__paste__&step=3",
    ]
    with chromium_page(width=1280, height=720) as page:
        for query in links:
            open_app(page, f"{server.url}/train?{query}", heading=HEADING)
            wait_idle(page, timeout=60_000)
    log = server.log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log and "WARNING" not in log and "Session State" not in log, log[-3000:]
