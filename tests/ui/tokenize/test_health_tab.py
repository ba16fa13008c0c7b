"""The Tokenize page's Health tab (issue #43): the findings and the self-test of the tokenizer chosen,
as the engine computes them, every token in a dataframe cell (never Markdown), the self-test as CSV."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core import train
from bpe_core.analysis import check_health, self_test, unused_tokens
from mergescope_ui.shared.inputs.tokenizer_files import load_uploaded_any
from mergescope_ui.tokenize import keys
from mergescope_ui.tokenize.tab_views import TAB_NAMES
from tests.ui.test_markup import markdown_strings
from tests.ui.tokenize import scheme_files as sf

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "pages" / "views" / "tokenize_page.py")
HEALTH_TAB = next(t for t in TAB_NAMES if "Health" in t)
HOSTILE = "=HYPERLINK(1) <script>alert(1)</script> [x](http://evil.example) "
TEXT = "hugs pugs " + HOSTILE + "自然语言"


def _upload(name: str, data: bytes) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=90)
    at.session_state[keys.TEXT] = TEXT
    at.session_state[keys.KIND] = "upload"
    at.run()
    at.file_uploader(key=keys.FILES).set_value((name, data, "application/octet-stream")).run()
    at.session_state[keys.TABS] = HEALTH_TAB
    at.run()
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def bpe_files() -> tuple[str, bytes]:
    tok = train(HOSTILE * 20 + "hugs pugs 自然语言处理", vocab_size=320, pattern="none")
    with tempfile.TemporaryDirectory() as d:
        path = next(p for p in bpe_core.save_tokenizer(tok, d) if p.name == "tokenizer.json")
        return path.name, path.read_bytes()


def _table(at: AppTest, columns: str, title: str = "") -> pd.DataFrame:
    """The dataframe whose first column is ``columns``, inside the expander whose label starts with
    ``title`` when given."""
    blocks = [e for e in at.expander if e.label.startswith(title)] if title else [at]
    found = [df.value for b in blocks for df in b.dataframe if df.value.columns[0] == columns]
    assert len(found) == 1, (columns, title)
    value: pd.DataFrame = found[0]
    return value


def test_a_bpe_tokenizers_findings_and_self_test_are_the_engines(bpe_files):
    name, data = bpe_files
    tok = load_uploaded_any([(name, data)])
    at = _upload(name, data)
    report = check_health(tok)
    summary = _table(at, "finding")
    counts = dict(zip(summary["finding"], summary["tokens"]))
    assert counts["Unreachable"] == len(report.unreachable) == 13
    assert counts["Unused"] == len(unused_tokens(tok, tok.encode(TEXT))) > 0
    assert counts["Longest"] == len(report.longest)
    unreachable = _table(at, "id", "Unreachable")
    assert unreachable["id"].tolist() == [f.id for f in report.unreachable]
    longest = _table(at, "id", "Longest")
    assert longest["token"].tolist() == [f.piece for f in report.longest]  # as the vocabulary writes it
    assert any("<script>" in t or "HYPERLINK" in t for t in longest["text"])  # hostile tokens, as text
    selftest = _table(at, "case")
    assert selftest.values.tolist() == [list(r) for r in self_test(tok).rows()]
    assert set(selftest["result"]) == {"pass"}
    assert any("All" in s.value and "come back exactly" in s.value for s in at.success)
    (download,) = [
        b for b in at.get("download_button") if b.proto.id and keys.DOWNLOAD_SELFTEST in b.proto.id
    ]
    assert download.proto.label.startswith("⬇ Download the self-test")
    live = [m for m in markdown_strings(at) if "](http" in m or "![" in m]
    assert not live, live


def test_a_wordpiece_tokenizer_says_what_its_cases_lose():
    name, data = "vocab.txt", sf.bert_vocab()
    at = _upload(name, data)
    selftest = _table(at, "case")
    failed = selftest[selftest["result"] == "fail"]
    assert len(failed) > 3 and all(failed["what is lost and why"].str.len() > 10)
    assert any("[UNK]" in why for why in failed["what is lost and why"])
    assert any("WordPiece and Unigram may, by design" in i.value for i in at.info)


def test_the_self_test_csv_keeps_formulas_as_text():
    from mergescope_ui.shared.html.csv_cells import csv_bytes
    from mergescope_ui.tokenize.health import selftest_table

    tok = train("=SUM(1) " * 30, vocab_size=270, pattern="none", special_tokens=["=cmd|' /C calc'!A0"])
    table = pd.read_csv(io.BytesIO(csv_bytes(selftest_table(self_test(tok, random_chars=10)))))
    names = table["case"].tolist()
    assert "special token \"=cmd|' /C calc'!A0\"" in names
    assert not any(str(n).startswith("=") for n in names)
