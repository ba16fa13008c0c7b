"""Fetching a tokenizer from the Tokenize page in a real browser, from a local server the test starts.

The app's caches are empty folders and its fetch hosts (``MERGESCOPE_OPENAI_URL``,
``MERGESCOPE_HF_URL``) point at :mod:`tests.file_server` on 127.0.0.1, which serves the project's own
trained files as the hub and OpenAI serve theirs (the hub file slowly, so the progress bar shows).
No test needs the network.  Screenshots (1280x720) go to ``artifacts/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from bpe_core import save_tokenizer
from tests.browser.support import ARTIFACTS, chromium_page, streamlit_server, wait_idle
from tests.file_server import FileServer, file_server, serve_encoding, serve_hub_tokenizer
from tests.ui.tokenize.fake_caches import no_caches
from tests.ui.tokenize.fake_caches import trained as story_tokenizer

SPANS = ".ms-click-host .ms-t"
TEXT = "Hello world, the lighthouse keeper said."
PADDING = 700_000  # spaces after the JSON: eleven 64 KB parts, paced, so the bar is seen moving


@pytest.fixture(scope="module")
def hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, FileServer, Path]]:
    """A local file server, and an app with empty caches that fetches from it."""
    saved = tmp_path_factory.mktemp("saved")
    save_tokenizer(story_tokenizer(), saved)
    caches = tmp_path_factory.mktemp("caches")
    with file_server() as files:
        tokenizer_json = (saved / "tokenizer.json").read_bytes() + b" " * PADDING
        serve_hub_tokenizer(files, "org/story", tokenizer_json, pace=0.25)
        serve_encoding(files, "o200k_base", ((saved / "tokenizer.tiktoken").read_bytes(),))  # not OpenAI's
        env = {**no_caches(caches), "MERGESCOPE_OPENAI_URL": files.url, "MERGESCOPE_HF_URL": files.url}
        with streamlit_server(env=env) as url:
            yield url, files, caches


@pytest.fixture()
def page():
    with chromium_page(width=1280, height=720) as pg:
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.errors = errors  # type: ignore[attr-defined]
        yield pg


def shot(pg, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def picked_label(pg) -> str:
    """What the picker's Tokenizer box shows (its label, and the choice held in its input)."""
    box = pg.locator('[data-testid="stSelectbox"]', has_text="Tokenizer").first
    return box.evaluate(
        "e => e.innerText + ' ' + [...e.querySelectorAll('input')].map(i => i.value).join(' ')"
    )


def _open(pg, url: str) -> None:
    pg.goto(url)
    pg.get_by_text("Tokenize: paste text").first.wait_for(timeout=60_000)
    wait_idle(pg, timeout=60_000)


def test_a_link_to_a_missing_hub_model_offers_the_fetch_and_shows_its_progress(hosts, page):
    url, _, caches = hosts
    _open(page, f"{url}/tokenize?tok=hf:org/story&t={quote(TEXT)}")
    page.get_by_text("org/story is not on this machine yet").wait_for(timeout=20_000)
    fetch = page.get_by_role("button", name="Fetch org/story")
    fetch.scroll_into_view_if_needed()
    shot(page, "fetch_offer_1280")
    fetch.click()
    bar = page.locator('[data-testid="stProgress"]')
    bar.wait_for(timeout=20_000)
    page.get_by_text("Fetching tokenizer.json:").wait_for(timeout=20_000)
    shot(page, "fetch_progress_1280")
    want = story_tokenizer().encode(TEXT)
    page.locator(SPANS).nth(len(want) - 1).wait_for(timeout=60_000)
    wait_idle(page)
    titles = [page.locator(SPANS).nth(i).get_attribute("title") for i in range(len(want))]
    assert [t.split(" ·")[0] for t in titles] == [f"id {i}" for i in want]
    assert page.get_by_text("org/story is not on this machine yet").count() == 0
    assert "org/story (Hugging Face cache)" in picked_label(page)  # the picker says where it is now
    assert any(caches.rglob("models--org--story/snapshots/*/tokenizer.json"))
    shot(page, "fetch_done_1280")
    assert not page.errors, page.errors


def test_a_fetch_that_fails_says_so_in_one_line_and_the_page_keeps_working(hosts, page):
    url = hosts[0]
    _open(page, f"{url}/tokenize?tok=tiktoken:o200k_base&t=hello")
    page.get_by_text("o200k_base is not on this machine yet").wait_for(timeout=20_000)
    page.get_by_role("button", name="Fetch o200k_base").click()
    error = page.locator('[data-testid="stAlertContentError"]', has_text="Could not fetch o200k_base")
    error.wait_for(timeout=30_000)
    wait_idle(page)
    assert "is not the published file" in error.inner_text()
    error.scroll_into_view_if_needed()
    shot(page, "fetch_failed_1280")
    page.get_by_role("button", name="Load its files instead").click()
    page.get_by_text("Tokenizer files").first.wait_for(timeout=20_000)
    assert not page.errors, page.errors


def test_names_from_a_link_are_shown_as_text(hosts, page):
    url = hosts[0]
    _open(page, f"{url}/tokenize?tok=hf:a/__strong__&t=hi")
    page.get_by_text("a/__strong__ is not on this machine yet").wait_for(timeout=20_000)
    # shown whole, with its underscores: no part of it turned into bold or italics
    assert (
        page.locator('[data-testid="stMain"] :is(strong, em)', has_text=re.compile(r"^strong$")).count() == 0
    )
    assert page.get_by_role("button", name="Fetch a/__strong__").count() == 1
    picked = picked_label(page)
    assert "a/__strong__ (Hugging Face), not on this machine yet" in picked, picked
    assert not page.errors, page.errors
