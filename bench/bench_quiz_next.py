"""The quiz's Next on the Train page, in a real browser: from the click on Next to the verdict painted
(issue 40, item 7).

    python bench/bench_quiz_next.py [--rounds 30] [--url http://127.0.0.1:PORT] [--corpus lighthouse_story]

Without ``--url`` it starts the app of this checkout on a free port (``--url`` measures a server already
running, e.g. an older checkout's, for the figure before).  Each round: a guess is chosen (the first
choice), the page is let go idle, then Next is clicked; the time runs from the click's event to the first
frame painted after the verdict's text changed.  Then the next question is brought up (a second Next in
the stage's own quiz; the old page asked it with the verdict).  Both pages are measured by what they
show: the stage's own guess buttons (``.ms-guess``) and its status line, or the older radio group above
the stage and its verdict line (``.ms-quiz``).  Target: a median of at most 50 ms.  Prints the figures
and the score the page shows after the rounds; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.support import chromium_page, open_app, streamlit_server, wait_idle  # noqa: E402

HEADING = "Train: watch BPE learn"
# The stage's own quiz (its guess buttons, its status line) or the older page (a radio group above the
# stage, the verdict in .ms-quiz).
NEW_CHOICE = ".ms-stage .ms-guess button"
OLD_CHOICE = '.st-key-quiz_guess [role="radiogroup"] label'
# Arms one watch: t0 at the next click on Next; done at the first frame after the verdict's text changed.
ARM = """(stageOwn) => {
  const find = () => stageOwn ? document.querySelector(".ms-stage .ms-status")
    : document.querySelector(".ms-quiz .ms-verdict") || document.querySelector(".ms-quiz");
  const next = document.querySelector(".ms-stage .ms-next");
  const before = find() ? find().textContent : "";
  window.__msBench = undefined;
  let t0 = null;
  const down = (e) => { t0 = e.timeStamp; next.removeEventListener("click", down, true); };
  next.addEventListener("click", down, true);
  const check = () => {
    const h = find();
    if (t0 === null || !h || h.textContent === before || !/[🎉⚖🤔]/u.test(h.textContent)) return;
    obs.disconnect();
    requestAnimationFrame(() => requestAnimationFrame((t) => { window.__msBench = t - t0; }));
  };
  const obs = new MutationObserver(check);
  obs.observe(document.body, { childList: true, subtree: true, characterData: true });
}"""


def stats(ms: list[float]) -> str:
    s = sorted(ms)
    p95 = s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]
    return f"median {statistics.median(s):7.1f} ms   p95 {p95:7.1f} ms   max {s[-1]:7.1f} ms   (n={len(s)})"


def measure(url: str, rounds: int, corpus: str) -> None:
    with chromium_page(width=1280, height=720) as page:
        open_app(page, f"{url}/train?corpus={corpus}&pattern=none&quiz=true&merges=200", heading=HEADING)
        page.locator(".ms-stage .ms-card").wait_for()
        stage_own = page.locator(NEW_CHOICE).count() > 0
        choice = NEW_CHOICE if stage_own else OLD_CHOICE
        print(
            f"page: {'the stage asks (in the browser)' if stage_own else 'a radio above the stage (server)'}"
        )
        times: list[float] = []
        for n in range(rounds):
            page.locator(choice).first.wait_for(timeout=30_000)
            page.locator(choice).first.click()
            wait_idle(page)
            page.evaluate(ARM, stage_own)
            page.locator(".ms-stage .ms-next").click()
            page.wait_for_function("window.__msBench !== undefined", timeout=30_000)
            times.append(page.evaluate("window.__msBench"))
            if stage_own:
                page.locator(".ms-stage .ms-next").click()  # the next question
            else:
                wait_idle(page)
            if n == 0:
                time.sleep(0.2)
        time.sleep(1.0)
        wait_idle(page)
        score = page.locator(".ms-stage .ms-score" if stage_own else ".ms-quiz .ms-score").first.inner_text()
        print(f"click on Next -> verdict painted: {stats(times)}")
        print(f"score shown after {rounds} rounds: {score}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--url", default="", help="a server already running (else this checkout's app)")
    parser.add_argument("--corpus", default="lighthouse_story")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.url:
        measure(args.url.rstrip("/"), args.rounds, args.corpus)
    else:
        with streamlit_server() as url:
            measure(url, args.rounds, args.corpus)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
