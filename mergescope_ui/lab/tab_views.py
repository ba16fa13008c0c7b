"""The lab's tabs: compression curves, per-script curves, the table of sizes, the speed lesson."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from bpe_core.analysis import SizeRow
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape

from . import keys
from .charts import METRIC_TITLES, compression_chart, gain_chart, script_chart
from .compute import LabResult
from .compute_view import LabRun
from .inputs import LabInputs
from .speed import speed_lesson
from .tables import (
    coinciding,
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
BOTH = "__both__"  # the per-script chart shows every text
# One precision for the summary's ratios (not 5.081 above 11.5).
RATIOS = {c: st.column_config.NumberColumn(format="%.2f") for c in ("bytes/token", "chars/token")}


def tabs(inputs: LabInputs, run: LabRun) -> None:
    """The four tabs (under the run's headline), charts in presenter sizes when presenter mode is on."""
    large = bool(st.session_state.get(shared_keys.PRESENTER, False))
    with run.area:
        curves_tab, scripts_tab, table_tab, speed_tab = st.tabs(TAB_NAMES)
        with curves_tab:
            _curves(run.result, run.references, large)
        with scripts_tab:
            _scripts(run.result, large)
        with table_tab:
            _table(run.result, run.references)
        with speed_tab:
            speed_lesson(inputs.train, inputs.settings)


def _measure(radio: Callable[..., str], key: str, metrics: list[str]) -> str:
    """A chart's metric (``radio``: ``st.radio`` or a column's), the first of ``metrics`` to start with."""
    return radio(
        "Measure",
        metrics,
        key=key,
        horizontal=True,
        format_func=METRIC_TITLES.__getitem__,
        persist_state="session",
    )


def _curves(result: LabResult, references: tuple[SizeRow, ...], large: bool) -> None:
    run = result.run
    st.subheader("Compression vs vocab size")
    metric = _measure(st.radio, keys.CURVE_METRIC, ["bytes_per_token", "chars_per_token"])
    points = reference_frame(references) if references else None
    frame = compression_frame(run, plot_points(run))
    st.altair_chart(compression_chart(frame, metric=metric, large=large, points=points), width="stretch")
    same = coinciding(frame, metric=metric)
    st.caption(
        "Higher is better compression. The training text is the wide line, the held-out text the dashed "
        "one over it: where it falls below, the later merges fit the training text more than text in "
        "general. Grey rules: 512, 4096, 32768."
        + (
            f" Here the {md_escape(', '.join(same))} line lies on the training line (within 1%): both are "
            "drawn, one over the other."
            if same
            else ""
        )
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
    st.session_state.setdefault(keys.SCRIPT_TEXT, BOTH)
    name = c1.selectbox(
        "Text",
        [BOTH, *curves],
        key=keys.SCRIPT_TEXT,
        persist_state="session",
        format_func=lambda n: "train and held-out (dashed)" if n == BOTH else n,
    )
    metric = _measure(c2.radio, keys.SCRIPT_METRIC, ["chars_per_token", "bytes_per_token"])
    shown = list(curves.values()) if name == BOTH else [curves[name]]
    ks = plot_points(run)
    data = pd.concat([script_frame(c, run, ks) for c in shown], ignore_index=True)
    if data["script"].nunique() < 2:
        st.info(
            f"The {md_escape(name if name != BOTH else 'training and held-out')} text is (nearly) all one "
            "script; mix scripts to compare them (e.g. English training text with the Chinese corpus as "
            "held-out)."
        )
    st.altair_chart(script_chart(data, metric=metric, large=large), width="stretch")
    st.caption(
        "Colour: the script; solid: the training text, dashed: the held-out text. Each token counts for "
        "the script of its first character; spaces and punctuation count for the script next to them. "
        "A tokenizer trained mostly on one language gives other scripts fewer characters per token: the "
        "same sentence costs them more tokens."
    )
    for curve in shown:
        if len(shown) > 1:
            st.markdown(f"**{md_escape(curve.name)} text** after all {run.merges:,} merges")
        st.dataframe(
            script_summary(curve, run.merges),
            hide_index=True,
            width="stretch",
            column_config=RATIOS,
        )


def _table(result: LabResult, references: tuple[SizeRow, ...]) -> None:
    st.subheader("Table of sizes")
    rows = (*result.rows, *references)
    st.dataframe(size_frame(rows), hide_index=True, width="stretch")
    if result.left_out:
        final = result.run.vocab_size(result.run.merges)
        st.caption(
            f"Training stopped at vocab size {final:,}, so there is no row for "
            + ", ".join(f"{s:,}" for s in result.left_out)
            + " (it would repeat the final tokenizer): raise the vocab size in the settings to train "
            "that far."
        )
    st.caption(
        "The character baseline's vocab is the "
        "distinct characters of the training text; round trips encode and decode random characters drawn "
        "from each text."
    )
    st.download_button(
        "⬇️ Download the table (CSV)", data=size_csv(rows), file_name="vocab_size_lab.csv", mime="text/csv"
    )
