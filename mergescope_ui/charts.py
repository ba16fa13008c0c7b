"""Altair chart builders (pure: DataFrame in, chart out; no Streamlit).

>>> import pandas as pd
>>> df = pd.DataFrame({"pair": ["a + a", "a + b"], "count": [4, 2], "status": ["chosen", "other"]})
>>> spec = pair_count_chart(df).to_dict()
>>> spec["layer"][0]["mark"]["type"]
'bar'
"""

from __future__ import annotations

import altair as alt
import pandas as pd

STATUS_DOMAIN = ["chosen", "tied", "other"]
STATUS_LEGEND = {"chosen": "chosen pair", "tied": "tied, not chosen", "other": "other pairs"}
STATUS_COLORS = ["#e8590c", "#f59f00", "#74c0fc"]


def _font_sizes(large: bool) -> tuple[int, int]:
    """(axis label size, title size) for normal or presenter mode."""
    return (20, 22) if large else (13, 14)


def pair_count_chart(table: pd.DataFrame, *, large: bool = False, max_rows: int = 20) -> alt.Chart:
    """Horizontal bars of pair counts in table order (winner on top).

    ``table`` needs ``pair``, ``count`` and ``status`` (see
    :func:`mergescope_ui.tables.pair_table`).  The chosen pair is orange,
    tied pairs amber with a "tie" mark, the rest blue; counts are printed at
    the end of each bar.
    """
    missing = {"pair", "count", "status"} - set(table.columns)
    if missing:
        raise ValueError(f"pair table lacks columns {sorted(missing)}; build it with tables.pair_table")
    data = table.head(max_rows).copy()
    data["legend"] = data["status"].map(STATUS_LEGEND)
    data["mark"] = data["status"].map({"tied": " tie", "chosen": " ← merged"}).fillna("")
    label_size, title_size = _font_sizes(large)
    order = data["pair"].tolist()
    row = 38 if large else 24
    base = alt.Chart(data).encode(
        y=alt.Y("pair:N", sort=order, title=None, axis=alt.Axis(labelFontSize=label_size, labelLimit=260,
                                                              labelFont="monospace")),
        x=alt.X("count:Q", title="adjacent occurrences", axis=alt.Axis(labelFontSize=label_size,
                                                                      titleFontSize=title_size, tickMinStep=1)),
        tooltip=[alt.Tooltip("pair:N"), alt.Tooltip("count:Q"), alt.Tooltip("legend:N", title="status")],
    )
    bars = base.mark_bar().encode(
        color=alt.Color("legend:N", title=None,
                        scale=alt.Scale(domain=[STATUS_LEGEND[s] for s in STATUS_DOMAIN], range=STATUS_COLORS),
                        legend=alt.Legend(orient="bottom", labelFontSize=label_size, symbolSize=200 if large else 100)),
    )
    text = base.mark_text(align="left", dx=4, fontSize=label_size).encode(
        text=alt.Text("label:N"),
    ).transform_calculate(label="datum.count + datum.mark")
    return alt.layer(bars, text).properties(height=alt.Step(row))


def tokens_line_chart(series: pd.DataFrame, *, current_step: int, large: bool = False) -> alt.Chart:
    """Corpus tokens after each step, with a dot on ``current_step``.

    ``series`` needs ``step`` and ``tokens`` (see
    :func:`mergescope_ui.tables.tokens_by_step`).
    """
    missing = {"step", "tokens"} - set(series.columns)
    if missing:
        raise ValueError(f"series lacks columns {sorted(missing)}; build it with tables.tokens_by_step")
    label_size, title_size = _font_sizes(large)
    data = series.assign(current=series["step"] == current_step)
    axis = alt.Axis(labelFontSize=label_size, titleFontSize=title_size)
    line = alt.Chart(data).mark_line(color="#1c7ed6", strokeWidth=3 if large else 2).encode(
        x=alt.X("step:Q", axis=alt.Axis(labelFontSize=label_size, titleFontSize=title_size, tickMinStep=1)),
        y=alt.Y("tokens:Q", title="corpus tokens", axis=axis, scale=alt.Scale(zero=False)),
        tooltip=["step:Q", "tokens:Q"],
    )
    dot = alt.Chart(data[data["current"]]).mark_point(filled=True, size=220 if large else 110, color="#e8590c").encode(
        x="step:Q", y="tokens:Q", tooltip=["step:Q", "tokens:Q"],
    )
    return alt.layer(line, dot).properties(height=260 if large else 200)
