"""The Tokenize page in a real browser (Debian chromium through playwright).

Pastes a text with ``<script>``, emoji and CJK, then checks that the token
spans and counts render, that spans carry a hover tooltip, that no script
from the text ran and that the page logged no JavaScript error.  Screenshots
go to ``artifacts/`` (git-ignored).  Skips, saying why, without chromium or
playwright.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mergescope_ui.shared.corpora import load_index
from tests.browser.support import chromium_page, full_screenshot, missing_browser, streamlit_server, wait_idle

REASON = missing_browser()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"browser tests need chromium: {REASON}")
TEXT = 'Hi <script>window.__pwned=1</script> & "q" 👨‍👩‍👧 机器学习 café'


def cid(word: str) -> str:
    """The id of the built-in corpus whose id contains ``word``."""
    return next(c.id for c in load_index() if word in c.id)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


@pytest.fixture()
def page():
    with chromium_page(width=1400, height=900) as pg:
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        # "Failed to load resource" console lines are the HTTP errors, checked (with their URL) below.
        pg.on(
            "console",
            lambda m: (
                errors.append(m.text)
                if m.type == "error" and "Failed to load resource" not in m.text
                else None
            ),
        )
        pg.on(
            "response",
            lambda r: (
                errors.append(f"HTTP {r.status} {r.url}")
                if r.status >= 400 and not _base_probe(r.url)
                else None
            ),
        )
        pg.errors = errors  # type: ignore[attr-defined]
        yield pg


def _base_probe(url: str) -> bool:
    """Streamlit's frontend, opened at /page, first probes /page/_stcore/{health,host-config} (404)
    to find its base path."""
    path = url.split("://", 1)[-1].split("/", 1)[-1].split("?")[0]
    return path.count("/") >= 2 and path.endswith(("/_stcore/health", "/_stcore/host-config"))


def _settle(pg, *, text: str | None = None) -> None:
    wait_idle(pg, timeout=60_000)
    if text:
        pg.get_by_text(text).first.wait_for(timeout=60_000)


def test_paste_tokens_counts_tooltip_no_js_errors(server, page):
    page.goto(f"{server}/tokenize?tok=quick:{cid('lighthouse')}:400:gpt2")
    _settle(page, text="Tokenize: paste text")
    box = page.get_by_role("textbox", name="Text to tokenize")
    box.fill(TEXT)
    box.press("Control+Enter")
    page.wait_for_function(
        "t => [...document.querySelectorAll('.ms-tokens .ms-t')]"
        ".map(s => s.textContent).join('').includes(t)",
        arg="script",
        timeout=60_000,
    )
    _settle(page)
    spans = page.locator(".ms-tokens .ms-t")
    assert spans.count() > 10
    # the text's <script> is shown as text inside spans, never run
    joined = "".join(spans.all_text_contents())
    assert "<script>" in joined.replace("␣", " ")
    assert page.evaluate("() => window.__pwned") is None
    # tooltip on hover: a title with the id and the bytes
    first = spans.first
    title = first.get_attribute("title")
    assert title and title.startswith("id ") and "byte" in title
    first.hover()
    # counts: characters and bytes as the text really has them
    metrics = page.locator('[data-testid="stMetric"]').all_text_contents()
    assert any(f"{len(TEXT):,}" in m and "Characters" in m for m in metrics), metrics
    assert any(f"{len(TEXT.encode()):,}" in m and "Bytes" in m for m in metrics), metrics
    full_screenshot(page, "tokenize")
    page.get_by_role("tab", name="🧬 Byte ribbon").click()
    page.locator(".ms-ribbon .ms-split").first.wait_for(timeout=30_000)
    full_screenshot(page, "tokenize_ribbon")
    assert not page.errors, page.errors


def test_compare_and_details_render(server, page):
    page.goto(
        f"{server}/tokenize?t=%E6%9C%BA%E5%99%A8%E5%AD%A6%E4%B9%A0+the+lighthouse"
        f"&tok=quick:{cid('machine')}:600:gpt2&cmp=quick:{cid('machine')}:600:gpt2,bytes:gpt2,char:{cid('lighthouse')}"
    )
    _settle(page, text="Tokenize: paste text")
    page.get_by_role("tab", name="⚖️ Compare").click()
    page.get_by_text("characters of").first.wait_for(timeout=30_000)
    full_screenshot(page, "tokenize_compare")
    page.get_by_role("tab", name="🔎 Token details").click()
    page.locator(".ms-tree").first.wait_for(timeout=30_000)
    full_screenshot(page, "tokenize_details")
    assert not page.errors, page.errors


def test_presenter_mode_example_button(server, page):
    page.goto(f"{server}/tokenize?presenter=true")
    _settle(page, text="Tokenize: paste text")
    page.get_by_role("button", name="Emoji & ZWJ").click()
    page.wait_for_function(
        "() => document.querySelector('textarea').value.startsWith('Family')", timeout=30_000
    )
    _settle(page)
    page.locator(".ms-tokens .ms-t").first.wait_for(timeout=30_000)
    size = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.ms-tokens')).fontSize)")
    assert size >= 28, f"token font {size}px is small for a projector"
    full_screenshot(page, "tokenize_presenter")
    page.get_by_role("tab", name="🧬 Byte ribbon").click()
    page.locator(".ms-ribbon").first.wait_for(timeout=30_000)
    full_screenshot(page, "tokenize_presenter_ribbon")
    assert not page.errors, page.errors
