"""What a hostile student can send the pages, in AppTest: each gives a clear message, never a hang.

(The browser tests in ``tests/browser/test_hosting.py`` hold the same for big uploads and the
custom regex on the Train page, with the server's CPU and child processes.)
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

import bpe_core
from mergescope_ui.shared.html.safe_text import displayed
from mergescope_ui.tokenize import keys as tok_keys

ROOT = Path(__file__).resolve().parents[2]
CATASTROPHIC = "(a|a)+$"  # tries 2**34 ways to match the text below
EVIL_TEXT = "a" * 34 + "!"


def catastrophic_tokenizer_json() -> bytes:
    tok = bpe_core.train("hello world " * 5, vocab_size=260, pattern=r"\w+|\s+")
    with tempfile.TemporaryDirectory() as d:
        bpe_core.save_tokenizer(tok, d, formats=("hf-json",))
        data = json.loads((Path(d) / "tokenizer.json").read_text(encoding="utf-8"))
    data["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = CATASTROPHIC + r"|\w+|\s+"
    return json.dumps(data).encode()


def test_a_catastrophic_split_in_an_uploaded_tokenizer_json_is_stopped_on_the_tokenize_page():
    at = AppTest.from_file(str(ROOT / "pages" / "views" / "tokenize_page.py"), default_timeout=60)
    at.session_state[tok_keys.KIND] = "upload"
    at.session_state[tok_keys.TEXT] = "hello world"
    at.run()
    at.file_uploader(key=tok_keys.FILES).set_value(
        [("tokenizer.json", catastrophic_tokenizer_json(), "application/json")]
    ).run()
    assert not at.exception, at.exception
    at.session_state[tok_keys.TEXT] = EVIL_TEXT
    start = time.perf_counter()
    at.run()
    seconds = time.perf_counter() - start
    assert not at.exception, at.exception
    errors = " ".join(displayed(e.value) for e in at.error)  # as a reader sees the escaped message
    assert "was stopped after 1.0 s on 35 characters" in errors, errors
    assert seconds < 10, f"the page took {seconds:.1f} s"  # the limit is 1 s; the rest is a loaded machine


def test_a_full_paste_box_says_it_was_cut_and_points_to_upload_on_the_train_page_and_in_the_lab():
    from mergescope_ui.lab import keys as lab_keys
    from mergescope_ui.shared.inputs.upload_widgets import MAX_PASTE_CHARS
    from mergescope_ui.train import keys as train_keys

    full = ("low lower newest widest\n" * (MAX_PASTE_CHARS // 24 + 1))[:MAX_PASTE_CHARS]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.session_state[train_keys.SOURCE] = train_keys.PASTE
    at.session_state[train_keys.PASTED_TEXT] = full
    at.switch_page("pages/views/train.py").run()
    assert not at.exception, at.exception
    notes = " ".join(displayed(w.value) for w in at.warning)
    assert "holds at most 100,000 characters" in notes and "upload it as a UTF-8 .txt file" in notes, notes
    at.session_state[train_keys.PASTED_TEXT] = full[:-2]  # two short of the limit: no note
    at.run()
    assert not any("holds at most" in w.value for w in at.warning)
    at.session_state[lab_keys.PASTED] = full
    at.switch_page("pages/views/vocab-lab.py").run()
    assert not at.exception, at.exception
    assert any("holds at most 100,000 characters" in displayed(w.value) for w in at.warning)
