"""Uploaded tokenizers load in a worker process and stay within the session's budget (AppTest)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from bpe_core import save_tokenizer, train
from mergescope_ui.shared.workers import job_wait
from mergescope_ui.shared.workers.jobs import runner
from mergescope_ui.tokenize import keys

PAGE = str(Path(__file__).resolve().parents[3] / "pages" / "views" / "tokenize_page.py")


def saved(vocab_size: int, text: str) -> tuple[bytes, int]:
    """A tokenizer.json's bytes, and its vocab size."""
    tok: Any = train(text * 20, vocab_size=vocab_size, pattern="gpt2")
    with tempfile.TemporaryDirectory() as d:
        return {p.name: p.read_bytes() for p in save_tokenizer(tok, d)}["tokenizer.json"], tok.vocab_size


def upload(at: AppTest, data: bytes) -> AppTest:
    return at.file_uploader(key=keys.FILES).set_value(("tokenizer.json", data, "application/json")).run()


def test_an_upload_loads_in_a_worker_and_one_past_the_sessions_budget_is_refused(monkeypatch):
    first, size = saved(400, "the cat sat on the mat, the dog sat on the log. ")
    second, _ = saved(300, "a different text for another tokenizer entirely. ")
    monkeypatch.setattr(job_wait, "SESSION_TOKENS", size + 100)
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state[keys.KIND] = "upload"
    at.session_state[keys.TEXT] = "the cat sat on the mat"
    at.run()
    before = runner().jobs()
    upload(at, first)
    assert not at.exception and not at.error
    assert any("Loaded tokenizer" in s.value for s in at.success), [s.value for s in at.success]
    assert len(runner().jobs()) == len(before)  # the job's record is forgotten once its page has it
    upload(at, second)
    assert not at.exception
    assert any(f"over its budget of {size + 100:,}" in e.value for e in at.error), [e.value for e in at.error]


def _pressed_cancel() -> None:
    """A page whose job's Cancel was pressed and whose waiting run saw the end first and forgot the job:
    the run the click starts must say "cancelled", not start the job again."""
    import streamlit as st

    from mergescope_ui.shared.workers import job_wait
    from mergescope_ui.shared.workers.jobs import Limits, runner
    from tests.ui.shared.test_jobs import forever

    job = runner().submit(forever, owner="a test")
    job_wait.stop(job, "forever")  # Cancel's callback, called before the run the click starts
    status = job_wait.run_job("forever", forever, label="Working", limits=Limits(seconds=5))
    st.write(f"{status.state} | {status.message} | {runner().status(job).state}")
    runner().forget(job)


def test_the_run_a_cancel_starts_says_cancelled_and_starts_nothing():
    before = len(runner().jobs())
    at = AppTest.from_function(_pressed_cancel, default_timeout=60).run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["cancelled | cancelled: the job was stopped | cancelled"]
    assert len(runner().jobs()) == before  # no job started again
