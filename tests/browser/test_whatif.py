"""What if? in a real browser: run a branch from the page, find both histories on screen, go back, and
open a link that carries a branch (Debian chromium via playwright; skipped with the reason without it).

Screenshots go to ``artifacts/`` (git-ignored): 1280x720 in presenter mode and 1920x1080.

The one-screen checks scroll a view's first line just under Streamlit's header and list the parts that
end below the viewport: the comparison while stepping and once both are trained to the end, and the
merge-order lesson (whose outlined places, where the two orders cut differently, must be in sight).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bpe_core import train_steps
from mergescope_ui.shared.inputs.corpora import find_corpus, load_text
from tests.browser.support import (
    ARTIFACTS,
    chromium_page,
    full_screenshot,
    open_app,
    streamlit_server,
    wait_idle,
)

HEADING = "Train: watch BPE learn"
SENNRICH = "corpus=low_lower_newest_widest&pattern=whitespace&tie_break=lowest-id"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


def _in_view(page, text: str) -> bool:
    """True when an element showing ``text`` lies inside the viewport (after scrolling to it)."""
    element = page.get_by_text(text).first
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_a_branch_run_from_the_page_shows_both_histories_and_goes_back(server: str) -> None:
    with chromium_page(width=1920, height=1080) as page:
        open_app(page, f"{server}/train?{SENNRICH}", heading=HEADING)
        page.get_by_text("What if? Change merge 1").click()
        page.get_by_text("this pair had been blocked").click()
        wait_idle(page)
        page.get_by_role("button", name="Run the what-if from merge 1").click()
        page.get_by_text("Back to the real history").first.wait_for()
        wait_idle(page)
        assert _in_view(page, "Real history · ") and _in_view(page, "What if · ")
        real = page.locator(".ms-whatif").filter(has_text="Real history · ").locator(".ms-tokens")
        alt = page.locator(".ms-whatif").filter(has_text="What if · ").locator(".ms-tokens")
        # The real history merged e + s at merge 1; the what-if blocked it and merged s + t instead.
        assert real.locator(".ms-t", has_text="es").count() > 0
        assert alt.locator(".ms-t", has_text="st").count() > 0
        assert "whatif=1.block.101-115" in page.url
        full_screenshot(page, "whatif-1920")
        page.get_by_role("button", name="Back to the real history").click()
        page.get_by_text("What if? Change merge 1").wait_for()
        wait_idle(page)
        assert page.get_by_text("What if · ").count() == 0 and "whatif=" not in page.url


# Scroll the what-if's first line just under Streamlit's header; then the parts of the comparison that
# lie below the viewport's bottom edge (name, how far).
BELOW_THE_SCREEN = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const header = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect().bottom;
  const back = [...document.querySelectorAll('button')].find(b => b.textContent.includes('Back to the real'));
  const bar = document.querySelector('.ms-whatif-bar');
  main.scrollTop += Math.min(back.getBoundingClientRect().top, bar.getBoundingClientRect().top) - header - 4;
  const parts = {bar: '.ms-whatif-bar', boxes: '.ms-whatif', held_out: '.st-key-whatif_heldout',
                 to_end: '.st-key-whatif_to_end'};
  const out = [];
  for (const [name, sel] of Object.entries(parts))
    for (const el of document.querySelectorAll(sel)) {
      const bottom = el.getBoundingClientRect().bottom;
      if (bottom > innerHeight) out.push(`${name} ends ${Math.round(bottom - innerHeight)} px below`);
    }
  return [document.querySelectorAll('.ms-whatif').length, out];
}"""


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1920, 1080)])
def test_a_link_carries_the_branch_in_presenter_mode_on_one_screen(
    server: str, width: int, height: int
) -> None:
    with chromium_page(width=width, height=height) as page:
        open_app(page, f"{server}/train?{SENNRICH}&presenter=true&whatif=3.tie.111-119", heading=HEADING)
        page.get_by_text("Back to the real history").first.wait_for()
        wait_idle(page)
        assert page.get_by_text("the tie was broken the other way: o + w instead of l + o").count() == 1
        row = page.locator("tr.ms-part").first
        assert row.inner_text().split("\t")[:3] == ["3", "lo", "ow"]
        page.evaluate(BELOW_THE_SCREEN)  # scrolled to the what-if, the stage out of sight:
        for _ in range(3):  # the arrow keys still step both histories
            page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "() => (document.querySelector('.ms-whatif table') || {}).textContent.includes('6')",
            timeout=60_000,
        )
        wait_idle(page)
        # The bar, both texts with the tokens only each has, the merges, the figures and their buttons:
        # all on one screen once scrolled to, as the stage above them is.
        boxes, below = page.evaluate(BELOW_THE_SCREEN)
        assert boxes == 4 and below == [], below
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"whatif-{width}-presenter-one-screen.png"))
        # nothing of the what-if wider than its column, nor than the page
        sizes = page.evaluate(
            "() => [...document.querySelectorAll('.ms-whatif-bar, .ms-whatif, .ms-whatif table, .ms-only')]"
            ".map(e => [e.getBoundingClientRect().right, e.parentElement.getBoundingClientRect().right])"
        )
        assert sizes and all(right <= min(parent, width) + 1 for right, parent in sizes), sizes
        full_screenshot(page, f"whatif-{width}-presenter")


def test_long_tokens_late_in_training_stay_inside_their_boxes(server: str) -> None:
    # Late in training on pattern none, tokens run to hundreds of bytes and some start with ':'
    # (no line break before it by the Unicode rules): each is cut in the middle and wraps.
    text = load_text(find_corpus("lighthouse_story"))
    steps = list(train_steps(text, vocab_size=256 + 600, pattern="none"))
    a, b = steps[-1].pair
    query = f"corpus=lighthouse_story&pattern=none&merges=1000&presenter=true&whatif=600.block.{a}-{b}"
    with chromium_page(width=1280, height=720) as page:
        open_app(page, f"{server}/train?{query}", heading=HEADING, timeout=120_000)
        page.get_by_text("Back to the real history").first.wait_for(timeout=120_000)
        wait_idle(page, timeout=120_000)
        for _ in range(3):  # the what-if follows the stage's Next
            page.locator(".ms-stage .ms-next").click()
        page.wait_for_function(
            "() => (document.querySelector('.ms-whatif table') || {}).textContent.includes('603')",
            timeout=60_000,
        )
        wait_idle(page)
        outside = page.evaluate(
            """() => [...document.querySelectorAll('.ms-whatif .ms-tokens, .ms-only .ms-tokens')]
                 .flatMap(box => {
                   const edge = box.getBoundingClientRect().right;
                   return [...box.querySelectorAll('.ms-t')]
                     .filter(t => t.getBoundingClientRect().right > edge + 1).map(t => t.textContent); })"""
        )
        assert outside == []
        assert page.get_by_text("…").count() > 0  # long labels are cut in the middle
        full_screenshot(page, "whatif-1280-presenter-late")


def _zh_branch() -> str:
    """The Chinese text under GPT-2 pre-tokenization with merge 100's pair blocked (four-digit figures)."""
    text = load_text(find_corpus("machine_learning_zh"))
    a, b = list(train_steps(text, vocab_size=256 + 100, pattern="gpt2"))[-1].pair
    return f"corpus=machine_learning_zh&pattern=gpt2&merges=300&whatif=100.block.{a}-{b}"


@pytest.mark.parametrize(
    ("width", "height", "text"), [(1280, 720, "sennrich"), (1280, 720, "zh"), (1920, 1080, "sennrich")]
)
def test_the_end_view_fits_one_presenter_screen(server: str, width: int, height: int, text: str) -> None:
    query = f"{SENNRICH}&whatif=3.tie.111-119" if text == "sennrich" else _zh_branch()
    with chromium_page(width=width, height=height) as page:
        open_app(page, f"{server}/train?{query}&presenter=true", heading=HEADING)
        page.get_by_text("Back to the real history").first.wait_for()
        wait_idle(page)
        page.get_by_role("button", name="Train both to the end").click()
        page.get_by_text("what if, at end").first.wait_for(timeout=60_000)
        wait_idle(page)
        # Both vocabularies' end figures, the held-out text's compression and its choice: one screen.
        boxes, below = page.evaluate(BELOW_THE_SCREEN)
        assert boxes == 4 and below == [], below
        held_out = page.locator("tr", has_text="held-out").inner_text().split("\t")
        assert held_out[0] == "held-out" and all("·" in cell for cell in held_out[3:5]), held_out
        assert page.locator(".st-key-whatif_heldout").count() == 1
        # and every column of the table in its box (none scrolled out of sight sideways)
        assert page.evaluate(
            "() => [...document.querySelectorAll('.ms-figures-box .ms-table-wrap')]"
            ".map(w => w.scrollWidth - w.clientWidth)"
        ) == [0]
        page.screenshot(path=str(ARTIFACTS / f"whatif-end-{width}-presenter-{text}.png"))


# Scroll the merge-order lesson's expander to just under the header (as far as the page goes); then how
# much taller it is than the screen under the header, and the outlined tokens (the places cut
# differently) out of sight: below the viewport or outside the part of their token box in view.
ORDER_OUT_OF_SIGHT = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const header = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect().bottom;
  const lesson = [...document.querySelectorAll('[data-testid="stExpander"]')]
    .find(e => e.textContent.includes('Merge order matters'));
  main.scrollTop += lesson.getBoundingClientRect().top - header - 4;
  const box = lesson.getBoundingClientRect();
  const below = Math.max(box.bottom - innerHeight, box.height - (innerHeight - header - 4));
  const boxes = [...lesson.querySelectorAll('.ms-tokens')].filter(b => b.querySelector('.ms-new'));
  const hidden = boxes.flatMap(box => {
    const edge = box.getBoundingClientRect();
    return [...box.querySelectorAll('.ms-new')].filter(t => {
      const r = t.getBoundingClientRect();
      return r.top < edge.top - 1 || r.bottom > Math.min(edge.bottom, innerHeight) + 1;
    }).map(t => t.textContent);
  });
  return {below: Math.round(below), boxes: boxes.length, outlined: lesson.querySelectorAll('.ms-new').length,
          hidden};
}"""


@pytest.mark.parametrize(
    ("width", "height", "corpus", "step"),
    # mixed scripts (emoji, CJK) cut differently only from byte 233 of its first 290, under 100 merges
    [(1280, 720, "mixed_scripts", 100), (1920, 1080, "lighthouse_story", 40)],
)
def test_the_merge_order_lesson_fits_one_presenter_screen(
    server: str, width: int, height: int, corpus: str, step: int
) -> None:
    with chromium_page(width=width, height=height) as page:
        open_app(page, f"{server}/train?corpus={corpus}&pattern=none&presenter=true", heading=HEADING)
        box = page.locator(".ms-stage .ms-jump-in")
        box.fill(str(step))
        box.press("Enter")
        page.locator(".ms-stage .ms-card:not(.ms-wait) h4", has_text=f"Merge {step}").wait_for(timeout=60_000)
        wait_idle(page)
        page.get_by_text("Merge order matters").click()
        page.get_by_text("Reversed · ").first.wait_for(timeout=60_000)
        wait_idle(page)
        page.wait_for_function("() => document.getAnimations().length === 0")  # the expander opened
        seen = page.evaluate(ORDER_OUT_OF_SIGHT)
        # abc, the choice of order, both cuts with their counts, and the line that says how many places
        # differ and that both decode: one screen, the places that differ in sight without scrolling.
        assert seen["below"] <= 0 and seen["boxes"] == 2 and seen["hidden"] == [], seen
        assert _in_view(page, "both decode to abc") and _in_view(page, "both decode back to the text")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"order-lesson-{width}-presenter-{corpus}.png"))
        later = page.get_by_role("button", name="Later ▶")
        if later.is_enabled():  # the next places, in sight on the same screen
            said = page.get_by_text(re.compile(r"^Places? 1")).inner_text()
            later.click()
            page.get_by_text(re.compile(r"^Places? [2-9]")).wait_for()
            wait_idle(page)
            seen = page.evaluate(ORDER_OUT_OF_SIGHT)
            assert seen["below"] <= 0 and seen["boxes"] == 2 and seen["hidden"] == [], (said, seen)


def test_a_branch_run_from_the_page_comes_into_view_with_plain_legends(server: str) -> None:
    """Issue #22 (11): after "Run the what-if" the comparison is scrolled to, without the user scrolling,
    and its legend says in words what = ≠ ⇄ mean."""
    with chromium_page(width=1280, height=720) as page:
        page.emulate_media(reduced_motion="reduce")
        open_app(page, f"{server}/train?{SENNRICH}&presenter=true", heading=HEADING)
        page.get_by_text("What if? Change merge 1").click()
        page.get_by_text("this pair had been blocked").click()
        wait_idle(page)
        page.get_by_role("button", name="Run the what-if from merge 1").click()
        page.get_by_text("Back to the real history").first.wait_for()
        wait_idle(page)
        page.wait_for_timeout(500)  # the scroll comes a frame after the comparison is drawn
        # The line with "Back" just under Streamlit's header, and both histories' texts whole on the screen.
        header, boxes = page.evaluate(
            """() => [document.querySelector('[data-testid="stHeader"]').getBoundingClientRect().bottom,
              [...document.querySelectorAll('.st-key-whatif_back, .ms-whatif-bar, .ms-whatif')].slice(0, 4)
                .map((el) => [el.getBoundingClientRect().top, el.getBoundingClientRect().bottom])]"""
        )
        assert all(header - 1 <= top and bottom <= page.viewport_size["height"] for top, bottom in boxes), (
            boxes
        )
        assert min(top for top, _ in boxes) <= header + 40, "scrolled to the comparison's first line"
        legend = page.locator(".ms-whatif").filter(has_text="The merges since merge 1").inner_text()
        assert "both histories made the same token" in legend and "the other history made it too" in legend
        assert "they part ·" not in legend and "⇄ k" not in legend
