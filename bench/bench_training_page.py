"""Training-page benchmark: engine time per step and browser time per Next on a ~1 MB corpus.

    python bench/bench_training_page.py [--corpus FILE] [--clicks 20] [--steps 200] [--no-browser]

Without --corpus it builds bench/out/corpus_1mb.txt with ../shared/tools/make_bench_corpus.py
(falling back to the built-in corpora, numbered and repeated).  Target (issue 4): under
300 ms per Next end to end in the browser.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bpe_core  # noqa: E402
from mergescope_ui.shared.corpora import load_index, load_text  # noqa: E402
from mergescope_ui.shared.html_tables import html_table  # noqa: E402
from mergescope_ui.shared.settings import PREVIEW_CHARS  # noqa: E402
from mergescope_ui.shared.token_html import merged_positions, token_spans_html  # noqa: E402
from mergescope_ui.train.charts import pair_count_spec, tokens_line_spec  # noqa: E402
from mergescope_ui.train.tables import merges_csv, merges_table, pair_table, tokens_by_step  # noqa: E402

OUT = ROOT / "bench" / "out"
MAKER = ROOT.parent / "shared" / "tools" / "make_bench_corpus.py"


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
    start = time.perf_counter()
    trainer = bpe_core.train_steps(text, vocab_size=256 + steps + 1, preview_chars=PREVIEW_CHARS)
    first = next(trainer)
    setup = (time.perf_counter() - start) * 1000
    print(f"engine: train_steps + first step on {len(text.encode()) / 1e6:.2f} MB: {setup:.0f} ms")
    times, records = [], [first]
    for _ in range(steps - 1):
        t0 = time.perf_counter()
        try:
            records.append(next(trainer))
        except StopIteration:
            break
        times.append((time.perf_counter() - t0) * 1000)
    print(f"engine: per step (steps 2..{len(records)}):       {stats(times)}")

    # What one Next costs on the server besides the engine: the builders for the step shown.
    render = []
    for k in range(1, len(records), max(1, len(records) // 20)):
        step, before = records[k], records[k - 1].sequence
        t0 = time.perf_counter()
        table = pair_table(step)
        pair_count_spec(table)
        html_table(table)
        old, new = merged_positions(before, step.sequence, pair=step.pair, new_id=step.new_id)
        token_spans_html(step.sequence, trainer.vocab, emphasize=new, css=False)
        token_spans_html(before, trainer.vocab, emphasize=old, css=False)
        tokens_line_spec(tokens_by_step(trainer.initial_tokens, records[: k + 1]), current_step=k + 1)
        merges_table(records[: k + 1])
        merges_csv(records[: k + 1])
        render.append((time.perf_counter() - t0) * 1000)
    print(f"page builders per step (tables, charts, spans, CSV): {stats(render)}")


def bench_browser(path: Path, clicks: int) -> None:
    from tests.browser.support import chromium_page, missing_browser, open_app, streamlit_server, wait_idle

    reason = missing_browser()
    if reason:
        print(f"browser: skipped, {reason}")
        return
    with streamlit_server() as url, chromium_page() as page:
        open_app(page, f"{url}/train?corpus=__upload__&merges=2000", heading="Train: watch BPE learn")
        t0 = time.perf_counter()
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
        page.get_by_text("Step 0: the text as raw bytes").wait_for(timeout=120_000)
        wait_idle(page, timeout=120_000)
        upload_ms = (time.perf_counter() - t0) * 1000
        print(f"browser: upload + pre-tokenize + first merge prefetched: {upload_ms:.0f} ms")
        times = []
        for k in range(1, clicks + 1):
            t0 = time.perf_counter()
            page.get_by_role("button", name="Next ▶").click()
            page.locator(".ms-card h4", has_text=f"Merge {k}").wait_for(timeout=60_000)
            wait_idle(page)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"browser: click Next -> merge shown, script idle:  {stats(times)}")
        t0 = time.perf_counter()
        page.get_by_role("button", name="◀ Back").click()
        page.locator(".ms-card h4", has_text=f"Merge {clicks - 1}").wait_for()
        wait_idle(page)
        print(f"browser: click Back (no retraining):              {(time.perf_counter() - t0) * 1000:.0f} ms")


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
    """The same click-to-text timing on a one-button app: this machine's floor for any Next."""
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
            times = []
            for k in range(1, clicks + 1):
                t0 = time.perf_counter()
                page.get_by_role("button", name="Next ▶").click()
                page.locator(".ms-card h4", has_text=f"Merge {k}").wait_for()
                wait_idle(page)
                times.append((time.perf_counter() - t0) * 1000)
    print(f"browser floor: one-button app, same timing:      {stats(times)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", help="a UTF-8 text file (default: a ~1 MB corpus in bench/out/)")
    parser.add_argument("--steps", type=int, default=200, help="engine steps to time")
    parser.add_argument("--clicks", type=int, default=20, help="Next clicks to time in the browser")
    parser.add_argument("--no-browser", action="store_true", help="engine and builders only")
    args = parser.parse_args()
    path = corpus_path(args.corpus)
    text = path.read_text(encoding="utf-8")
    print(f"corpus: {path} ({len(text.encode()):,} bytes)")
    bench_engine(text, args.steps)
    if not args.no_browser:
        bench_browser(path, args.clicks)
        bench_floor(args.clicks)


if __name__ == "__main__":
    main()
