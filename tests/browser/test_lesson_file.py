"""The offline lesson file in a real browser, opened from ``file://`` with the network blocked (issue #44).

It steps with the keys and the buttons, plays, pages, keeps to its range, fits presenter mode at
1280x720, switches light and dark, and asks nothing of any server; without scripts it shows its first
step and the list of steps.  The last test downloads it from the Train page and finds the page's numbers
in it.  Skipped with the reason when chromium or playwright is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bpe_core import Trainer, TrainOptions
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.train.lesson_file import LessonRequest, lesson_html
from mergescope_ui.train.scheme_run import SchemeSettings
from tests.browser.support import (
    chromium_page,
    open_app,
    streamlit_server,
    wait_idle,
)

CLASSIC = "low low low low low lower lower newest newest newest newest newest newest widest widest widest"
OPTIONS = TrainOptions(vocab_size=256 + 20, pattern="none")
HF = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5


def _write(tmp: Path, request: LessonRequest) -> str:
    path = tmp / "lesson.html"
    path.write_text(lesson_html(request), encoding="utf-8")
    return path.as_uri()


@contextmanager
def _offline(
    *, width: int = 1280, height: int = 720, scripts: bool = True
) -> Iterator[tuple[object, list[str]]]:
    """A page with every request recorded (and any to a network aborted), and no script error."""
    with chromium_page(width=width, height=height, java_script_enabled=scripts, offline=True) as page:
        page.context.route(re.compile(r"^(https?|wss?|ftp):"), lambda route: route.abort())
        requests: list[str] = []
        errors: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        yield page, requests
        assert errors == [], errors


def _pos(page) -> int:
    return int(page.get_attribute(".ms-stage", "data-pos"))


def _at(page, k: int) -> None:
    """Wait for the stage to show step ``k`` (a selector: the page's policy lets no evaluated string run)."""
    page.locator(f'.ms-stage[data-pos="{k}"]').wait_for(timeout=5_000)


def test_it_steps_from_file_with_keys_and_buttons_and_fetches_nothing(tmp_path: Path) -> None:
    run = TrainingRun(Trainer(CLASSIC, OPTIONS), identity=RunIdentity.of(CLASSIC, OPTIONS))
    run.jump(12)
    url = _write(
        tmp_path, LessonRequest(text=CLASSIC, name="classic", scheme="bpe", settings=OPTIONS, last=12)
    )
    with _offline() as (page, requests):
        page.goto(url)
        page.locator(".ms-stage .ms-card").wait_for()
        assert _pos(page) == 0 and "Step 0" in page.text_content(".ms-stepline")
        for k in (1, 2, 3):
            page.keyboard.press("ArrowRight")
            _at(page, k)
        step = run.records[2]
        figures = page.text_content(".ms-figs")
        assert f"corpus tokens {step.tokens_after:,} ({step.replaced:,} fewer)" in figures
        assert f"New token id {step.new_id}" in page.text_content(".ms-card")
        page.get_by_role("button", name="Next ▶").click()
        _at(page, 4)
        page.get_by_role("button", name="◀ Back").click()
        _at(page, 3)
        page.keyboard.press("ArrowLeft")
        _at(page, 2)
        page.keyboard.press("PageDown")
        _at(page, 3)
        page.get_by_label("Jump to step").fill("11")
        page.get_by_label("Jump to step").press("Enter")
        _at(page, 11)
        page.keyboard.press("p")  # Play, to the end of the file
        _at(page, 12)
        page.keyboard.press("ArrowRight")  # past the end: the file ends here
        page.wait_for_timeout(300)
        assert _pos(page) == 12 and page.get_by_role("button", name="Next ▶").is_disabled()
        page.get_by_role("button", name="⏮ Reset").click()
        _at(page, 0)
    assert requests == [url], "the file is the one request"


def test_it_keeps_to_its_range(tmp_path: Path) -> None:
    url = _write(
        tmp_path, LessonRequest(text=CLASSIC, name="classic", scheme="bpe", settings=OPTIONS, first=5, last=8)
    )
    with _offline() as (page, _):
        page.goto(url)
        _at(page, 5)
        page.keyboard.press("ArrowLeft")
        page.get_by_text("This lesson file starts at merge 5").wait_for(timeout=5_000)
        _at(page, 5)
        page.get_by_label("Jump to step").fill("40")
        page.get_by_label("Jump to step").press("Enter")
        page.get_by_text("This lesson file ends at step 8").wait_for(timeout=5_000)
        _at(page, 8)


def test_presenter_mode_fits_and_the_theme_switches(tmp_path: Path) -> None:
    url = _write(tmp_path, LessonRequest(text=HF, name="hf", scheme="bpe", settings=OPTIONS, last=10))
    with _offline(width=1280, height=720) as (page, _):
        page.goto(url)
        page.locator(".ms-stage .ms-card").wait_for()
        page.get_by_role("button", name="Presenter mode").click()
        page.locator(".ms-stage.ms-large").wait_for(timeout=5_000)
        for _ in range(4):
            page.keyboard.press("ArrowRight")
        _at(page, 4)
        bottom = page.evaluate("document.querySelector('.ms-stage').getBoundingClientRect().bottom")
        assert bottom <= 720, f"the presenter stage ends inside the window ({bottom})"
        background = "getComputedStyle(document.body).backgroundColor"
        page.get_by_role("button", name="Theme: auto").click()  # light
        light = page.evaluate(background)
        page.get_by_role("button", name="Theme: light").click()  # dark
        dark = page.evaluate(background)
        assert light == "rgb(255, 255, 255)" and dark != light


def test_wordpiece_and_unigram_step(tmp_path: Path) -> None:
    for settings in (
        SchemeSettings(scheme="wordpiece", steps=6),
        SchemeSettings(scheme="unigram", vocab_size=12),
    ):
        url = _write(
            tmp_path, LessonRequest(text=HF, name="hf", scheme=settings.scheme, settings=settings, last=3)
        )
        with _offline(width=390, height=844) as (page, requests):
            page.goto(url)
            page.locator(".ms-stage .ms-card").wait_for()
            page.get_by_role("button", name="Next ▶").click()
            _at(page, 1)
            assert page.locator(".ms-stage .ms-card").count() == 1
        assert requests == [url]


def test_without_scripts_it_shows_the_first_step_and_the_list(tmp_path: Path) -> None:
    url = _write(
        tmp_path, LessonRequest(text=CLASSIC, name="classic", scheme="bpe", settings=OPTIONS, last=6)
    )
    with _offline(scripts=False) as (page, requests):
        page.goto(url)
        heading = page.locator(".ms-lesson-static b").first  # (playwright's text search skips <noscript>)
        assert heading.is_visible() and heading.text_content() == "Step 0: the text as raw bytes"
        assert page.locator(".ms-lesson-static .ms-tokens .ms-t").first.is_visible()
        assert page.locator(".ms-lesson-steps li").count() == 6
        assert page.locator(".ms-lesson-steps li").first.is_visible()
        assert not page.locator(".ms-lesson-stage").is_visible(), "no dead buttons without scripts"
    assert requests == [url]


def test_the_train_page_download_holds_the_pages_numbers(tmp_path: Path) -> None:
    with streamlit_server() as server, chromium_page(width=1280, height=900) as page:
        open_app(
            page,
            f"{server}/train?corpus=low_lower_newest_widest&pattern=none",
            heading="Train: watch BPE learn",
        )
        page.locator(".ms-stage .ms-card").wait_for()
        for k in (1, 2, 3):
            page.keyboard.press("ArrowRight")
            _at(page, k)
        wait_idle(page)
        shown = [page.text_content(sel) for sel in (".ms-stepline", ".ms-figs", ".ms-card")]
        with page.expect_download(timeout=60_000) as info:
            page.get_by_role("button", name="⬇️ Download this lesson").click()
        path = tmp_path / "from-the-page.html"
        info.value.save_as(path)
    with _offline() as (offline, requests):
        offline.goto(path.as_uri())
        offline.locator(".ms-stage .ms-card").wait_for()
        for k in (1, 2, 3):
            offline.keyboard.press("ArrowRight")
            _at(offline, k)
        assert [offline.text_content(sel) for sel in (".ms-stepline", ".ms-figs", ".ms-card")] == shown
    assert requests == [path.as_uri()]
