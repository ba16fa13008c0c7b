"""The Train page in a real browser (Debian chromium via playwright).

Starts ``streamlit run app.py`` from the repo root on a free port; skipped with
the reason when chromium or playwright is missing.  Screenshots go to
``artifacts/`` (git-ignored).  The stage (a components v2 component) steps in
the browser, so most checks here are of what only a browser shows: layout,
keys, the animation, the places of a merge in a large upload.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.browser.layout import HIDDEN_PLUS, SPLIT_WORDS, STAGE_BOXES, STICKING_OUT, outside_viewport
from tests.browser.support import (
    ROOT,
    chromium_page,
    full_screenshot,
    open_app,
    streamlit_server,
    wait_idle,
)

HEADING = "Train: watch BPE learn"
CLASSIC = "corpus=low_lower_newest_widest&pattern=none"  # the classroom string, merges across words
# Streamlit first probes /<page>/_stcore/... before the root; those two 404s are expected.
EXPECTED_404 = re.compile(r"/(train|home)/_stcore/(health|host-config)$")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


@contextmanager
def _browser(*, width: int = 1600, height: int = 1000) -> Iterator[object]:
    """A page that collects JavaScript errors, failed requests and console errors, and fails on any."""
    with chromium_page(width=width, height=height) as page:
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
        yield page
        assert not problems, problems


@pytest.fixture()
def page():
    with _browser() as pg:
        yield pg


def _open(page, server: str, query: str) -> None:
    open_app(page, f"{server}/train?{query}", heading=HEADING)
    page.locator(".ms-stage .ms-card").wait_for()


def _guess(page):
    """The quiz's choices: the stage's group of toggle buttons in the chart's place."""
    return page.locator(".ms-stage .ms-guess")


def _choice(page, label: str):
    """The quiz's choice of ``label`` (a label without quotes: the tests' own)."""
    return _guess(page).locator(f'.ms-choice[data-label="{label}"]')


def _card(page, step: int):
    """The merge card of ``step`` once it is drawn (not the stand-in shown while the server trains)."""
    return page.locator(".ms-stage .ms-card:not(.ms-wait) h4").filter(has_text=re.compile(rf"^Merge {step}$"))


def _next(page, step: int) -> None:
    page.get_by_role("button", name="Next ▶").click()
    _card(page, step).wait_for()


def _jump(page, step: int, *, shows: int | None = None) -> None:
    box = page.locator(".ms-stage .ms-jump-in")
    box.fill(str(step))
    box.press("Enter")
    _card(page, step if shows is None else shows).wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)


def _stepline(page) -> str:
    return page.locator(".ms-stage .ms-stepline").inner_text()


# A box's text as seen: without the visually hidden names (.ms-sr: "space") a screen reader says instead.
SHOWN_TEXT = """(box) => {
  const copy = box.cloneNode(true);
  for (const hidden of copy.querySelectorAll('.ms-sr')) hidden.remove();
  return copy.textContent;
}"""


def test_step_through_the_classroom_string(server: str, page) -> None:
    _open(page, server, CLASSIC)
    assert _stepline(page) == "Step 0: the text as raw bytes"
    raw = page.locator(".ms-stage .ms-after .ms-t")
    text = (ROOT / "corpora" / "low_lower_newest_widest.txt").read_bytes()
    assert raw.count() == len(text), "the text as raw bytes: one token each"
    for step in (1, 2, 3):
        _next(page, step)
    page.get_by_role("button", name="◀ Back").click()
    _card(page, 2).wait_for()
    assert "New token id 257" in page.locator(".ms-stage .ms-card").inner_text()
    assert _stepline(page) == "Step 2 of up to 100 merges"
    after = page.locator(".ms-stage .ms-after")
    titles = after.locator(".ms-t").evaluate_all("spans => spans.map(s => s.title)")
    assert titles and all(re.match(r"id \d+ · \d+ bytes?: ", t) for t in titles)
    assert after.locator(".ms-new").count() >= 1
    fused = page.locator(".ms-stage .ms-before .ms-fuse")
    assert fused.count() >= 1 and fused.first.locator(".ms-t").count() == 2  # the pair about to fuse, boxed
    assert "places 1–3 of" in page.locator(".ms-stage .ms-pager-t").inner_text()
    page.get_by_role("tab", name="From the start").click()  # the text from its start stays in reach
    shown = after.evaluate(SHOWN_TEXT)  # the glyphs in sight, not the words said to screen readers
    start = shown.replace("\N{OPEN BOX}", " ").replace("\n", "")
    assert start.startswith(text.decode()[:30]) and after.locator(".ms-new").count() >= 1
    page.get_by_role("tab", name="Where it merged").click()
    wait_idle(page)
    page.mouse.move(0, 0)
    full_screenshot(page, "train_classroom_step2")


def test_arrow_keys_step_and_jump_to_step_follows(server: str, page) -> None:
    _open(page, server, "corpus=aaabdaaabac")
    page.locator("h1").first.click()
    page.keyboard.press("ArrowRight")
    _card(page, 1).wait_for()
    page.keyboard.press("ArrowRight")
    _card(page, 2).wait_for()
    assert page.locator(".ms-stage .ms-jump-in").input_value() == "2"
    page.keyboard.press("ArrowLeft")
    _card(page, 1).wait_for()
    assert page.locator(".ms-stage .ms-jump-in").input_value() == "1"
    assert "aa" in page.locator(".ms-stage .ms-card").inner_text()


def test_jump_past_the_end_says_where_training_stopped(server: str, page) -> None:
    _open(page, server, "corpus=aaabdaaabac&pattern=none")
    _jump(page, 50, shows=7)
    status = page.locator(".ms-stage .ms-status").inner_text()
    assert status.startswith("Training stopped at step 7: no pair of adjacent tokens is left to merge")
    assert page.locator(".ms-stage .ms-jump-in").input_value() == "7"
    assert page.get_by_role("button", name="Next ▶").is_disabled()
    page.keyboard.press("ArrowLeft")  # the box gave the keys back
    _card(page, 6).wait_for()


def test_pasted_markup_stays_text(server: str, page) -> None:
    open_app(page, f"{server}/train?corpus=__paste__&pattern=none", heading=HEADING)
    box = page.locator('[data-testid="stSidebar"] textarea').first
    box.fill('<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> & "q"')
    box.press("Control+Enter")
    page.get_by_text("Step 0: the text as raw bytes").wait_for()
    wait_idle(page)
    _next(page, 1)
    stage = page.locator(".ms-stage")
    assert stage.locator("img, script").count() == 0
    assert "<img" in stage.locator(".ms-after").inner_text().replace("\N{OPEN BOX}", " ")
    assert page.evaluate("() => window.__pwned === undefined")


# Next, then at once (the stage draws in the click): is the merge moving, and how.
NEXT_AND_MOTION = """() => {
  document.querySelector('.ms-stage .ms-next').click();
  const fresh = document.querySelector('.ms-stage .ms-card .ms-fn');
  return [document.querySelector('.ms-stage').classList.contains('ms-animate'),
          fresh ? getComputedStyle(fresh).animationName : null];
}"""


def test_the_merge_moves_unless_motion_is_unwanted(server: str, page) -> None:
    _open(page, server, CLASSIC)
    assert page.evaluate(NEXT_AND_MOTION) == [True, "ms-land"]  # the new token lands, the halves slide in
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(NEXT_AND_MOTION) == [False, "none"]
    page.emulate_media(reduced_motion="no-preference")
    page.locator("[data-testid=stSidebar]").get_by_text("Animate each merge").click()  # off
    page.get_by_text("Merges so far (2)").wait_for()
    wait_idle(page)
    page.locator(".ms-stage .ms-next").wait_for()  # a loaded machine may still be drawing the stage anew
    assert page.evaluate(NEXT_AND_MOTION) == [False, "none"]
    _card(page, 3).wait_for()


def test_play_steps_on_its_own_then_pause_stops(server: str, page) -> None:
    _open(page, server, "corpus=lighthouse_story")
    page.get_by_role("button", name="Play").click()
    _card(page, 3).wait_for(timeout=20_000)  # about 1 s per step
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Play").wait_for()
    shown = page.locator(".ms-stage .ms-card h4").inner_text()
    page.wait_for_timeout(1600)  # Play's speed is 1 s a step
    assert page.locator(".ms-stage .ms-card h4").inner_text() == shown, "paused: no more steps"


def test_places_page_on_and_come_from_the_server_past_the_first_ones(server: str, page) -> None:
    _open(page, server, "corpus=lighthouse_story&pattern=none")
    _next(page, 1)
    pager = page.locator(".ms-stage .ms-pager-t")
    total = int(pager.inner_text().rsplit(" of ", 1)[1].replace(",", ""))
    assert total > 12
    for first in (4, 7, 10):  # the stage has 6 at first; the rest it asks for
        page.get_by_role("button", name="Next places").click()
        page.get_by_text(f"places {first}–{first + 2} of {total:,}").wait_for()
    # The pager moves at once; places 10-12 come from the server a moment later ("Loading these places…").
    page.locator(".ms-stage .ms-after .ms-num").first.wait_for()
    numbers = page.locator(".ms-stage .ms-after .ms-num").all_inner_texts()
    assert numbers and numbers[0].startswith("10")
    assert page.locator(".ms-stage .ms-after .ms-new").count() >= 1


def test_quiz_round_in_the_browser(server: str, page) -> None:
    _open(page, server, "corpus=aaabdaaabac&pattern=none&quiz=true")
    page.get_by_text("Your guess for merge 1").wait_for()
    _choice(page, "a + a").click()
    _next(page, 1)
    page.get_by_text("Right!").wait_for()
    assert page.get_by_text("Quiz score: 1 of 1 right").is_visible()
    page.mouse.move(0, 0)
    full_screenshot(page, "train_quiz_step1")


def test_quiz_on_a_projector_keeps_the_stage_on_screen_and_a_tie_is_not_wrong(server: str) -> None:
    with _browser(width=1280, height=720) as page:
        page.emulate_media(reduced_motion="reduce")
        _open(page, server, CLASSIC + "&quiz=true&presenter=true")
        for step in (1, 2, 3, 4):  # merge 4 ties o + w (chosen) with l + o: guess l + o
            if step > 1:
                page.get_by_role("button", name="Next ▶").click()  # the verdict read: the next question
            page.get_by_text(f"Your guess for merge {step}:").wait_for()
            (_choice(page, "l + o") if step == 4 else _guess(page).locator(".ms-choice").first).click()
            _next(page, step)
        verdict = page.locator(".ms-stage .ms-status .ms-verdict").inner_text()
        assert verdict.startswith("⚖️ Tied: l + o also occurs 7 times, as often as o + w."), verdict
        assert "tied with the winner" in page.locator(".ms-stage .ms-status .ms-score").inner_text()
        _settled(page)
        boxes = page.evaluate(STAGE_BOXES)
        page.screenshot(path=str(_shot("train_quiz_1280x720_presenter_step4")))
        assert outside_viewport(boxes) == [], boxes
        # On to the end: the verdicts and choices name ever longer tokens (newest␣newest␣…), and
        # the stage stays on the screen under them.
        for step in range(5, 29):
            page.get_by_role("button", name="Next ▶").click()
            page.get_by_text(f"Your guess for merge {step}:").wait_for()
            _guess(page).locator(".ms-choice").last.click()
            _next(page, step)
            _settled(page)
            boxes = page.evaluate(STAGE_BOXES)
            assert outside_viewport(boxes) == [], (step, boxes)
        page.screenshot(path=str(_shot("train_quiz_1280x720_presenter_step28")))


def test_merges_csv_download_has_every_merge_so_far(server: str, page) -> None:
    _open(page, server, "corpus=low_lowest_newest&pattern=none")
    for step in (1, 2, 3):
        _next(page, step)
    wait_idle(page)
    page.get_by_text("Merges so far (3)").wait_for()
    with page.expect_download() as info:
        page.get_by_role("button", name="⬇ Merges as CSV").click()
    download = info.value
    assert download.suggested_filename == "merges_3.csv"
    rows = list(csv.reader(Path(download.path()).read_text(encoding="utf-8").splitlines()))
    assert len(rows) == 4 and rows[0][0] == "step"  # every text cell is quoted (issue 29's CSV cells)
    assert [row[0] for row in rows[1:]] == ["1", "2", "3"]


# ----- one screen, and nothing sticking out ---------------------------------------------------------


def _settled(page) -> None:
    """The script idle and the merge's animation over (boxes are measured, not moving)."""
    wait_idle(page)
    page.wait_for_function("() => document.getAnimations().length === 0")


def _one_screen(page, name: str) -> None:
    _settled(page)
    page.mouse.move(0, 0)
    boxes = page.evaluate(STAGE_BOXES)
    page.screenshot(path=str(_shot(name)))
    assert outside_viewport(boxes) == [], (name, boxes, page.locator(".ms-stage").inner_text()[:400])
    assert boxes["fused"] is not None and boxes["fresh"] is not None, "the merge marked before and after"
    assert page.evaluate(STICKING_OUT) == [], name
    assert page.evaluate(HIDDEN_PLUS) == [], name
    assert page.evaluate(SPLIT_WORDS) == [], name


def _shot(name: str) -> Path:
    (ROOT / "artifacts").mkdir(exist_ok=True)
    return ROOT / "artifacts" / f"{name}.png"


@pytest.mark.parametrize(
    ("width", "height", "presenter"), [(1280, 720, True), (1920, 1080, True), (1920, 1080, False)]
)
def test_the_step_fits_on_one_screen(server: str, width: int, height: int, presenter: bool) -> None:
    mode = "&presenter=true" if presenter else ""
    name = f"train_one_screen_{width}x{height}{'_presenter' if presenter else ''}"
    with _browser(width=width, height=height) as page:
        _open(page, server, CLASSIC + mode)  # the teacher's run: the classic string, Next four times
        for step in (1, 2, 3, 4):
            _next(page, step)
        _one_screen(page, f"{name}_classic_step4")
        _jump(page, 100, shows=28)  # it finishes at 28 with the whole text one token
        page.keyboard.press("ArrowLeft")  # the last merge has one place; step 27 has a long token too
        _card(page, 27).wait_for()
        _one_screen(page, f"{name}_classic_step27")
        _open(page, server, "corpus=machine_learning_zh" + mode)
        _jump(page, 100)
        _one_screen(page, f"{name}_zh_step100")
        sidebar = page.locator('[data-testid="stSidebar"]').is_visible()
        size = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
        if presenter:
            assert not sidebar and size >= 20, "presenter mode folds the sidebar and uses large type"
        else:
            assert sidebar, "the sidebar stays open, beside the stage"
        latest = page.locator("table.ms-table", has_text="tokens after").last  # the merges, newest first
        assert latest.locator("tbody tr").first.locator("td").first.inner_text().strip() == "100"


STEP_AND_CHECK = f"""() => {{
  const next = document.querySelector('.ms-stage .ms-next');
  next.click();
  const card = document.querySelector('.ms-stage .ms-card:not(.ms-wait) h4');
  return [card ? card.textContent : '', next.disabled, ({STICKING_OUT})('.ms-stage')];
}}"""


# Step k is drawn, or the stage says training stopped before it.
ARRIVED = """(k) => {
  const card = document.querySelector('.ms-stage .ms-card:not(.ms-wait) h4');
  return (card && card.textContent === 'Merge ' + k)
    || document.querySelector('.ms-stage .ms-status').textContent.startsWith('Training stopped');
}"""


def test_no_element_wider_than_its_column_at_any_step_of_the_classic_string(server: str) -> None:
    with _browser(width=1280, height=900) as page:
        page.emulate_media(reduced_motion="reduce")  # no boxes in mid-slide
        for presenter in (False, True):
            _open(page, server, CLASSIC + ("&presenter=true" if presenter else ""))
            for width in (1280, 1440, 1920):  # the layout follows the width: no reload needed
                page.set_viewport_size({"width": width, "height": 900})
                page.get_by_role("button", name="⏮ Reset").click()
                page.get_by_text("Step 0: the text as raw bytes").wait_for()
                step, where, last = 0, f"{width} px, presenter {'on' if presenter else 'off'}", False
                while not last:
                    step += 1
                    # One round trip a step: Next, then the stage is checked (it draws at once).
                    shown, last, stuck = page.evaluate(STEP_AND_CHECK)
                    if shown == f"Merge {step - 1}" and last:  # the end came to the stage just before
                        step -= 1
                    elif shown != f"Merge {step}":  # not sent yet: the server trains it, or finds the end
                        page.wait_for_function(ARRIVED, arg=step, timeout=60_000)
                        if "Training stopped" in page.locator(".ms-stage .ms-status").inner_text():
                            step, last = step - 1, True
                        stuck = page.evaluate(STICKING_OUT, ".ms-stage")
                    if step % 7 == 0:  # now and then the whole page, once the tables below are redrawn
                        wait_idle(page)
                        stuck = page.evaluate(STICKING_OUT)
                    assert stuck == [], f"step {step} at {where}"
                wait_idle(page)
                assert step == 28 and page.evaluate(STICKING_OUT) == [], f"the last step at {where}"
                assert page.evaluate(SPLIT_WORDS) == [], f"the last step at {where}"


def test_every_step_of_the_classic_string_fits_a_projector(server: str) -> None:
    """Presenter mode at 1280x720: the stage is on the screen at each of the 28 steps (step 15's card
    names a pair that overlaps itself and a tie, with tokens of 14 bytes each)."""
    with _browser(width=1280, height=720) as page:
        page.emulate_media(reduced_motion="reduce")
        _open(page, server, CLASSIC + "&presenter=true")
        for step in range(1, 29):
            _jump(page, step)
            _settled(page)
            assert outside_viewport(page.evaluate(STAGE_BOXES)) == [], step


@pytest.mark.parametrize(
    ("query", "width", "presenter"),
    [
        ("corpus=word_counter_py&pattern=none", 1280, True),  # code: long tokens full of newlines
        ("corpus=mixed_scripts&pattern=none", 1440, False),  # CJK, emoji, Arabic, combining marks
    ],
)
def test_other_texts_late_in_training_fit_too(server: str, query: str, width: int, presenter: bool) -> None:
    with _browser(width=width, height=720 if presenter else 900) as page:
        page.emulate_media(reduced_motion="reduce")
        _open(page, server, f"{query}&merges=400" + ("&presenter=true" if presenter else ""))
        _jump(page, 400)
        assert page.evaluate(STICKING_OUT) == [], query
        assert page.evaluate(SPLIT_WORDS) == [] and page.evaluate(HIDDEN_PLUS) == [], query
        if presenter:
            assert outside_viewport(page.evaluate(STAGE_BOXES)) == [], query


def test_a_large_upload_shows_the_new_token_in_context_at_a_late_step(server: str, tmp_path: Path) -> None:
    story = (ROOT / "corpora" / "lighthouse_story.txt").read_text(encoding="utf-8")
    mixed = (ROOT / "corpora" / "mixed_scripts.txt").read_text(encoding="utf-8")
    upload = tmp_path / "big.txt"
    upload.write_text("".join(f"Chapter {n}\n{story}" for n in range(400)) + mixed * 20, encoding="utf-8")
    assert upload.stat().st_size > 1_000_000
    with _browser(width=1280, height=720) as page:
        open_app(page, f"{server}/train?corpus=__upload__&presenter=true", heading=HEADING)
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(upload))
        page.get_by_text("Step 0: the text as raw bytes").wait_for(timeout=120_000)
        wait_idle(page, timeout=120_000)
        _jump(page, 100)
        for step in (100, 99):
            new = page.locator(".ms-stage .ms-card .ms-fn .ms-t").get_attribute("title")
            fresh = page.locator(".ms-stage .ms-after .ms-new")
            assert fresh.count() >= 1 and fresh.first.get_attribute("title") == new, step
            if step == 100:
                page.keyboard.press("ArrowLeft")
                _card(page, 99).wait_for()
        _one_screen(page, "train_upload_1mb_step99_1280x720_presenter")
