"""The training page in a real browser (Debian chromium via playwright).

Starts ``streamlit run app.py`` from the repo root on a free port; skipped with
the reason when chromium or playwright is missing.  Screenshots go to
``artifacts/`` (git-ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.support import (
    chromium_page,
    full_screenshot,
    missing_browser,
    open_app,
    streamlit_server,
    wait_idle,
)

REASON = missing_browser()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"browser tests need chromium: {REASON}")
HEADING = "Train: watch BPE learn"
# Streamlit first probes /<page>/_stcore/... before the root; those two 404s are expected.
EXPECTED_404 = re.compile(r"/(train|home)/_stcore/(health|host-config)$")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


@pytest.fixture()
def page(server: str):
    with chromium_page() as page:
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.on(
            "response",
            lambda r: (
                r.status >= 400
                and not EXPECTED_404.search(r.url)
                and problems.append(f"HTTP {r.status} {r.url}")
            ),
        )
        page.on(
            "console",
            lambda m: (
                m.type == "error"
                and "Failed to load resource" not in m.text
                and problems.append(f"console: {m.text}")
            ),
        )
        page.problems = problems
        yield page
        assert not problems, problems


def _next(page, step: int) -> None:
    page.get_by_role("button", name="Next ▶").click()
    page.get_by_text(f"Merge {step}", exact=True).wait_for()
    wait_idle(page)


def test_step_through_the_classroom_string(server: str, page) -> None:
    open_app(page, f"{server}/train?corpus=low_lowest_newest&pattern=none", heading=HEADING)
    assert page.get_by_text("Step 0: the text as raw bytes").is_visible()
    raw = page.locator(".ms-tokens .ms-t")
    assert raw.count() == len("low low low low low lowest lowest newest newest newest")
    for step in (1, 2, 3):
        _next(page, step)
    page.get_by_role("button", name="◀ Back").click()
    page.get_by_text("Merge 2", exact=True).wait_for()
    wait_idle(page)
    card = page.locator(".ms-card")
    assert "New token id 257" in card.inner_text()
    after = page.locator(".ms-tokens").nth(1)
    spans = after.locator(".ms-t")
    titles = [spans.nth(i).get_attribute("title") for i in range(spans.count())]
    assert all((t.startswith("id ") and "bytes" in t) or "byte:" in t for t in titles)
    assert after.locator(".ms-new").count() >= 1
    charts = page.locator('[data-testid="stVegaLiteChart"]')
    assert charts.count() >= 2
    for i in range(charts.count()):  # drawn on a canvas (see mergescope_ui.charts.CANVAS), not as SVG nodes
        canvas = charts.nth(i).locator("canvas")
        canvas.wait_for()
        assert canvas.evaluate("c => c.width > 0 && c.height > 0")
    page.mouse.move(0, 0)
    full_screenshot(page, "train_classroom_step2")


def test_arrow_key_steps_forward(server: str, page) -> None:
    open_app(page, f"{server}/train?corpus=aaabdaaabac", heading=HEADING)
    page.locator("h1").first.click()
    page.keyboard.press("ArrowRight")
    page.get_by_text("Merge 1", exact=True).wait_for()
    wait_idle(page)
    assert "aa" in page.locator(".ms-card").inner_text()


def test_pasted_markup_stays_text(server: str, page) -> None:
    open_app(page, f"{server}/train?corpus=__paste__&pattern=none", heading=HEADING)
    box = page.locator('[data-testid="stSidebar"] textarea').first
    box.fill('<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> & "q"')
    box.press("Control+Enter")
    page.get_by_text("Step 0: the text as raw bytes").wait_for()
    wait_idle(page)
    _next(page, 1)
    tokens = page.locator(".ms-tokens")
    assert tokens.locator("img, script").count() == 0
    assert "<img" in tokens.nth(1).inner_text().replace("\N{OPEN BOX}", " ")
    assert page.evaluate("() => window.__pwned === undefined")


def test_presenter_mode_on_chinese_after_a_jump(server: str, page) -> None:
    open_app(page, f"{server}/train?corpus=machine_learning_zh&presenter=true&merges=300", heading=HEADING)
    jump = page.locator('input[aria-label="Jump to step"]')
    jump.fill("40")
    jump.press("Enter")
    page.get_by_text("Merge 40", exact=True).wait_for(timeout=60_000)
    wait_idle(page)
    size = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert size >= 20
    merges = page.locator("table.ms-table", has_text="tokens_after").last  # the latest merges, newest first
    merges.wait_for()
    assert merges.locator("tbody tr").first.locator("td").first.inner_text().strip() == "40"
    page.mouse.move(0, 0)
    full_screenshot(page, "train_presenter_zh_step40")


def test_play_steps_on_its_own_then_pause_stops(server: str, page) -> None:
    open_app(page, f"{server}/train?corpus=lighthouse_story", heading=HEADING)
    page.get_by_role("button", name="Play").click()
    page.locator(".ms-card h4", has_text="Merge 3").wait_for(timeout=20_000)  # about 1 s per step
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Play").wait_for()
    wait_idle(page)
    shown = page.locator(".ms-card h4").inner_text()
    page.wait_for_timeout(2500)
    assert page.locator(".ms-card h4").inner_text() == shown, "paused: no more steps"


def test_quiz_round_in_the_browser(server: str, page) -> None:
    open_app(page, f"{server}/train?corpus=aaabdaaabac&pattern=none&quiz=true", heading=HEADING)
    page.get_by_text("Your guess for merge 1").wait_for()
    page.get_by_role("radiogroup").get_by_text("a + a", exact=True).click()
    wait_idle(page)
    _next(page, 1)
    page.get_by_text("Right!").wait_for()
    assert page.get_by_text("1 right out of 1").is_visible()
    page.mouse.move(0, 0)
    full_screenshot(page, "train_quiz_step1")


def test_merges_csv_download_has_every_merge_so_far(server: str, page) -> None:
    open_app(page, f"{server}/train?corpus=low_lowest_newest&pattern=none", heading=HEADING)
    for step in (1, 2, 3):
        _next(page, step)
    with page.expect_download() as info:
        page.get_by_role("button", name="⬇ Merges as CSV").click()
    download = info.value
    assert download.suggested_filename == "merges_3.csv"
    lines = Path(download.path()).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4 and lines[0].startswith("step,")
    assert [line.split(",")[0] for line in lines[1:]] == ["1", "2", "3"]
