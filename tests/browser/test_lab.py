"""The Vocab-size lab in a real browser (Debian chromium through playwright).

While a new run computes, the previous results are gone (the progress bar holds their place), never
shown as if current; a link carries the lab's settings, also as the first request of a fresh server
(which used to open on Streamlit's "Page not found" dialog).  Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from mergescope_ui.shared.inputs.corpora import load_index
from tests.browser.support import chromium_page, full_screenshot, streamlit_server, wait_idle

STATE = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const running = document.querySelector('[data-testid="stApp"]').dataset.testScriptState === 'running';
  return {running,
          bar: main.querySelectorAll('[data-testid="stProgress"]').length,
          charts: main.querySelectorAll('[data-testid="stVegaLiteChart"]').length,
          figures: [...main.querySelectorAll('[data-testid="stMetricLabel"]')].map(e => e.innerText)};
}"""


def cid(word: str) -> str:
    return next(c.id for c in load_index() if word in c.id)


def words_text(size: int, *, seed: int = 7) -> str:
    """``size`` characters of made-up words (varied enough that training takes a few seconds)."""
    rng = random.Random(seed)
    syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "ven", "dor", "ql", "ix", "ump", "sto"]
    out, n = [], 0
    while n < size:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(1, 4)))
        out.append(word)
        n += len(word) + 1
        if rng.random() < 0.08:
            out.append("\n\n")
    return " ".join(out)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


def test_a_share_link_opens_the_lab_with_its_settings_on_a_fresh_server(server):
    zh, story = cid("machine"), cid("lighthouse")
    with chromium_page(width=1400, height=900) as page:
        page.goto(f"{server}/vocab-lab?corpus={story},{zh}&vocab=2000&pattern=whitespace&heldout=end:30")
        page.get_by_role("heading", name="Vocab-size lab").first.wait_for(timeout=60_000)
        wait_idle(page, timeout=120_000)
        page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=60_000)
        assert page.get_by_text("Page not found").count() == 0  # the first request of this server
        sidebar = page.locator('[data-testid="stSidebar"]')
        assert sidebar.get_by_role("spinbutton", name="Largest vocab size").input_value() == "2000"
        assert sidebar.get_by_role("combobox", name="Pre-tokenization").input_value().startswith("whitespace")
        assert sidebar.get_by_role("radio", name="the end of the text").is_checked()
        share = page.get_by_role("slider", name="Held-out share (%)")
        assert "30" in (share.get_attribute("aria-valuetext") or share.input_value() or "")
        assert "vocab=2000" in page.url and "heldout=end%3A30" in page.url.replace(":", "%3A")
        full_screenshot(page, "lab_share_link")


def test_while_a_new_run_computes_the_old_results_are_not_shown(server, tmp_path: Path):
    with chromium_page(width=1400, height=900) as page:
        page.goto(f"{server}/vocab-lab")
        page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=120_000)
        wait_idle(page, timeout=120_000)
        before = page.evaluate(STATE)
        assert before["charts"] >= 2 and "Train bytes/token" in before["figures"]
        upload = tmp_path / "made_up_words.txt"
        upload.write_text(words_text(400_000), encoding="utf-8")
        page.locator('[data-testid="stSidebar"] input[type="file"]').first.set_input_files(str(upload))
        samples, shot = [], False
        for _ in range(1200):  # up to ~60 s
            state = page.evaluate(STATE)
            samples.append(state)
            if state["bar"] and not shot:
                full_screenshot(page, "lab_computing")
                shot = True
            if samples[-1]["charts"] and not state["running"] and any(s["bar"] for s in samples):
                break
            page.wait_for_timeout(50)
        computing = [s for s in samples if s["bar"]]
        assert computing, "the new run never showed its progress bar"
        for s in computing:  # while the bar shows, nothing of the old run does
            assert s["charts"] == 0 and "Train bytes/token" not in s["figures"], s
        wait_idle(page, timeout=120_000)
        page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=60_000)
        assert "made_up_words.txt" in page.locator('[data-testid="stMain"]').inner_text()
        full_screenshot(page, "lab_after_new_run")
