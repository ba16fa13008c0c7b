"""What stepping costs the server (issue #22, item 12), seen from outside in a real browser.

The stage steps in the browser; it tells the server what it shows through its state value, each
report a message on the page's websocket that makes the server run (part of) the page.  A burst of
quick Next presses must send only the few reports the stage needs (a window near the edge of the one
it holds) and one when stepping pauses; the sections below the stage and the URL then follow the
last step.  Counted here from the frames the browser sends, and from the section below as the page
shows it.  Skipped with the reason when chromium or playwright is missing.
"""

from __future__ import annotations

import json
import time

from tests.browser.support import streamlit_server, wait_idle
from tests.browser.test_train import HEADING, _browser, _card, _open

PRESSES = 12
SETTLE_MAX_S = 1.5  # stage.js SETTLE_MAX_MS: while stepping goes on, the page follows this often
# Next pressed `n` times in the page itself, 100 ms apart (a teacher's quick presses, or a held key).
BURST = """async (n) => {
  const next = document.querySelector('.ms-stage .ms-next');
  for (let i = 0; i < n; i++) {
    next.click();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}"""
# Every text the section below the stage shows as its "Merges so far (k)" heading, in order.
WATCH_BELOW = """() => {
  window.__below = [];
  const read = () => {
    const found = [...document.querySelectorAll('h3.ms-h3')]
      .find((e) => /^Merges so far \\(/.test(e.textContent.trim()));
    const text = found ? found.textContent.trim() : '';
    if (text && window.__below[window.__below.length - 1] !== text) window.__below.push(text);
  };
  read();
  new MutationObserver(read).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _reports(frames: list[bytes | str]) -> list[dict]:
    """The stage's reports among the frames the browser sent (each asks the server for a run)."""
    out = []
    for frame in frames:
        raw = frame if isinstance(frame, bytes) else frame.encode()
        at = raw.find(b'{"shown":')
        if at >= 0:
            out.append(json.JSONDecoder().raw_decode(raw[at:].decode("utf-8", "replace"))[0]["shown"])
    return out


def test_a_burst_of_next_presses_sends_a_few_reports_and_the_page_follows_the_last_step() -> None:
    with streamlit_server() as server, _browser() as page:
        sent: list[bytes | str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(frame)))
        _open(page, server, "corpus=lighthouse_story")
        page.get_by_text("Merges so far").first.wait_for(state="detached")  # step 0: no merge yet
        wait_idle(page)
        page.wait_for_timeout(1000)
        page.evaluate(WATCH_BELOW)
        before = len(sent)
        t0 = time.monotonic()
        page.evaluate(BURST, PRESSES)
        seconds = time.monotonic() - t0
        _card(page, PRESSES).wait_for()
        page.get_by_text(f"Merges so far ({PRESSES})").first.wait_for(timeout=30_000)
        wait_idle(page)
        page.wait_for_timeout(1000)  # anything still to come would come now
        reports = _reports(sent[before:])
        # Before: one report (one run of the stage and every section below it) per press.  Now: a window
        # as the stage nears the edge of the one it holds (twice in twelve steps, once more at most if
        # it comes late), and the page below at most every SETTLE_MAX_S while the presses go on (they
        # take longer on a busy machine), then once.
        windows = [r for r in reports if r.get("window", True)]
        assert len(windows) <= 3, (seconds, reports)
        settled = [r for r in reports if r.get("settled", True)]
        assert len(settled) <= 1 + int(seconds / SETTLE_MAX_S), (seconds, reports)
        assert reports[-1]["position"] == PRESSES and reports[-1].get("settled"), reports
        below = page.evaluate("window.__below")
        assert below[-1] == f"Merges so far ({PRESSES})"
        assert len(below) <= 1 + int(seconds / SETTLE_MAX_S) + 1, (seconds, below)  # not each step
        assert f"step={PRESSES}" in page.url, "the URL follows the step shown once stepping pauses"
        page.reload()
        page.get_by_role("heading", name=HEADING).first.wait_for()
        _card(page, PRESSES).wait_for(timeout=30_000)  # a reload opens on it


def test_one_next_press_is_followed_below_and_in_the_url_once_it_settles() -> None:
    with streamlit_server() as server, _browser() as page:
        sent: list[bytes | str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(frame)))
        _open(page, server, "corpus=lighthouse_story&step=3")
        page.get_by_text("Merges so far (3)").first.wait_for()
        wait_idle(page)
        page.wait_for_timeout(1000)
        before = len(sent)
        page.get_by_role("button", name="Next ▶").click()
        _card(page, 4).wait_for()
        page.get_by_text("Merges so far (4)").first.wait_for(timeout=30_000)
        wait_idle(page)
        page.wait_for_timeout(1000)
        assert "step=4" in page.url
        reports = _reports(sent[before:])
        # Step 4 of a window around step 3 needs no window: one report, once stepping paused, for the
        # page below (the stage's part does not rerun: it has what it needs).
        why = [(r["position"], r.get("window"), r.get("settled")) for r in reports]
        assert why == [(4, False, True)], reports
