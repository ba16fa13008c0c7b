"""The Train page's stage and its keys in a real browser (issue #22: 3, 7 and 11).

A teacher steps with the arrow keys or a presentation clicker (PageDown / PageUp, and Space /
Enter where they would press nothing else); in the quiz the arrows step too, and a guess changes
only by a click or the choices' own keys; the quiz's verdict is read whole from the back of the
room.  Skipped with the reason when chromium or playwright is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.layout import STAGE_BOXES, outside_viewport
from tests.browser.support import generated_text, open_app, streamlit_server, wait_idle
from tests.browser.test_train import CLASSIC, HEADING, _browser, _card, _choice, _guess, _open

QUICK = 10_000  # ms: a step drawn in the browser, or a server round trip, comes well within this

# Every focused element (or one holding the focus) that covers more than half the screen and is
# drawn with a frame of 2 px or more, itself or by its ::before / ::after (Streamlit frames its
# scroll area with an inset shadow on ::before): a page-wide focus frame.
PAGE_FRAMES = r"""() => {
  const out = [];
  for (const el of document.querySelectorAll(':focus, :focus-within, :focus-visible')) {
    const r = el.getBoundingClientRect();
    if (r.width * r.height <= 0.5 * innerWidth * innerHeight) continue;
    for (const part of [null, '::before', '::after']) {
      const st = getComputedStyle(el, part);
      const outline = st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) >= 2;
      const ring = (st.boxShadow.match(/[\d.]+px/g) || []).some((px) => parseFloat(px) >= 2);
      const drawn = part === null || st.content !== 'none';
      if (drawn && (outline || ring)) out.push(`${el.tagName} ${el.dataset.testid || ''}${part || ''}`);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


def test_in_the_quiz_the_arrow_keys_step_after_a_click_on_a_choice(server: str) -> None:
    with _browser() as page:
        _open(page, server, "corpus=aaabdaaabac&pattern=none&quiz=true")
        page.get_by_text("Your guess for merge 1").wait_for()
        _choice(page, "a + a").click()  # the focus stays on the choice
        page.keyboard.press("ArrowRight")  # Next: judges the guess clicked, not the choice beside it
        _card(page, 1).wait_for(timeout=QUICK)
        page.get_by_text("Right! a + a occurs 4 times").wait_for(timeout=QUICK)
        page.keyboard.press("ArrowRight")  # the verdict read: the next question
        page.get_by_text("Your guess for merge 2").wait_for(timeout=QUICK)
        choices = _guess(page).locator(".ms-choice")
        choices.nth(0).click()
        page.keyboard.press("ArrowDown")  # no choice moves: a guess changes by a click or a number key
        assert choices.nth(0).get_attribute("aria-pressed") == "true"
        page.keyboard.press("2")
        assert [choices.nth(n).get_attribute("aria-pressed") for n in (0, 1)] == ["false", "true"]
        picked = choices.nth(1).get_attribute("title").rsplit(" (key", 1)[0]
        page.keyboard.press("ArrowRight")  # Next judges that choice
        _card(page, 2).wait_for(timeout=QUICK)
        assert picked in page.locator(".ms-stage .ms-status .ms-verdict").inner_text()


def test_a_presentation_clicker_steps_and_no_page_wide_focus_frame_shows(server: str) -> None:
    with _browser(width=1280, height=720) as page:
        _open(page, server, CLASSIC + "&presenter=true")
        page.locator("h1").first.click()
        page.keyboard.press("ArrowRight")
        _card(page, 1).wait_for(timeout=QUICK)
        assert page.evaluate(PAGE_FRAMES) == []
        for key, step in (("PageDown", 2), ("Space", 3), ("Enter", 4), ("PageUp", 3), ("PageDown", 4)):
            page.keyboard.press(key)
            _card(page, step).wait_for(timeout=QUICK)
            assert page.evaluate(PAGE_FRAMES) == [], key
        scrolled = page.locator('[data-testid="stMain"]').evaluate("e => e.scrollTop")
        assert scrolled == 0, "the keys step, they do not scroll the page"
        # Space and Enter on a button press that button, once: Back goes back one step.
        page.get_by_role("button", name="◀ Back").focus()
        page.keyboard.press("Enter")
        _card(page, 3).wait_for(timeout=QUICK)
        page.wait_for_timeout(500)
        assert page.locator(".ms-stage").get_attribute("data-pos") == "3"


def test_the_quiz_verdict_is_whole_on_a_projector(server: str) -> None:
    with _browser(width=1280, height=720) as page:
        page.emulate_media(reduced_motion="reduce")
        _open(page, server, CLASSIC + "&quiz=true&presenter=true")
        for step in (1, 2, 3, 4):  # merge 4 ties o + w (chosen) with l + o: the longest verdict
            if step > 1:
                page.get_by_role("button", name="Next ▶").click()  # the next question
            page.get_by_text(f"Your guess for merge {step}:").wait_for()
            (_choice(page, "l + o") if step == 4 else _guess(page).locator(".ms-choice").first).click()
            page.get_by_role("button", name="Next ▶").click()
            _card(page, step).wait_for()
        wait_idle(page)
        page.wait_for_function("() => document.getAnimations().length === 0")
        verdict = page.locator(".ms-stage .ms-status .ms-verdict")
        assert verdict.inner_text().endswith("the greatest byte strings win.")
        cut = verdict.evaluate(
            "e => [e.scrollWidth - e.clientWidth, e.scrollHeight - e.clientHeight, "
            "e.getBoundingClientRect().bottom - innerHeight]"
        )
        assert all(px <= 1 for px in cut), f"the verdict is cut: {cut} px (width, height, below the screen)"
        assert outside_viewport(page.evaluate(STAGE_BOXES)) == []


def test_on_a_phone_next_and_back_stay_in_reach_of_the_sequence(server: str) -> None:
    """Issue #22 (11): at 390x844 the stage is one column (card, chart, sequences); scrolled down to the
    text after the merge, Next and Back are still on the screen beside it (the controls stick)."""
    with _browser(width=390, height=844) as page:
        _open(page, server, "corpus=lighthouse_story")
        page.get_by_role("button", name="Next ▶").click()
        _card(page, 1).wait_for(timeout=QUICK)
        wait_idle(page)
        after = page.locator(".ms-stage .ms-after")
        after.evaluate("e => e.scrollIntoView({block: 'end'})")
        header = page.evaluate(
            "() => document.querySelector('[data-testid=\"stHeader\"]').getBoundingClientRect().bottom"
        )
        for name in ("Next ▶", "◀ Back"):
            box = page.get_by_role("button", name=name).bounding_box()
            assert box["y"] >= header - 1 and box["y"] + box["height"] <= 844, (name, box, header)
        a = after.bounding_box()
        assert a["y"] + a["height"] <= 844 + 1, a
        page.get_by_role("button", name="Next ▶").click()  # and it steps from there
        _card(page, 2).wait_for(timeout=QUICK)


# The stage shows step 40 as if the report of it had reached a server's run that was stopped on the
# way: the server still holds step 0, and the stage will not say 40 again by itself (it said it).
LOST_REPORT = """() => {
  const s = document.querySelector('.ms-stage').__ms;
  s.pos = 40;
  s.reported = JSON.stringify({position: 40, start: 0, serial: s.serial, tab: s.tab});
}"""


def test_a_window_without_the_step_shown_makes_the_stage_ask_again(server: str) -> None:
    """Issue #22's stall: a window that comes without the step the stage waits for (the run that had it
    was stopped) is answered by asking again, so the stage never waits for ever."""
    with _browser() as page:
        _open(page, server, "corpus=lighthouse_story")
        wait_idle(page)
        page.evaluate(LOST_REPORT)
        page.get_by_text("Animate each merge").click()  # any rerun: its window is made for step 0
        _card(page, 40).wait_for(timeout=QUICK)
        assert page.locator(".ms-stage").get_attribute("data-pos") == "40"


def test_cancel_stops_a_long_jump_at_once(server: str, tmp_path) -> None:
    """Cancel beside a long jump's progress bar acts while the jump trains (it runs in a run of the whole
    page, which a click stops; inside the stage's fragment the click waited for the jump to end)."""
    text = tmp_path / "long.txt"
    text.write_text(generated_text(600_000, seed=3), encoding="utf-8")  # a jump of some seconds here
    with _browser() as page:
        open_app(page, f"{server}/train?corpus=__upload__&pattern=none&merges=20000", heading=HEADING)
        page.locator('[data-testid="stSidebar"] input[type="file"]').first.set_input_files(str(text))
        page.locator(".ms-stage .ms-card").wait_for(timeout=120_000)
        wait_idle(page, timeout=120_000)
        jump = page.locator(".ms-stage .ms-jump-in")
        jump.fill("20000")
        jump.press("Enter")
        cancel = page.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Cancel", exact=True)
        cancel.wait_for(timeout=QUICK)
        page.get_by_text(re.compile(r"Training… [\d,]+ of")).wait_for(timeout=QUICK)  # the jump is under way
        cancel.click()
        page.get_by_text("Training was stopped: showing the step you were on.").wait_for(timeout=QUICK)
        assert page.locator(".ms-stage").get_attribute("data-pos") == "0"
