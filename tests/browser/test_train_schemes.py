"""The Train page's WordPiece and Unigram stages, and the Viterbi lattice, in a real browser.

At 1280x720 in presenter mode (light) and at 1920x1080 (dark) each scheme's step fits the screen with
nothing sticking out of its box, axe-core finds no serious or critical violation in either theme, and
Unigram's page shows no word of BPE's (merge, pair).  Screenshots go to ``artifacts/`` (git-ignored).
One server for the file; axe-core comes from ``.ci/node`` (``npm ci --prefix .ci/node``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.layout import STAGE_BOXES, STICKING_OUT, outside_viewport
from tests.browser.support import (
    ROOT,
    chromium_page,
    full_screenshot,
    open_app,
    streamlit_server,
    wait_idle,
)
from tests.browser.test_accessibility import AXE, THEME_OF_THE_APP, severe_violations

HEADING = "Train: watch"
# Unigram's page in BPE's words: every text on the screen, and the stage's tooltips.
SHOWN_WORDS = """() => [document.querySelector('[data-testid="stMain"]').innerText,
  document.querySelector('[data-testid="stSidebar"]').innerText,
  ...[...document.querySelectorAll('.ms-stage [title], .ms-stage [aria-label]')].map(
    (e) => (e.title || '') + ' ' + (e.getAttribute('aria-label') || ''))].join('\\n')"""
BPE_WORDS = re.compile(r"\b(merg\w*|pairs?)\b", re.I)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


def _shot(name: str) -> Path:
    (ROOT / "artifacts").mkdir(exist_ok=True)
    return ROOT / "artifacts" / f"{name}.png"


def _settled(page) -> None:
    wait_idle(page)
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.mouse.move(0, 0)


def _axe(page, view: str) -> None:
    """No serious or critical axe-core violation on the page now (skipped, saying why, without axe)."""
    if not AXE.is_file():
        return  # test_accessibility's marks say how to install it; the layout checks still ran
    found = severe_violations(page)
    if found:
        (ROOT / "artifacts" / "axe_train_schemes.json").write_text(json.dumps({view: found}, indent=1))
    assert not found, (view, [(v["id"], v["nodes"][:4]) for v in found])


def _card(page, title: str):
    return page.locator(".ms-stage .ms-card:not(.ms-wait) h4").filter(has_text=re.compile(rf"^{title}"))


def _fits(page, name: str, *, start: bool = False) -> dict:
    """The step on one screen; at the start (no step yet) there is no "before", and the text from its
    start scrolls inside its own box (its tokens below the box are not on the screen by design)."""
    _settled(page)
    boxes = page.evaluate(STAGE_BOXES)
    page.screenshot(path=str(_shot(name)))
    if start:
        boxes = {**boxes, "before": boxes["card"], "after": boxes["card"]}
        seq = page.locator(".ms-stage .ms-seqcol").bounding_box()
        assert seq is not None and seq["y"] + seq["height"] <= 720, (name, seq)
    assert outside_viewport(boxes) == [], (name, boxes)
    assert page.evaluate(STICKING_OUT) == [], name
    return boxes


def test_wordpiece_steps_fit_a_projector(server: str) -> None:
    with chromium_page(width=1280, height=720) as page:
        page.emulate_media(reduced_motion="reduce")
        open_app(page, f"{server}/train?scheme=wordpiece&corpus=hug_pug_pun&presenter=true", heading=HEADING)
        _card(page, "WordPiece starts from characters").wait_for()
        page.get_by_role("button", name="Next ▶").click()
        _card(page, "Merge 1").wait_for()
        boxes = _fits(page, "train_wordpiece_1280x720_presenter_merge1")
        card = page.locator(".ms-stage .ms-card").inner_text()
        assert "score = 5 / (20 × 5) = 0.05" in card and "BPE would merge ##u + ##g" in card
        assert page.locator(".ms-stage .ms-bar.ms-bpe").count() == 1
        assert boxes["fused"] is not None and boxes["fresh"] is not None, "the merge marked before and after"
        assert "##gs" in page.locator(".ms-stage .ms-after").inner_text()
        assert page.get_by_role("spinbutton", name="Jump to step").count() == 1
        _axe(page, "wordpiece merge 1, light")
        page.keyboard.press("ArrowRight")  # the keys step as for BPE
        _card(page, "Merge 2").wait_for()
        _fits(page, "train_wordpiece_1280x720_presenter_merge2")


def test_unigram_rounds_fit_a_projector_and_the_lattice_draws_a_clicked_word(server: str) -> None:
    with chromium_page(width=1280, height=720) as page:
        page.emulate_media(reduced_motion="reduce")
        query = "scheme=unigram&corpus=kind_kindness_unkind&ug_vocab=50&presenter=true"
        open_app(page, f"{server}/train?{query}", heading=HEADING)
        _card(page, "The seed").wait_for()
        _fits(page, "train_unigram_1280x720_presenter_seed", start=True)
        # the page counts rounds, and so does the jump box (its visible label and its name)
        assert page.locator(".ms-stage .ms-jump-t").inner_text() == "Jump to round"
        assert page.get_by_role("spinbutton", name="Jump to round").count() == 1
        for k in range(1, 7):
            page.get_by_role("button", name="Next ▶").click()
            _card(page, f"Round {k}:").wait_for(timeout=60_000)
        boxes = _fits(page, "train_unigram_1280x720_presenter_round6")
        assert boxes["fused"] is not None and boxes["fresh"] is not None, "the changed cuts outlined"
        assert page.locator(".ms-stage .ms-bar.ms-pruned").count() >= 1
        assert "Unigram finished after 6 rounds" in page.locator(".ms-stage .ms-status").inner_text()
        assert not BPE_WORDS.findall(page.evaluate(SHOWN_WORDS))
        _axe(page, "unigram round 6, light")
        # the lattice, below the stage: click a word
        word = page.locator(".st-key-lattice_word button", has_text="▁boldness").first
        word.scroll_into_view_if_needed()
        word.click()
        lat = page.locator(".ms-lat-g")
        lat.wait_for(timeout=30_000)
        _settled(page)
        page.evaluate("() => document.querySelector('.ms-lat').scrollIntoView({block: 'start'})")
        page.wait_for_timeout(200)
        page.screenshot(path=str(_shot("train_unigram_1280x720_presenter_lattice")))
        assert page.locator(".ms-lat-e.ms-lat-best").count() >= 1
        assert "◀ best (Viterbi)" in page.locator(".ms-lat-t").inner_text()
        assert page.evaluate(STICKING_OUT) == []
        _axe(page, "unigram lattice, light")


def test_both_schemes_at_1920x1080_in_the_dark_theme(server: str) -> None:
    with chromium_page(width=1920, height=1080, color_scheme="dark") as page:
        page.emulate_media(reduced_motion="reduce")
        open_app(page, f"{server}/train?scheme=wordpiece&corpus=hug_pug_pun", heading=HEADING)
        assert page.evaluate(THEME_OF_THE_APP) == "dark"
        _card(page, "WordPiece starts from characters").wait_for()
        page.get_by_role("button", name="Next ▶").click()
        _card(page, "Merge 1").wait_for()
        _fits(page, "train_wordpiece_1920x1080_dark_merge1")
        _axe(page, "wordpiece merge 1, dark")
        open_app(
            page, f"{server}/train?scheme=unigram&corpus=kind_kindness_unkind&ug_vocab=50", heading=HEADING
        )
        _card(page, "The seed").wait_for()
        for k in (1, 2):
            page.get_by_role("button", name="Next ▶").click()
            _card(page, f"Round {k}:").wait_for(timeout=60_000)
        _fits(page, "train_unigram_1920x1080_dark_round2")
        assert not BPE_WORDS.findall(page.evaluate(SHOWN_WORDS))
        word = page.locator(".st-key-lattice_word button").first
        word.scroll_into_view_if_needed()
        word.click()
        page.locator(".ms-lat-g").wait_for(timeout=30_000)
        _settled(page)
        assert page.evaluate(STICKING_OUT) == []
        _axe(page, "unigram round 2 and its lattice, dark")
        full_screenshot(page, "train_unigram_1920x1080_dark_page")
