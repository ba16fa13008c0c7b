"""Training-page benchmark: engine and stage views per step, the page's first load, browser time per Next.

    python bench/bench_training_page.py [--corpus FILE] [--clicks 20] [--steps 200] [--no-browser]
                                        [--app-dir DIR] [--cost-only] [--burst 10]

Without --corpus it builds bench/out/corpus_1mb.txt (../shared/tools/make_bench_corpus.py, or the
built-in corpora numbered and repeated).  The browser part opens the Train page in chromium, uploads the
corpus, and times each Next in the page itself: from the click to the moment the merge card shows the new
step, one animation frame later (median and max, plain and presenter mode).  It also prints, for the same
clicks, the time until the server has redrawn the rest of the page (the script idle again), and the first
load: from opening /train to the first step on screen.  Then what each Next costs once all has settled:
the browser's main-thread busy time and the server's CPU time (``--cost-only``: just that), for single
Next presses and for a burst of ``--burst`` quick presses (100 ms apart), per Next.
``--app-dir`` measures another checkout (say the code before a change) the same way.  Targets
(issue #12): at most 100 ms median per Next, aim 50 ms.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bpe_core  # noqa: E402
from mergescope_ui.shared.inputs.corpora import load_index, load_text  # noqa: E402
from mergescope_ui.shared.settings import PREVIEW_CHARS  # noqa: E402
from mergescope_ui.shared.stage.contract import wire  # noqa: E402
from mergescope_ui.shared.stage.producer import StageSettings  # noqa: E402
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun  # noqa: E402
from mergescope_ui.train.stage_data import StageViews  # noqa: E402

OUT = ROOT / "bench" / "out"
MAKER = ROOT.parent / "shared" / "tools" / "make_bench_corpus.py"
HEADING = "Train: watch BPE learn"

# In the page: click Next, then wait until the card says "Merge k" and one more frame is drawn.
TIME_NEXT = """async (k) => {
  const next = [...document.querySelectorAll('button')].find((b) => b.textContent.trim().startsWith('Next'));
  const shown = () => [...document.querySelectorAll('.ms-card:not(.ms-wait) h4')]
    .some((h) => h.textContent.trim() === 'Merge ' + k);
  const t0 = performance.now();
  await new Promise((resolve) => {
    const done = () => requestAnimationFrame(() => resolve());
    const watch = new MutationObserver(() => { if (shown()) { watch.disconnect(); done(); } });
    watch.observe(document.body, {subtree: true, childList: true, characterData: true});
    next.click();
  });
  return performance.now() - t0;
}"""


def corpus_path(arg: str | None) -> Path:
    if arg:
        return Path(arg)
    path = OUT / "corpus_1mb.txt"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        if MAKER.exists():
            subprocess.run([sys.executable, str(MAKER), str(path), "1"], check=True)
        else:
            base = "\n".join(load_text(c) for c in load_index())
            parts, n = [], 0
            while sum(len(p) for p in parts) < 1_000_000:
                n += 1
                parts.append(f"== part {n} ==\n{base}\n")
            path.write_text("".join(parts), encoding="utf-8")
    return path


def stats(ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    return f"median {statistics.median(ms):7.1f} ms  p90 {p90:7.1f} ms  max {ms[-1]:7.1f} ms  (n={len(ms)})"


def bench_engine(text: str, steps: int) -> None:
    options = bpe_core.TrainOptions(vocab_size=256 + steps + 1, preview_chars=PREVIEW_CHARS)
    start = time.perf_counter()
    trainer = bpe_core.Trainer(text, options)
    run = TrainingRun(trainer, identity=RunIdentity.of(text, options))
    run.pull()
    setup = (time.perf_counter() - start) * 1000
    print(f"engine: Trainer + first step on {len(text.encode()) / 1e6:.2f} MB: {setup:.0f} ms")
    times = []
    for _ in range(steps - 1):
        t0 = time.perf_counter()
        if not run.pull():
            break
        times.append((time.perf_counter() - t0) * 1000)
    print(f"engine: per step (steps 2..{run.pulled}):          {stats(times)}")

    t0 = time.perf_counter()
    views = StageViews(run, text)
    print(f"stage: the text replay built:                 {(time.perf_counter() - t0) * 1000:.0f} ms")
    build, sizes = [], []
    for k in range(1, run.pulled + 1):
        t0 = time.perf_counter()
        views.view(k)
        build.append((time.perf_counter() - t0) * 1000)
    print(f"stage: one step's view (card, bars, places):  {stats(build)}")
    for k in (1, run.pulled // 2, run.pulled - 8):
        run.position = k
        window = views.window(position=k, serial=0, settings=StageSettings())
        sizes.append(len(json.dumps(wire(window))))
    print(f"stage: data sent per window of steps:         {min(sizes) / 1e3:.0f}-{max(sizes) / 1e3:.0f} kB")


def _clicks(page, clicks: int, *, wait_idle) -> tuple[list[float], list[float]]:
    """Time ``clicks`` Next clicks: to the card updated, and to the server done with the rest."""
    shown, settled = [], []
    cards = page.locator(".ms-card h4")
    now = cards.first.inner_text() if cards.count() else ""
    first = int(now.split()[-1]) if now.startswith("Merge ") else 0
    train_page = page.get_by_role("heading", name=HEADING).count() > 0
    for k in range(first + 1, first + clicks + 1):  # (wall clock through playwright: a few ms more)
        t0 = time.perf_counter()
        shown.append(page.evaluate(TIME_NEXT, k))
        if train_page:  # the tables below the step follow it once the server has rerun
            page.get_by_text(f"Merges so far ({k:,})").first.wait_for(timeout=60_000)
        wait_idle(page, timeout=60_000)
        settled.append((time.perf_counter() - t0) * 1000)
        page.wait_for_timeout(150)  # a teacher does not click twice within 150 ms
    return shown, settled


def bench_browser(path: Path, clicks: int, app_dir: Path) -> None:
    from tests.browser.support import chromium_page, missing_browser, open_app, streamlit_server, wait_idle

    reason = missing_browser()
    if reason:
        print(f"browser: skipped, {reason}")
        return
    with streamlit_server(cwd=app_dir) as url:
        for presenter in (False, True):
            mode = "presenter" if presenter else "plain"
            with chromium_page(width=1280 if presenter else 1600, height=720 if presenter else 1000) as page:
                t0 = time.perf_counter()
                open_app(
                    page,
                    f"{url}/train?corpus=low_lower_newest_widest&pattern=none"
                    + ("&presenter=true" if presenter else ""),
                    heading=HEADING,
                )
                page.get_by_text("Step 0: the text as raw bytes").first.wait_for(timeout=60_000)
                print(
                    f"browser ({mode}): first load of /train, classroom string: "
                    f"{(time.perf_counter() - t0) * 1000:.0f} ms"
                )
                shown, settled = _clicks(page, clicks, wait_idle=wait_idle)
                print(f"browser ({mode}): Next, click -> card shows it, classroom string: {stats(shown)}")
                print(f"browser ({mode}): Next, click -> rest of page redrawn (idle):   {stats(settled)}")
                page.goto(
                    f"{url}/train?corpus=__upload__&merges=2000" + ("&presenter=true" if presenter else "")
                )
                page.get_by_role("heading", name=HEADING).first.wait_for(timeout=60_000)
                wait_idle(page, timeout=60_000)
                t0 = time.perf_counter()
                page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
                page.get_by_text("Step 0: the text as raw bytes").first.wait_for(timeout=120_000)
                wait_idle(page, timeout=120_000)
                print(
                    f"browser ({mode}): upload {path.stat().st_size / 1e6:.1f} MB -> step 0 on screen: "
                    f"{(time.perf_counter() - t0) * 1000:.0f} ms"
                )
                shown, settled = _clicks(page, clicks, wait_idle=wait_idle)
                print(f"browser ({mode}): Next, click -> card shows it, 1 MB upload:    {stats(shown)}")
                print(f"browser ({mode}): Next, click -> rest of page redrawn (idle):   {stats(settled)}")


FLOOR_APP = """
import streamlit as st
st.session_state.setdefault("n", 0)
def bump():
    st.session_state.n += 1
@st.fragment
def panel():
    st.button("Next ▶", on_click=bump)
    st.html(f'<div class="ms-card"><h4>Merge {st.session_state.n}</h4></div>')
panel()
"""


def bench_floor(clicks: int) -> None:
    """The same timing on a one-button app: what any Next costs that waits for the server."""
    import tempfile

    from tests.browser.support import chromium_page, missing_browser, streamlit_server, wait_idle

    if missing_browser():
        return
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "floor.py").write_text(FLOOR_APP, encoding="utf-8")
        with streamlit_server(app="floor.py", cwd=Path(tmp)) as url, chromium_page() as page:
            page.goto(url)
            page.locator(".ms-card h4", has_text="Merge 0").wait_for()
            wait_idle(page)
            shown, _ = _clicks(page, clicks, wait_idle=wait_idle)
    print(f"browser floor: a server round trip on a one-button app:     {stats(shown)}")


def _busy_ms(cdp) -> float:
    """The browser's main-thread task time so far (Chrome's Performance.getMetrics TaskDuration), in ms."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return metrics["TaskDuration"] * 1000


# Next pressed `n` times in the page itself, 100 ms apart (a teacher's quick presses, or a held key).
BURST = """async (n) => {
  const next = [...document.querySelectorAll('button')].find((b) => b.textContent.trim().startsWith('Next'));
  for (let i = 0; i < n; i++) {
    next.click();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}"""


def bench_cost_per_next(clicks: int, app_dir: Path, *, burst: int = 10) -> None:
    """What each Next costs both sides once everything has settled: the browser's busy time (all its
    main-thread tasks from the click until the page is idle again: drawing the stage, then whatever the
    server's rerun redraws) and the server's CPU time (what the server runs for it), median and max, on
    the classroom string and on the Lighthouse story, plain and presenter mode; then the same for a
    burst of ``burst`` quick presses, in all divided by the presses."""
    from tests.browser.support import (
        chromium_page,
        cpu_seconds,
        missing_browser,
        streamlit_process,
        wait_idle,
    )

    if missing_browser():
        return
    with streamlit_process(cwd=app_dir) as server:
        for presenter in (False, True):
            mode = "presenter" if presenter else "plain"
            size = (1280, 720) if presenter else (1600, 1000)
            for corpus in ("low_lower_newest_widest&pattern=none", "lighthouse_story"):
                with chromium_page(width=size[0], height=size[1]) as page:
                    page.goto(
                        f"{server.url}/train?corpus={corpus}" + ("&presenter=true" if presenter else "")
                    )
                    page.get_by_text("Step 0: the text as raw bytes").first.wait_for(timeout=60_000)
                    wait_idle(page, timeout=60_000)
                    page.wait_for_timeout(1000)
                    cdp = page.context.new_cdp_session(page)
                    cdp.send("Performance.enable")
                    busy, cpu = [], []
                    for k in range(1, clicks + 1):
                        b0, c0 = _busy_ms(cdp), cpu_seconds(server.process.pid)
                        page.get_by_role("button", name="Next ▶").click()
                        page.locator(".ms-card:not(.ms-wait) h4", has_text=f"Merge {k}").first.wait_for()
                        page.get_by_text(f"Merges so far ({k:,})").first.wait_for(timeout=60_000)
                        wait_idle(page, timeout=60_000)
                        page.wait_for_timeout(300)  # the last redraws after the script went idle
                        busy.append(_busy_ms(cdp) - b0)
                        cpu.append((cpu_seconds(server.process.pid) - c0) * 1000)
                    name = corpus.split("&")[0]
                    print(f"per Next ({mode}, {name}): browser busy  {stats(busy)}")
                    print(f"per Next ({mode}, {name}): server CPU    {stats(cpu)}")
                    if burst < 1:
                        continue
                    page.wait_for_timeout(1000)
                    b0, c0 = _busy_ms(cdp), cpu_seconds(server.process.pid)
                    page.evaluate(BURST, burst)
                    wait_idle(page, timeout=60_000)
                    page.wait_for_timeout(1000)  # anything still to come
                    # A short text runs out of merges before the burst does (the classroom string has
                    # fewer than 30): count the steps the burst really made, from the card it ends on.
                    heading = page.locator(".ms-card:not(.ms-wait) h4").first.text_content() or ""
                    made = int(heading.split()[-1].replace(",", "")) - clicks
                    if made < 1:
                        print(f"per Next ({mode}, {name}), a burst of {burst}: no merges left to make")
                        continue
                    page.get_by_text(f"Merges so far ({clicks + made:,})").first.wait_for(timeout=60_000)
                    each_busy = (_busy_ms(cdp) - b0) / made
                    each_cpu = (cpu_seconds(server.process.pid) - c0) * 1000 / made
                    print(
                        f"per Next ({mode}, {name}), a burst of {burst} ({made} made): browser busy "
                        f"{each_busy:7.1f} ms  server CPU {each_cpu:7.1f} ms"
                    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", help="a UTF-8 text file (default: a ~1 MB corpus in bench/out/)")
    parser.add_argument("--steps", type=int, default=200, help="engine steps to time")
    parser.add_argument("--clicks", type=int, default=20, help="Next clicks to time in the browser")
    parser.add_argument("--no-browser", action="store_true", help="engine and stage views only")
    parser.add_argument("--app-dir", default=str(ROOT), help="the checkout whose app.py to time")
    parser.add_argument(
        "--cost-only", action="store_true", help="only the browser's busy time and server CPU per Next"
    )
    parser.add_argument("--burst", type=int, default=10, help="quick Next presses in a burst (0: none)")
    args = parser.parse_args()
    if args.cost_only:
        bench_cost_per_next(args.clicks, Path(args.app_dir), burst=args.burst)
        return
    path = corpus_path(args.corpus)
    text = path.read_text(encoding="utf-8")
    print(f"corpus: {path} ({len(text.encode()):,} bytes)")
    bench_engine(text, args.steps)
    if not args.no_browser:
        bench_browser(path, args.clicks, Path(args.app_dir))
        bench_cost_per_next(args.clicks, Path(args.app_dir), burst=args.burst)
        bench_floor(args.clicks)


if __name__ == "__main__":
    main()
