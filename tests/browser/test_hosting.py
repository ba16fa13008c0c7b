"""Safe to host for a class: big uploads finish and leave no process behind, the server stops on SIGTERM.

Each test starts its own server, so that what one leaves behind (a stuck
process, a server that ignores SIGTERM) cannot hide behind another's.
"""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest

from tests.browser.support import (
    PASTE,
    children,
    chromium_page,
    cpu_seconds,
    generated_text,
    open_app,
    streamlit_process,
    wait_idle,
    working,
)

TRAIN = "Train: watch BPE learn"
LAB = "Vocab-size lab"


def upload(page, path: Path) -> None:
    page.locator('[data-testid="stSidebar"] input[type="file"]').first.set_input_files(str(path))


def alive(pid: int) -> bool:
    """True while process ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def everything(pid: int) -> list[int]:
    """``pid``'s processes, children of children included."""
    return [p for child, _ in children(pid) for p in (child, *everything(child))]


def test_a_large_upload_trains_on_both_pages_leaves_no_process_and_sigterm_stops_the_server(tmp_path):
    """4.4M characters on the Train page and 6M in the lab (4.8M after the held-out split): over the
    4M characters above which the engine counts in several processes."""
    train_file = tmp_path / "big_train.txt"
    train_file.write_text(generated_text(4_400_000, seed=1), encoding="utf-8")
    lab_file = tmp_path / "big_lab.txt"
    lab_file.write_text(generated_text(6_000_000, seed=2), encoding="utf-8")
    assert max(train_file.stat().st_size, lab_file.stat().st_size) < 10 * 1024 * 1024  # the upload cap
    with streamlit_process() as server:
        with chromium_page(width=1280, height=900) as page:
            open_app(page, f"{server.url}/train?corpus=__upload__", heading=TRAIN)
            upload(page, train_file)
            page.get_by_text("Step 0: the text as raw bytes").wait_for(timeout=90_000)
            wait_idle(page, timeout=90_000)
            page.get_by_role("button", name="Next ▶").click()
            page.get_by_text("Merge 1", exact=True).first.wait_for(timeout=60_000)
            wait_idle(page, timeout=60_000)
            # A text over 200,000 characters trains in the session's own worker (remote_trainer), which
            # lives with its run: that one process, and no other (the counting processes are gone).
            (trainer,) = working(server.process.pid)

            open_app(page, f"{server.url}/vocab-lab", heading=LAB)
            upload(page, lab_file)
            millions = re.compile(
                r"Trained on \d,\d{3},\d{3} characters"
            )  # the upload, not the default texts
            page.get_by_text(millions).first.wait_for(timeout=180_000)
            wait_idle(page, timeout=60_000)
            assert working(server.process.pid) == [trainer]  # the lab's job processes are gone
            pool = everything(server.process.pid)  # the job runner's fork server, at least
            assert pool, "the lab's run should have gone through the job runner's fork server"
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=10)
        except Exception:
            pytest.fail("the server was still running 10 s after SIGTERM")
        deadline = time.monotonic() + 10
        while [p for p in pool if alive(p)] and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in pool if alive(p)]
        assert left == [], f"processes of the job runner left after SIGTERM: {left}"


def test_a_catastrophic_custom_regex_gives_a_message_and_leaves_nothing_running():
    """(a|a)+$ on "a" * 34 + "!" tries 2**34 ways to match: it is stopped, and the server goes quiet."""
    with streamlit_process() as server, chromium_page(width=1280, height=900) as page:
        open_app(page, f"{server.url}/train?corpus=__paste__&pattern=custom", heading=TRAIN)
        regex_box = page.get_by_label("Custom regex", exact=False)
        regex_box.fill("(a|a)+$")
        regex_box.press("Enter")
        wait_idle(page)
        text_box = page.locator('[data-testid="stSidebar"] textarea').first
        text_box.fill("a" * 34 + "!")
        text_box.press("Control+Enter")
        message = page.get_by_text("was stopped after 1.0 s on 35 characters", exact=False)
        message.first.wait_for(timeout=30_000)
        wait_idle(page)
        assert "simplify it" in message.first.inner_text()
        before = cpu_seconds(server.process.pid)
        page.wait_for_timeout(3000)
        used = cpu_seconds(server.process.pid) - before
        assert used < 1.0, (
            f"the server used {used:.1f} s of CPU in 3 s after the message: something still runs"
        )
        # A host sees what the server's threads do, and the server goes on (app.py: stack_dump).
        size = server.log.stat().st_size
        server.process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while b"Current thread" not in server.log.read_bytes()[size:] and time.monotonic() < deadline:
            time.sleep(0.1)
        dump = server.log.read_bytes()[size:].decode("utf-8", "replace")
        assert "Current thread" in dump and "File " in dump, dump[-2000:]
        assert server.process.poll() is None, "SIGUSR1 ended the server"


def test_a_million_character_paste_is_cut_at_the_box_limit_with_a_note_that_points_to_upload():
    """A 1 MB paste into the Train page's box took 93 s in the browser; the box now takes 100,000
    characters, at once, and says where the rest can go."""
    text = generated_text(1_000_000, seed=3)
    with streamlit_process() as server, chromium_page(width=1280, height=900) as page:
        open_app(page, f"{server.url}/train?corpus=__paste__", heading=TRAIN)
        box = page.locator('[data-testid="stSidebar"] textarea').first
        box.click()
        started = time.perf_counter()
        box.evaluate(PASTE, text)  # chromium took 90 s to insert it all; the page keeps 100,000
        box.press("Control+Enter")
        page.get_by_text("Step 0: the text as raw bytes").wait_for(timeout=30_000)
        note = page.get_by_text("holds at most 100,000 characters", exact=False).first
        note.wait_for(timeout=30_000)
        assert "upload it as a UTF-8 .txt file" in note.inner_text()
        seconds = time.perf_counter() - started
        assert box.evaluate("b => b.value.length") in (99_999, 100_000)  # UTF-16 units; no half emoji
        assert seconds < 30, f"the paste took {seconds:.0f} s to train"
