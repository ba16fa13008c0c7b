"""CSV downloads that a spreadsheet opens as data, never as formulas (pure; no Streamlit).

A cell whose text starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a
carriage return) is run as a formula by Excel, LibreOffice and Google Sheets:
a merged token can be ``=HYPERLINK("http://…","open")``.  Following OWASP's
advice on CSV injection, :func:`safe_cell` puts an apostrophe before such a
text, which spreadsheets show as text; the rest of the token is unchanged, so
it stays readable.  Numbers are left as numbers (``-3`` is not a formula).
Every CSV the app writes goes through :func:`csv_bytes`.

>>> safe_cell('=HYPERLINK("http://x","open")')
'\\'=HYPERLINK("http://x","open")'
>>> [safe_cell(v) for v in ["+1", "-", "@sum", "\\tx", "\\rx", " =x", "a=b", "", -3, 2.5]]
["'+1", "'-", "'@sum", "'\\tx", "'\\rx", ' =x', 'a=b', '', -3, 2.5]
>>> import pandas as pd
>>> csv_bytes(pd.DataFrame({"token": ["=1+1", "the"], "count": [-2, 5]})).decode()
'"token","count"\\n"\\'=1+1",-2\\n"the",5\\n'
"""

from __future__ import annotations

import csv
from typing import TypeVar

import pandas as pd

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula (OWASP's list)."""

T = TypeVar("T")


def safe_cell(value: T) -> T | str:
    """``value`` with an apostrophe before it when it is a text a spreadsheet would run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_bytes(table: pd.DataFrame) -> bytes:
    """``table`` as UTF-8 CSV (no index), every text cell (and column name) passed through
    :func:`safe_cell` and quoted (a bare carriage return in a cell would end the row in a spreadsheet)."""
    safe = table.rename(columns=lambda c: safe_cell(c) if isinstance(c, str) else c)
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column]):  # text (object or str dtype), or mixed
            safe[column] = safe[column].map(safe_cell)
    return safe.to_csv(index=False, quoting=csv.QUOTE_NONNUMERIC).encode("utf-8")
