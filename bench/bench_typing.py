"""Keystroke to tokens on the Tokenize page, in a real browser: before (every key a server rerun) and after
(the browser encodes; issue 23).

    python bench/bench_typing.py --gpt2-files DIR --cl100k FILE [--keys 20] [--chars 10000]

``DIR`` holds gpt2_vocab.json + gpt2_merges.txt and ``FILE`` is cl100k_base.tiktoken (e.g. from
../shared/reference); they go into a temporary tiktoken cache, so the page offers them as
``tiktoken:gpt2`` and ``tiktoken:cl100k_base``.  Two servers: one with
``MERGESCOPE_BROWSER_ENCODE=off`` (the rerun path, as before) and one as shipped.

For each key: the box holds about ``--chars`` characters of varied text (the caret at its start), the
page is idle, one "x" is pressed at the start of the text (the first page of tokens always
changes); the time runs from the browser's ``keydown`` event to the first frame painted after the
token view's text changed (``spans``), and after the Characters count changed (``count``).
Target: a median of at most 50 ms.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe_core.formats.tiktoken_registry import ENCODINGS  # noqa: E402
from mergescope_ui.tokenize.encoder_table import OFF  # noqa: E402
from tests.browser.support import chromium_page, generated_text, streamlit_server, wait_idle  # noqa: E402
from tests.ui.tokenize.fake_caches import no_caches  # noqa: E402

HOST = ".ms-click-host"
# Arms two watches: t0 at the next keydown in the box; each done at the first frame after its part changes:
# the token view's spans (.ms-view holds them, beside the counts; an older page had them in the host) and the
# Characters count (drawn with the spans now; a Streamlit metric, updated by the server's run, before).
ARM = """() => {
  const parts = {
    spans: () =>
      document.querySelector(".ms-click-host .ms-view") || document.querySelector(".ms-click-host"),
    count: () => document.querySelector(".ms-click-host [data-count='characters']") ||
      document.querySelector('[data-testid="stMetricValue"]'),
  };
  const box = document.querySelector(".ms-box-area");
  window.__msBench = {};
  let t0 = null;
  const down = (e) => { t0 = e.timeStamp; box.removeEventListener("keydown", down, true); };
  box.addEventListener("keydown", down, true);
  for (const [name, find] of Object.entries(parts)) {
    const before = find().textContent.slice(0, 200);
    const check = () => {
      const h = find();
      if (t0 === null || !h || h.textContent.slice(0, 200) === before) return;
      obs.disconnect();
      requestAnimationFrame(() => requestAnimationFrame((t) => { window.__msBench[name] = t - t0; }));
    };
    const obs = new MutationObserver(check);
    obs.observe(document.body, { childList: true, subtree: true, characterData: true });
  }
}"""
DONE = "window.__msBench.spans !== undefined && window.__msBench.count !== undefined"


def stats(ms: list[float]) -> str:
    s = sorted(ms)
    p95 = s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]
    return f"median {statistics.median(s):7.1f} ms   p95 {p95:7.1f} ms   (n={len(s)})"


def fake_cache(folder: Path, gpt2: Path, cl100k: Path) -> None:
    names = ENCODINGS["gpt2"].cache_names
    shutil.copyfile(gpt2 / "gpt2_merges.txt", folder / names[0])
    shutil.copyfile(gpt2 / "gpt2_vocab.json", folder / names[1])
    shutil.copyfile(cl100k, folder / ENCODINGS["cl100k_base"].cache_names[0])


def keystrokes(url: str, spec: str, *, keys: int, chars: int) -> dict[str, list[float]]:
    """Milliseconds from keydown to the painted tokens (``spans``) and count (``count``), a figure per key."""
    out: dict[str, list[float]] = {"spans": [], "count": []}
    with chromium_page(width=1400, height=900) as opened:
        page: Any = opened  # a playwright Page
        page.goto(f"{url}/tokenize?tok={spec}")
        page.locator(f"{HOST} .ms-t").first.wait_for(timeout=300_000)
        wait_idle(page, timeout=300_000)
        box = page.locator(".ms-box-area")
        box.fill(generated_text(chars, seed=1))
        box.blur()
        page.wait_for_timeout(500)
        wait_idle(page, timeout=300_000)
        box.click()
        page.keyboard.press("Control+Home")
        for _ in range(keys):
            page.evaluate(ARM)
            page.keyboard.press("x")
            page.wait_for_function(DONE, timeout=60_000)
            for name, ms in page.evaluate("window.__msBench").items():
                out[name].append(ms)
            page.wait_for_timeout(400)  # past the box's pause, then let the server's rerun finish
            wait_idle(page, timeout=120_000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--gpt2-files", type=Path, required=True)
    parser.add_argument("--cl100k", type=Path, required=True)
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--chars", type=int, default=10_000)
    parser.add_argument("--after-only", action="store_true", help="skip the slow before-figures")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every key's figure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "tiktoken"
        cache.mkdir()
        fake_cache(cache, args.gpt2_files, args.cl100k)
        env = no_caches(Path(tmp)) | {"TIKTOKEN_CACHE_DIR": str(cache)}
        print(f"keystroke to painted tokens, {args.chars:,} characters in the box, {args.keys} keys each")
        runs: tuple[tuple[str, dict[str, str]], ...] = (
            ("before (server rerun)", {OFF: "off"}),
            ("after (browser encodes)", {}),
        )
        for label, extra in runs[1:] if args.after_only else runs:
            with streamlit_server(env=env | extra, timeout=120) as url:
                for spec in ("tiktoken:gpt2", "tiktoken:cl100k_base"):
                    start = time.perf_counter()
                    figures = keystrokes(url, spec, keys=args.keys, chars=args.chars)
                    took = time.perf_counter() - start
                    for part, ms in figures.items():
                        print(f"  {label:24s} {spec:22s} {part:6s} {stats(ms)}   [{took:.0f} s]", flush=True)
                        if args.verbose:
                            print("    " + " ".join(f"{m:.0f}" for m in ms))


if __name__ == "__main__":
    main()
