"""Glyphs tied to bytes on the Train stage, in a real browser (issue #40, item 10), and the places arrows.

In byte-level BPE a Chinese character or an emoji is 3-4 byte tokens (``<E8><83><BD>``) until merges join
them.  The stage shows the character above the tokens that make it: one box per character (or per run of
characters sharing a token), named by the character for a screen reader ("能, 3 bytes"), that a line
never breaks inside.  Checked at a projector's, a large screen's and a phone's size, before and after a
few merges; screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator

import pytest

from mergescope_ui.train.share import pack_text
from tests.browser.support import ARTIFACTS, chromium_page, missing_browser, open_app, streamlit_server

REASON = missing_browser()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"browser tests need chromium: {REASON}"),
    pytest.mark.browser,
]
HEADING = "Train: watch BPE learn"
TEXT = "能力很强 😀 机器学习 👍 能力 😀 学习 " * 6
QUERY = urllib.parse.urlencode({"corpus": "__paste__", "text": pack_text(TEXT), "pattern": "none"})

# Each glyph box shown: its name, its glyph, the labels of its tokens, and whether it lies as the stage
# should draw it (its tokens on one line, the glyph above them and as wide as they are).
GLYPHS = """() => [...document.querySelectorAll('.ms-glyph')]
  .filter((g) => g.getClientRects().length).map((g) => {
  const glyph = g.querySelector(':scope > .ms-glyph-char');
  const tokens = [...g.querySelectorAll('.ms-t')].map((t) => t.getBoundingClientRect());
  const head = glyph.getBoundingClientRect();
  const top = Math.min(...tokens.map((r) => r.top));
  return {
    name: g.getAttribute('aria-label'),
    role: g.getAttribute('role'),
    glyph: glyph.textContent,
    hidden: glyph.getAttribute('aria-hidden'),
    labels: [...g.querySelectorAll('.ms-t')].map((t) => t.textContent),
    oneLine: tokens.every((r) => Math.abs(r.top - top) < 3),
    above: head.bottom <= top + 2,
    spans: head.left <= Math.min(...tokens.map((r) => r.left)) + 2
      && head.right >= Math.max(...tokens.map((r) => r.right)) - 2,
  };
})"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


def _hex_bytes(labels: list[str]) -> bytes | None:
    """The bytes the labels spell when every one is byte tokens only (``<E8><83>``), else None."""
    text = "".join(labels)
    if not text or len(text) % 4 or any(text[n] != "<" or text[n + 3] != ">" for n in range(0, len(text), 4)):
        return None
    return bytes(int(text[n + 1 : n + 3], 16) for n in range(0, len(text), 4))


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (390, 844)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_character_stands_above_its_byte_tokens(server: str, size: tuple[int, int]) -> None:
    width, height = size
    with chromium_page(width=width, height=height) as page:
        open_app(page, f"{server}/train?{QUERY}&presenter=true", heading=HEADING, timeout=90_000)
        for step, tab in ((0, ""), (4, "Where it merged"), (4, "From the start")):
            if tab:
                for _ in range(50):
                    if (page.locator(".ms-stepline").first.text_content() or "").startswith(f"Step {step} "):
                        break
                    page.keyboard.press("ArrowRight")
                    page.wait_for_timeout(100)
                page.get_by_role("tab", name=tab).click()
            page.wait_for_timeout(300)
            ARTIFACTS.mkdir(exist_ok=True)
            where = "-" + tab.split()[0].lower() if tab else ""
            shot = f"train-glyphs-{width}x{height}-step{step}{where}.png"
            page.screenshot(path=str(ARTIFACTS / shot))
            glyphs = page.evaluate(GLYPHS)
            names = {g["name"] for g in glyphs}
            assert names, f"step {step} {tab}: no character over its bytes"
            if tab != "Where it merged":  # the text from its start: its first characters, emoji too
                assert {"能, 3 bytes", "😀, 4 bytes"} <= names, f"step {step}: {sorted(names)[:8]}"
            if step == 0:
                assert {"机, 3 bytes", "👍, 4 bytes"} <= names
            for g in glyphs:
                assert g["role"] == "group" and g["hidden"] == "true", g
                assert g["oneLine"], f"step {step}: {g['name']} split across lines"
                assert g["above"] and g["spans"], f"step {step}: {g['name']} not over its tokens"
                raw = _hex_bytes(g["labels"])
                if raw is not None:  # byte tokens only: the glyph is what they spell, the name counts them
                    assert g["glyph"] == raw.decode("utf-8"), g
                    assert g["name"] == f"{g['glyph']}, {len(raw)} bytes", g
                assert len(g["labels"]) >= 2, f"{g['name']}: a glyph over one token (its label shows it)"


PAGER = """() => [...document.querySelectorAll('.ms-prev-place, .ms-next-place')].map((b) => {
  const r = b.getBoundingClientRect();
  return [b.getAttribute('aria-label'), r.width, r.height];
})"""


def test_the_places_arrows_are_targets_a_thumb_can_hit_on_a_phone(server: str) -> None:
    """◂ ▸ page the places of a merge: at least 24x24 px (issue #40: they were 22x27 on a phone)."""
    with chromium_page(width=390, height=844) as page:
        open_app(page, f"{server}/train?{QUERY}&presenter=true", heading=HEADING, timeout=90_000)
        page.keyboard.press("ArrowRight")
        page.locator(".ms-next-place").first.wait_for(timeout=30_000)
        page.locator(".ms-next-place").first.click()  # the second page of places: ◂ shows too
        page.wait_for_timeout(500)
        arrows = page.evaluate(PAGER)
        assert len(arrows) == 2
        for name, width, height in arrows:
            assert width >= 24 and height >= 24, f"{name}: {width:.1f}x{height:.1f} px"
