"""The Health tab: the chosen tokenizer's findings and self-test, as tables (see :mod:`.health`).

Every token reaches the page in a dataframe cell (text, never Markdown or HTML); the captions hold
numbers and the tokenizer's name through ``md_escape``.
"""

from __future__ import annotations

import streamlit as st

from bpe_core.analysis import FINDINGS, unused_tokens
from mergescope_ui.shared.html.csv_cells import csv_bytes
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.workers.cache import remember

from . import keys
from .health import KIND_TITLES, MAX_ROWS, Checked, checked, findings_table, selftest_table, summary_table
from .main_view import Shown
from .specs import Picked


def health_tab(picked: Picked, shown: Shown) -> None:
    """The findings of the tokenizer picked (unused: on the text above) and its self-test."""
    tok = picked.tokenizer
    if tok is None:
        st.info("Choose a tokenizer above to check its health.")
        return
    memo = st.session_state.setdefault(keys.HEALTH_MEMO, {})
    with st.spinner("Checking every token of the vocabulary and running the self-test…"):
        check: Checked = remember(memo, picked.identity, lambda: checked(tok), size=1)
    report = check.health
    result = shown.result
    unused = (
        unused_tokens(tok, result.ids, unreachable=[f.id for f in report.unreachable])
        if not result.error
        else None
    )
    st.caption(
        f"{md_escape(picked.label)}: {report.vocab_size:,} tokens checked. Each table lists a token's "
        "id, the token as its vocabulary writes it, the text it stands for and why it is listed."
    )
    st.dataframe(summary_table(report, unused=unused), hide_index=True, key=keys.HEALTH_SUMMARY)
    for kind in FINDINGS:
        found = unused if kind == "unused" else report.of(kind)
        if found is None:
            continue
        title, meaning = KIND_TITLES[kind]
        with st.expander(f"{title}: {len(found):,}", expanded=kind == "unreachable" and bool(found)):
            st.caption(meaning[0].upper() + meaning[1:] + ".")
            if kind == "unused":
                st.caption(f"The text above is {len(result.ids):,} tokens.")
            if not found:
                st.caption("None.")
                continue
            if len(found) > MAX_ROWS:
                st.caption(f"The first {MAX_ROWS:,} of {len(found):,}.")
            st.dataframe(findings_table(found), hide_index=True, key=keys.HEALTH_TABLE + kind)
    _selftest(check)


def _selftest(check: Checked) -> None:
    report = check.selftest
    st.subheader("Self-test", anchor=False)
    st.caption(
        "Hostile and edge-case texts, each encoded and decoded: seed 001's list, lone surrogates "
        "(replaced by U+FFFD), CRLF, ZWJ emoji, combining marks, 100,000 random characters in one "
        "piece, every special token. A case passes when the text comes back exactly."
    )
    failed = len(report.failed)
    if report.byte_level and failed:
        st.error(
            f"{failed:,} of {len(report.results)} cases do not come back: byte-level BPE must give "
            "every text back."
        )
    elif report.byte_level:
        st.success(f"All {len(report.results)} cases come back exactly, as byte-level BPE must.")
    else:
        st.info(
            f"{failed:,} of {len(report.results)} cases lose text: WordPiece and Unigram may, by design "
            "([UNK], white space, normalization); the last column says what and why."
        )
    table = selftest_table(report)
    st.dataframe(table, hide_index=True, key=keys.HEALTH_SELFTEST)
    st.download_button(
        "⬇ Download the self-test (.csv)",
        data=csv_bytes(table),
        file_name="mergescope_selftest.csv",
        mime="text/csv",
        key=keys.DOWNLOAD_SELFTEST,
        on_click="ignore",
    )
