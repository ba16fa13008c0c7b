"""The Train page's schemes on 1 MB: time to the first step, and per Next, for BPE, WordPiece and Unigram.

    python bench/bench_train_schemes.py [--megabytes 1] [--nexts 10] [--unigram-vocab 8000] [--here]

The text is ``bench/make_corpus.py``'s (its seed 16, cut to ``--megabytes``).  Each scheme goes the way
the page goes, without Streamlit: the run is started (BPE: ``bpe_core.Trainer`` in a ``TrainingRun``;
WordPiece and Unigram: ``start_scheme_run``), its stage views are made, and the first window is built
("first step": from the text to the stage's first window holding step 1).  Then each Next pulls what
the page pulls and builds the window around the new step ("per Next": median and max).  Unigram's
rounds are few and each costs a whole pass of loss increases over the corpus, so its Next is seconds
where the others' are milliseconds; the page trains one round ahead so that a Next already pulled is
instant.

WordPiece and Unigram go the page's way for a text this long: their run and views live in a session
worker (``mergescope_ui.train.scheme_driver``), and the figures include asking the worker for each
window; ``--here`` also runs them in this process (the way of a small text, and of every text before
the worker).  The load average is printed before and after.  Prints figures; asserts nothing.
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
sys.path.insert(0, str(ROOT / "bench"))

from make_corpus import generate  # noqa: E402

import bpe_core  # noqa: E402
from mergescope_ui.shared.settings import PREVIEW_CHARS, TOP_K  # noqa: E402
from mergescope_ui.shared.stage.contract import AHEAD  # noqa: E402
from mergescope_ui.shared.stage.producer import StageSettings  # noqa: E402
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun  # noqa: E402
from mergescope_ui.shared.workers.session_worker import SessionWorker  # noqa: E402
from mergescope_ui.train.scheme_driver import (  # noqa: E402
    IN_PROCESS_CHARS,
    RemoteSchemeDriver,
    SchemeDriver,
    start_driver,
)
from mergescope_ui.train.scheme_run import SchemeSettings, start_scheme_run  # noqa: E402
from mergescope_ui.train.stage_data import StageViews  # noqa: E402
from mergescope_ui.train.unigram_stage import UnigramViews  # noqa: E402
from mergescope_ui.train.wordpiece_stage import WordPieceViews  # noqa: E402


def corpus(megabytes: float) -> str:
    data = b"".join(generate(16, megabytes))
    return data.decode("utf-8", errors="ignore").replace("<|endoftext|>", "\n")


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:,.0f} ms"


def bench(name: str, start, nexts: int, ahead: int) -> None:
    t0 = time.perf_counter()
    run, views = start()
    while run.pulled < ahead and run.pull():
        pass
    views.window(position=0, serial=0, settings=StageSettings())
    run.position = 1 if run.pulled else 0
    views.window(position=run.position, serial=0, settings=StageSettings())
    first = time.perf_counter() - t0
    times = []
    for _ in range(nexts):
        t = time.perf_counter()
        want = run.position + 1 + ahead
        while run.pulled < want and run.pull():
            pass
        if run.position >= run.pulled:
            break
        run.position += 1
        views.window(position=run.position, serial=0, settings=StageSettings())
        times.append(time.perf_counter() - t)
    per = f"median {_ms(statistics.median(times))}, max {_ms(max(times))}" if times else "no step left"
    print(f"{name:16} first step {_ms(first):>10} · per Next ({len(times)}) {per}", flush=True)


def bench_driver(name: str, start, nexts: int, ahead: int) -> None:
    """A scheme through its driver, as the page asks it: train ahead, show, build the window."""
    t0 = time.perf_counter()
    driver = start()
    driver.advance(1 + ahead)
    driver.window(serial=0, options=StageSettings())
    driver.show(1)
    driver.window(serial=0, options=StageSettings())
    first = time.perf_counter() - t0
    times = []
    for _ in range(nexts):
        t = time.perf_counter()
        k = driver.state.position + 1
        driver.advance(k + ahead)
        if driver.state.pulled < k:
            break
        driver.show(k)
        driver.window(serial=0, options=StageSettings())
        times.append(time.perf_counter() - t)
    driver.stop()
    per = f"median {_ms(statistics.median(times))}, max {_ms(max(times))}" if times else "no step left"
    print(f"{name:16} first step {_ms(first):>10} · per Next ({len(times)}) {per}", flush=True)


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--megabytes", type=float, default=1.0)
    parser.add_argument("--nexts", type=int, default=10)
    parser.add_argument("--unigram-vocab", type=int, default=8000)
    parser.add_argument("--here", action="store_true", help="also WordPiece and Unigram in this process")
    args = parser.parse_args()
    text = corpus(args.megabytes)
    print(f"{len(text.encode('utf-8')):,} bytes, {len(text):,} characters; {_load()}", flush=True)

    def bpe():
        settings = bpe_core.TrainOptions(
            vocab_size=256 + 1000, pattern="gpt2", top_k=TOP_K, preview_chars=PREVIEW_CHARS
        )
        run = TrainingRun(bpe_core.Trainer(text, settings, workers=1), RunIdentity.of(text, settings))
        return run, StageViews(run, text)

    def wordpiece():
        run = start_scheme_run(text, SchemeSettings(scheme="wordpiece", steps=1000))
        return run, WordPieceViews(run, text)

    def unigram():
        run = start_scheme_run(text, SchemeSettings(scheme="unigram", vocab_size=args.unigram_vocab))
        return run, UnigramViews(run, text)

    wp = SchemeSettings(scheme="wordpiece", steps=1000)
    ug = SchemeSettings(scheme="unigram", vocab_size=args.unigram_vocab)
    bench("BPE", bpe, args.nexts, AHEAD)
    if args.here:
        bench("WordPiece here", wordpiece, args.nexts, AHEAD)
        bench("Unigram here", unigram, min(args.nexts, 4), 1)
    t = time.perf_counter()  # the fork server's start (its preloads), once per server: not a run's
    SessionWorker(name="warm").stop()
    print(f"{'fork server':16} started in {_ms(time.perf_counter() - t)} (once per server)", flush=True)
    drivers: dict[str, SchemeSettings] = {"WordPiece": wp, "Unigram": ug}
    for name, settings in drivers.items():
        ahead, nexts = (AHEAD, args.nexts) if name == "WordPiece" else (1, min(args.nexts, 4))

        def start(settings: SchemeSettings = settings) -> SchemeDriver | RemoteSchemeDriver:
            return (
                RemoteSchemeDriver.start(text, settings)
                if len(text) > IN_PROCESS_CHARS
                else start_driver(text, settings)
            )

        bench_driver(f"{name} worker", start, nexts, ahead)
    print(_load(), flush=True)


if __name__ == "__main__":
    main()
