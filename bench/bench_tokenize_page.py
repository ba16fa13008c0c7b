"""Tokenize-page benchmark: first load, a share link, typing and clicking, in a real browser.

    python bench/bench_tokenize_page.py [--runs 5] [--gpt2-files DIR]

Each load is a fresh browser profile against one server (warmed by one visit first, and once
as the cold server's very first request).  "Tokens" means: the first token span is drawn.
Targets (issue 15): first load about 2 s, a share link about 3 s, the count within a second of
the last key.  With ``--gpt2-files DIR`` (holding gpt2_vocab.json + gpt2_merges.txt, e.g.
../shared/reference/cs336) it also times loading GPT-2 as tiktoken's "gpt2" and "r50k_base"
from a fake tiktoken cache, and compares their ids with tiktoken's own.  Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.support import chromium_page, streamlit_server, wait_idle  # noqa: E402
from tests.ui.tokenize.fake_caches import no_caches  # noqa: E402

SPANS = ".ms-click-host .ms-t"
SHARE = (
    "/tokenize?t=%E6%9C%BA%E5%99%A8%E5%AD%A6%E4%B9%A0+the+lighthouse+keeper+%F0%9F%91%8B%F0%9F%8F%BD"
    "&tok=quick:machine_learning_zh:600:gpt2&cmp=quick:machine_learning_zh:600:gpt2,bytes:gpt2"
)


def stats(seconds: list[float]) -> str:
    s = sorted(seconds)
    return f"median {statistics.median(s):5.2f} s  max {s[-1]:5.2f} s  (n={len(s)})"


def load_time(url: str, *, ready: str = SPANS) -> float:
    """Seconds from opening ``url`` in a fresh browser until ``ready`` shows."""
    with chromium_page(width=1400, height=900) as page:
        start = time.perf_counter()
        page.goto(url)
        page.locator(ready).first.wait_for(timeout=120_000)
        return time.perf_counter() - start


def typing_and_clicking(url: str, runs: int) -> tuple[list[float], list[float]]:
    typed, clicked = [], []
    with chromium_page(width=1400, height=900) as page:
        page.goto(url + "/tokenize")
        page.locator(SPANS).first.wait_for(timeout=120_000)
        wait_idle(page)
        box = page.get_by_role("textbox", name="Text to tokenize")
        value = page.locator('[data-testid="stMetricValue"]').nth(2)
        for n in range(runs):
            before = value.inner_text()
            box.click()
            page.keyboard.press("End")
            box.press_sequentially(f" word{n}", delay=20)
            start = time.perf_counter()
            while value.inner_text() == before:
                page.wait_for_timeout(10)
            typed.append(time.perf_counter() - start)
            wait_idle(page)
            spans = page.locator(SPANS)
            target = spans.nth(n % spans.count())
            start = time.perf_counter()
            target.click()
            page.get_by_text(" · made by merge ").or_(page.get_by_text("a single byte")).first.wait_for()
            wait_idle(page)
            clicked.append(time.perf_counter() - start)
            page.get_by_role("tab", name="🔢 Token ids").click()
            wait_idle(page)
    return typed, clicked


def gpt2_from_a_fake_tiktoken_cache(files: Path) -> None:
    from bpe_core import load_tokenizer, save_tokenizer
    from bpe_core.formats.local_caches import find_local_tokenizers, load_local
    from bpe_core.formats.tiktoken_registry import ENCODINGS

    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "tiktoken"
        cache.mkdir()
        gpt2 = ENCODINGS["gpt2"]
        (cache / gpt2.cache_names[0]).write_bytes((files / "gpt2_merges.txt").read_bytes())
        (cache / gpt2.cache_names[1]).write_bytes((files / "gpt2_vocab.json").read_bytes())
        saved = Path(tmp) / "saved"
        save_tokenizer(load_tokenizer(files / "gpt2_vocab.json"), saved)
        (cache / ENCODINGS["r50k_base"].cache_names[0]).write_bytes(
            (saved / "tokenizer.tiktoken").read_bytes()
        )
        local = find_local_tokenizers({"TIKTOKEN_CACHE_DIR": str(cache)}, home=Path(tmp))
        texts = ["Hello world", "<|endoftext|>\n\n\nTom\n", "naïve café 自然语言处理 🤷🏽‍♀️ it's 1234567  \n"]
        try:
            import json

            import tiktoken
            from tiktoken_ext.openai_public import r50k_pat_str

            from bpe_core.byte_level import from_unicode_string

            # tiktoken's ranks for gpt2 are encoder.json's ids (its data-gym loader checks exactly that)
            encoder = json.loads((files / "gpt2_vocab.json").read_text(encoding="utf-8"))
            ranks = {from_unicode_string(t): i for t, i in encoder.items() if t != "<|endoftext|>"}
            theirs = tiktoken.Encoding(
                name="gpt2",
                pat_str=r50k_pat_str,
                mergeable_ranks=ranks,
                special_tokens={"<|endoftext|>": 50256},
            )
        except ImportError:
            theirs = None
        for found in local.found:
            start = time.perf_counter()
            loaded = load_local(found)
            seconds = time.perf_counter() - start
            same = (
                all(loaded.tokenizer.encode(t) == theirs.encode(t, allowed_special="all") for t in texts)
                if theirs is not None
                else "tiktoken not installed"
            )
            print(f"  {found.name:10s} loaded in {seconds:.2f} s; ids equal tiktoken's gpt2: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--gpt2-files", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, streamlit_server(env=no_caches(Path(tmp))) as url:
        print(f"cold server, first request /tokenize: tokens after {load_time(url + '/tokenize'):.2f} s")
        home = [
            load_time(url + "/home", ready="text=What you will see at every step") for _ in range(args.runs)
        ]
        print(f"baseline: the Welcome page (no tokenizing) shows: {stats(home)}")
        first = [load_time(url + "/tokenize") for _ in range(args.runs)]
        print(f"first load of /tokenize (fresh browser): {stats(first)}")
        shared = [load_time(url + SHARE) for _ in range(args.runs)]
        print(f"a share link (text, tokenizer, compare): {stats(shared)}")
        typed, clicked = typing_and_clicking(url, args.runs)
        print(f"typing: count updated after the last key: {stats(typed)}")
        print(f"click a token: its details shown after:   {stats(clicked)}")
    if args.gpt2_files is not None:
        print("GPT-2 from a fake tiktoken cache (first use):")
        gpt2_from_a_fake_tiktoken_cache(args.gpt2_files)


if __name__ == "__main__":
    main()
