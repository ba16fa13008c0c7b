"""The lab's tabs: compression curves, per-script curves, the table of sizes, the speed lesson."""

from __future__ import annotations

import streamlit as st

from bpe_core.analysis.metrics import SizeRow
from mergescope_ui.shared import keys as shared_keys

from . import keys
from .charts import compression_chart, gain_chart, script_chart
from .compute import LabResult
from .inputs import LabInputs
from .run import LabRun
from .speed import speed_lesson
from .tables import (
    compression_frame,
    gain_frame,
    plot_points,
    reference_frame,
    script_frame,
    script_summary,
    size_csv,
    size_frame,
)

TAB_NAMES = ["📉 Curves", "🌐 Per script", "📋 Table of sizes", "⏱ Speed lesson"]


def tabs(inputs: LabInputs, run: LabRun) -> None:
    """The four tabs, charts in presenter sizes when presenter mode is on."""
    large = bool(st.session_state.get(shared_keys.PRESENTER, False))
    curves_tab, scripts_tab, table_tab, speed_tab = st.tabs(TAB_NAMES)
    with curves_tab:
        _curves(run.result, run.references, large)
    with scripts_tab:
        _scripts(run.result, large)
    with table_tab:
        _table(run.result, run.references)
    with speed_tab:
        speed_lesson(inputs.train, inputs.settings)


def _curves(result: LabResult, references: tuple[SizeRow, ...], large: bool) -> None:
    run = result.run
    ks = plot_points(run)
    st.subheader("Compression vs vocab size")
    metric = st.radio(
        "Measure",
        ["bytes_per_token", "chars_per_token"],
        key=keys.CURVE_METRIC,
        horizontal=True,
        format_func={
            "bytes_per_token": "bytes per token",
            "chars_per_token": "characters per token",
        }.__getitem__,
        persist_state="session",
    )
    points = reference_frame(references) if references else None
    st.altair_chart(
        compression_chart(compression_frame(run, ks), metric=metric, large=large, points=points),
        width="stretch",
    )
    st.caption(
        "Higher is better compression. Where the held-out line falls below the training line, the "
        "later merges fit the training text more than text in general. Dashed lines: 512, 4096, 32768."
    )
    st.subheader("What each merge saves")
    st.altair_chart(gain_chart(gain_frame(run), large=large), width="stretch")
    st.caption(
        "Tokens removed from the training text by each merge (averaged over bins of merges when there "
        "are many). The first merges save the most; late merges save a handful each: growing the vocab "
        "has diminishing returns."
    )


def _scripts(result: LabResult, large: bool) -> None:
    run = result.run
    curves = {c.name: c for c in (run.train, *run.heldout)}
    st.subheader("Per script")
    c1, c2 = st.columns(2)
    # Default: the text that mixes the most scripts (where the fairness lesson shows).
    richest = max(
        range(len(curves)), key=lambda i: (len(script_frame(list(curves.values())[i], run, [0])), i)
    )
    name = c1.selectbox("Text", list(curves), key=keys.SCRIPT_TEXT, persist_state="session", index=richest)
    metric = c2.radio(
        "Measure",
        ["chars_per_token", "bytes_per_token"],
        key=keys.SCRIPT_METRIC,
        horizontal=True,
        format_func={
            "bytes_per_token": "bytes per token",
            "chars_per_token": "characters per token",
        }.__getitem__,
        persist_state="session",
    )
    curve = curves[name]
    data = script_frame(curve, run, plot_points(run))
    if data["script"].nunique() < 2:
        st.info(
            f"The {name} text is (nearly) all one script; mix scripts to compare them "
            "(e.g. English training text with the Chinese corpus as held-out)."
        )
    st.altair_chart(script_chart(data, metric=metric, large=large), width="stretch")
    st.caption(
        "Each token counts for the script of its first character; spaces and punctuation count for the "
        "script next to them. A tokenizer trained mostly on one language gives other scripts fewer "
        "characters per token: the same sentence costs them more tokens."
    )
    st.dataframe(script_summary(curve, run.merges), hide_index=True, width="stretch")


def _table(result: LabResult, references: tuple[SizeRow, ...]) -> None:
    st.subheader("Table of sizes")
    rows = (*result.rows, *references)
    st.dataframe(size_frame(rows), hide_index=True, width="stretch")
    st.caption(
        "Sizes past the end of training show the final tokenizer. The character baseline's vocab is the "
        "distinct characters of the training text; round trips encode and decode random characters drawn "
        "from each text."
    )
    st.download_button(
        "⬇️ Download the table (CSV)", data=size_csv(rows), file_name="vocab_size_lab.csv", mime="text/csv"
    )
