r"""The Health tab's tables: a tokenizer's findings and its self-test as pandas tables (pure; no Streamlit).

:func:`checked` runs the engine's :func:`~bpe_core.analysis.check_health` (without a text: the page's text
gives the unused tokens, :func:`~bpe_core.analysis.unused_tokens`, from the ids it has) and
:func:`~bpe_core.analysis.self_test` once per tokenizer; the tables hold every token as text (a
dataframe shows a cell as text, never as Markdown or HTML), bytes that are not whole characters as
``\xNN`` escapes.

>>> from bpe_core import train
>>> check = checked(train("hello world hello", vocab_size=260))
>>> summary_table(check.health, unused=None).to_dict("records")[0]["tokens"]
13
>>> summary_table(check.health, unused=None)["finding"].tolist()[:2]
['Unreachable', 'Not whole characters']
>>> findings_table(check.health.unreachable).to_dict("records")[0]
{'id': 192, 'token': 'À', 'text': '"\\xc0"', 'why': 'byte 0xC0 is in no UTF-8 text'}
>>> shown_text(" a\n\tb")
'" a\\n\\tb"'
>>> selftest_table(check.selftest).columns.tolist()
['case', 'characters', 'tokens', 'result', 'what is lost and why']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from bpe_core import SchemeTokenizer
from bpe_core.analysis import FINDINGS, SELF_TEST_COLUMNS, Finding, Health, SelfTest, check_health, self_test

KIND_TITLES = {
    "unreachable": (
        "Unreachable",
        "no text encodes to them (the reason names the merge or rule that prevents it)",
    ),
    "unused": ("Unused", "not in the encoding of the text above"),
    "partial_utf8": ("Not whole characters", "their bytes start or end inside a character"),
    "longest": ("Longest", "the longest tokens, in bytes"),
    "special_from_text": ("Special from plain text", "a text that holds their string gets the special token"),
    "duplicates": ("Duplicates", "NFKC normalization makes them equal to another token"),
}
"""Each finding's name on the page and what it means, in the order of :data:`~bpe_core.analysis.FINDINGS`."""
FINDING_COLUMNS = ("id", "token", "text", "why")
_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"}
MAX_ROWS = 5_000
"""The most rows a findings table shows (a 200,000-token vocabulary can have that many unused)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Checked:
    """A tokenizer's findings (``health``, with no text) and self-test."""

    health: Health
    selftest: SelfTest


def checked(tok: SchemeTokenizer) -> Checked:
    """The findings and the self-test of ``tok`` (seconds for a 200,000-token vocabulary)."""
    return Checked(health=check_health(tok), selftest=self_test(tok))


def summary_table(report: Health, *, unused: Sequence[Finding] | None) -> pd.DataFrame:
    """One row a kind of finding: its name, how many, what it means (``unused``: the page's text's;
    None: no row for it)."""
    rows = []
    for kind in FINDINGS:
        title, meaning = KIND_TITLES[kind]
        found = unused if kind == "unused" else report.of(kind)
        if found is not None:
            rows.append((title, len(found), meaning))
    return pd.DataFrame(rows, columns=["finding", "tokens", "what it means"])


def findings_table(findings: Sequence[Finding]) -> pd.DataFrame:
    """The first :data:`MAX_ROWS` findings: id, the token as its vocabulary writes it, the text it stands
    for (quoted, escapes for bytes that are not whole characters) and why."""
    shown = findings[:MAX_ROWS]
    return pd.DataFrame(
        [(f.id, f.piece, shown_text(f.token), f.why) for f in shown],
        columns=list(FINDING_COLUMNS),
    )


def shown_text(data: bytes | str) -> str:
    r"""A token's text in quotes, so its spaces show: line ends and tabs as ``\n`` ``\r`` ``\t``, bytes
    that are not whole characters as ``\xNN``."""
    text = data if isinstance(data, str) else data.decode("utf-8", "backslashreplace")
    return '"' + text.translate(_ESCAPES) + '"'


def selftest_table(report: SelfTest) -> pd.DataFrame:
    """The self-test's rows (one a case) under its columns."""
    return pd.DataFrame(report.rows(), columns=list(SELF_TEST_COLUMNS))
