"""No CSV the app writes holds a cell a spreadsheet would run as a formula (issue #29).

Each download is built from hostile input and read back with the ``csv`` module: no cell starts with
``= + - @``, a tab or a CR, and each neutralised cell is the original text after one apostrophe.
"""

from __future__ import annotations

import csv
import io

import bpe_core
from bpe_core.analysis.metrics import Compression, SizeRow
from bpe_core.byte_level import readable
from mergescope_ui.lab.tables import size_csv
from mergescope_ui.shared.html.csv_cells import FORMULA_STARTS, safe_cell
from mergescope_ui.train.tables import merges_csv

LINK = '=HYPERLINK("http://example.com","open")'
HOSTILE = (LINK, "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx")


def cells(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def no_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS) or _is_number(cell), (cell, row)


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_the_train_pages_merges_csv_has_no_live_formula() -> None:
    text = (LINK + " " + "+1+1 -2+3 @SUM(A1)\t=x\r=y ") * 30
    steps = list(bpe_core.train_steps(text, vocab_size=256 + 100, pattern="whitespace"))
    rows = cells(merges_csv(steps))
    header, body = rows[0], rows[1:]
    no_formula(rows)
    token = header.index("token")
    labels = [readable(s.token) for s in steps]
    risky = [lab for lab in labels if lab.startswith(FORMULA_STARTS)]
    assert LINK in labels and len(risky) >= 5  # the training made the cells the test is about
    assert [r[token] for r in body] == [safe_cell(lab) for lab in labels]
    assert [bytes.fromhex(r[header.index("token_hex")]) for r in body] == [s.token for s in steps]


def test_the_labs_size_csv_has_no_live_formula() -> None:
    squeeze = Compression(tokens=10, bytes=40, chars=40, words=8)
    rows = [
        SizeRow(name, 300, 300, 44, text, squeeze, -0.0, 1.0)
        for name in (*HOSTILE, "byte-level BPE")
        for text in ("=cmd|' /C calc'!A0", "lighthouse")
    ]
    back = cells(size_csv(rows))
    no_formula(back)
    header, body = back[0], back[1:]
    assert [r[header.index("tokenizer")] for r in body] == [safe_cell(r.tokenizer) for r in rows]
    assert [r[header.index("text")] for r in body] == [safe_cell(r.text) for r in rows]
    assert body[0][header.index("tokenizer")] == "'" + LINK
    assert body[-1][header.index("tokenizer")] == "byte-level BPE"
