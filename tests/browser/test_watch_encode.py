"""Watch it encode in a real browser (Debian chromium through playwright), on a projector: 1280x720 in
presenter mode, the stage steps the trace with Next, the keys, Back and Play, each card names the merge
rank the engine says fired, the last step shows the tokenizer's ids, and at every step the stage fits
the screen with nothing sticking out.  Screenshots go to ``artifacts/`` (git-ignored).  Skips, saying
why, without chromium or playwright."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote_plus

import pytest

from bpe_core import train
from bpe_core.tokenizer.encode_trace import trace_encode
from mergescope_ui.shared.inputs.corpora import find_corpus, load_index, load_text
from mergescope_ui.tokenize.tab_views import WATCH_TAB
from mergescope_ui.tokenize.watch_encode import TITLES, chunk_name
from tests.browser.layout import STICKING_OUT
from tests.browser.support import ARTIFACTS, chromium_page, missing_browser, streamlit_server, wait_idle
from tests.ui.tokenize.fake_caches import no_caches

REASON = missing_browser()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"browser tests need chromium: {REASON}"),
    pytest.mark.browser,
]
TEXT = "The keeper's lamp: 1234 ships!\n  自然 🎉 <b>lit</b>"
VOCAB = 500

# The stage's box, the viewport, and whether its parts lie wholly inside the viewport.
STAGE_FITS = """() => {
  const stage = document.querySelector('.ms-stage');
  const r = stage.getBoundingClientRect();
  const parts = ['.ms-stepline', '.ms-next', '.ms-back', '.ms-play', '.ms-cardcol', '.ms-pairscol',
    '.ms-after'];
  const out = parts.map((sel) => {
    const b = stage.querySelector(sel).getBoundingClientRect();
    return [sel, b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth];
  }).filter(([, inside]) => !inside).map(([sel]) => sel);
  return {top: r.top, bottom: r.bottom, right: r.right, height: innerHeight, width: innerWidth, outside: out};
}"""


@contextmanager
def _watching(url: str) -> Iterator[tuple[Any, list[str]]]:
    """A projector-sized page on the Tokenize page's "Watch it encode" tab at ``url``, and its JS errors."""
    with chromium_page(width=1280, height=720) as pg:
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.emulate_media(reduced_motion="reduce")
        pg.goto(url)
        pg.get_by_text("Tokenize: paste text").first.wait_for(timeout=60_000)
        wait_idle(pg, timeout=60_000)
        pg.get_by_role("tab", name=WATCH_TAB).click()
        pg.locator(".ms-stage .ms-card").first.wait_for(timeout=60_000)
        wait_idle(pg)
        yield pg, errors


def _corpus_id(word: str) -> str:
    return next(c.id for c in load_index() if word in c.id)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(env=no_caches(tmp_path_factory.mktemp("no-caches"))) as url:
        yield url


def _shot(pg, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _card(pg) -> str:
    return pg.locator(".ms-stage .ms-card:not(.ms-wait) h4").first.inner_text()


def _fits(pg, where: str) -> None:
    """The stage at the top of the screen, then: wholly on it, and nothing in it sticking out."""
    pg.evaluate("() => document.querySelector('.ms-stage').scrollIntoView({block: 'start'})")
    pg.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    box = pg.evaluate(STAGE_FITS)
    assert box["outside"] == [] and box["bottom"] <= box["height"], (where, box)
    assert pg.evaluate(STICKING_OUT, ".ms-stage") == [], where


def test_the_trace_steps_on_a_projector_and_fits_the_screen(server: str) -> None:
    corpus = _corpus_id("lighthouse")
    tok = train(load_text(find_corpus(corpus)), vocab_size=VOCAB, pattern="gpt2")
    trace = trace_encode(tok, TEXT)
    assert len(trace.steps) > 5
    url = f"{server}/tokenize?presenter=true&tok=quick:{corpus}:{VOCAB}:gpt2&t={quote_plus(TEXT)}"
    with _watching(url) as (pg, errors):
        # Step 0: the chunks, each with the name of the pattern part that cut it.
        stepline = pg.locator(".ms-stage .ms-stepline")
        assert stepline.inner_text() == f"Step 0: the text cut into {len(trace.chunks)} chunks"
        parts = pg.locator(".ms-stage .ms-enc-part").all_inner_texts()
        assert parts == [chunk_name(c) for c in trace.chunks]  # the part names, "emoji" for a chunk of emoji
        assert pg.locator(".ms-stage b").count() == 0, "the text's <b> stays text"
        assert pg.locator(".ms-stage .ms-next").get_attribute("title") == TITLES.next  # not training's
        _fits(pg, "step 0")
        _shot(pg, "watch_encode_1280x720_presenter_step0")
        # Next, then the → key, through every step: each card names the rank the engine fired.
        for step in trace.steps:
            if step.step % 2:
                pg.locator(".ms-stage .ms-next").click()
            else:
                pg.locator("body").press("ArrowRight")
            pg.wait_for_function(
                "(h) => { const c = document.querySelector('.ms-stage .ms-card:not(.ms-wait) h4');"
                " return c && c.textContent === h; }",
                arg=f"Merge rank {step.rank:,}",
                timeout=30_000,
            )
            assert (
                stepline.inner_text() == f"Step {step.step} of {len(trace.steps)}: merge rank {step.rank:,}"
            )
            assert pg.locator(".ms-stage .ms-after .ms-new").count() >= 1, "the new token is marked"
            if step.step in (1, len(trace.steps) // 2) or step.step == len(trace.steps):
                _fits(pg, f"step {step.step}")
                _shot(pg, f"watch_encode_1280x720_presenter_step{step.step}")
        assert pg.locator(".ms-stage .ms-next").is_disabled(), "the last step: nothing after it"
        assert "the tokenizer's own ids" in pg.locator(".ms-stage .ms-status").inner_text()
        # The text from its start at the last step: the tokenizer's ids, one span each.
        pg.get_by_role("tab", name="From the start").click()
        titles = pg.locator(".ms-stage .ms-after .ms-t").evaluate_all("els => els.map(e => e.title)")
        assert [int(re.match(r"id (\d+)", t).group(1)) for t in titles] == tok.encode(TEXT)
        # Back with the ← key, Reset, then Play runs on its own until Pause.
        pg.locator("body").press("ArrowLeft")
        assert _card(pg) == f"Merge rank {trace.steps[-2].rank:,}"
        pg.locator(".ms-stage .ms-reset").click()
        pg.get_by_text("Step 0: the text cut into").wait_for(timeout=30_000)  # sent once the server hears
        pg.locator(".ms-stage .ms-play").click()
        pg.wait_for_function(
            "() => Number(document.querySelector('.ms-stage').dataset.pos) >= 2", timeout=30_000
        )
        pg.locator(".ms-stage .ms-play").click()
        assert pg.locator(".ms-stage .ms-play").inner_text() == "▶ Play"
        wait_idle(pg)
        assert not errors, errors


def test_a_longer_text_jumps_and_pages_its_places_on_a_projector(server: str) -> None:
    """Text of the lighthouse story itself: early merges fire at many places (the stage pages them), a
    jump past the window asks the server, and the stage fits the screen at each step visited."""
    corpus = _corpus_id("lighthouse")
    story = load_text(find_corpus(corpus))
    text = story[: story.index(" ", 900)]
    tok = train(story, vocab_size=VOCAB, pattern="gpt2")
    trace = trace_encode(tok, text)
    url = f"{server}/tokenize?presenter=true&tok=quick:{corpus}:{VOCAB}:gpt2&t={quote_plus(text)}"
    with _watching(url) as (pg, errors):
        _fits(pg, "step 0")
        for k in (1, len(trace.steps) // 3, len(trace.steps)):
            step = trace.steps[k - 1]
            box = pg.locator(".ms-stage .ms-jump-in")
            box.fill(str(k))
            box.press("Enter")
            pg.wait_for_function(
                "(h) => { const c = document.querySelector('.ms-stage .ms-card:not(.ms-wait) h4');"
                " return c && c.textContent === h; }",
                arg=f"Merge rank {step.rank:,}",
                timeout=30_000,
            )
            wait_idle(pg)
            pager = pg.locator(".ms-stage .ms-pager-t").inner_text()
            assert pager.endswith(f"of {len(step.places):,}"), (k, pager)
            _fits(pg, f"step {k}")
            _shot(pg, f"watch_encode_story_1280x720_presenter_step{k}")
            if len(step.places) > 2:  # the next places come from the server; the stage still fits
                pg.locator(".ms-stage .ms-next-place").click()
                pg.wait_for_function(
                    "() => document.querySelector('.ms-stage .ms-pager-t').textContent.startsWith('places 3')"
                )
                wait_idle(pg)
                assert pg.locator(".ms-stage .ms-after .ms-num").first.inner_text().startswith("3")
                _fits(pg, f"step {k}, places 3 on")
        assert not errors, errors
