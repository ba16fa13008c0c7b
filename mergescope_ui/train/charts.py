"""Altair chart builders (pure: no Streamlit), and per-step Vega-Lite specs from them.

Building and validating an altair chart costs tens of milliseconds, too much
for every Next.  So each chart is built once as a *template* whose data is a
named data set (``alt.NamedData``) and whose order comes from a data field,
then each step only drops its rows into a copy of the template's dict.  The
spec without its data is then the same at every step, so the browser updates
the drawn chart's data instead of building a new Vega view (about 25 ms of
the browser's time per Next for the pair chart).  The charts draw on a canvas
(:data:`CANVAS`): redrawing an SVG's nodes, then styling, laying out and
painting them, took the browser about twice as long at every step.

>>> import pandas as pd
>>> df = pd.DataFrame(
...     {"rank": [1, 2], "pair": ["a + a", "a + b"], "count": [4, 2], "status": ["chosen", "other"]}
... )
>>> spec = pair_count_spec(df)
>>> spec["layer"][0]["mark"]["type"], [row["legend"] for row in spec["datasets"][PAIRS_DATA]]
('bar', ['chosen pair', 'other pairs'])
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

import altair as alt
import pandas as pd

STATUS_DOMAIN = ["chosen", "tied", "other"]
STATUS_LEGEND = {"chosen": "chosen pair", "tied": "tied, not chosen", "other": "other pairs"}
STATUS_COLORS = ["#e8590c", "#f59f00", "#74c0fc"]
STATUS_MARK = {"chosen": " ← merged", "tied": " tie", "other": ""}
# Vega-Lite ``usermeta`` that Streamlit passes to vega-embed: draw on a canvas, not as SVG nodes.
CANVAS = {"embedOptions": {"renderer": "canvas"}}
PAIRS_DATA = "pairs"
TOKENS_DATA = "tokens_by_step"


def _font_sizes(large: bool) -> tuple[int, int]:
    """(axis label size, title size) for normal or presenter mode."""
    return (20, 22) if large else (13, 14)


def pair_count_chart(*, large: bool = False) -> alt.LayerChart:
    """Horizontal bars of pair counts, winner on top, reading rows from :data:`PAIRS_DATA`.

    Rows need ``rank``, ``pair``, ``count``, ``legend`` and ``label`` (see
    :func:`pair_count_rows`).  The chosen pair is orange, tied pairs amber
    with a "tie" mark, the rest blue; counts are printed at the bar ends.
    """
    label_size, title_size = _font_sizes(large)
    # Layers union their y domains; a sort by field survives that only with op "min", "max" or "count".
    base = alt.Chart(alt.NamedData(PAIRS_DATA)).encode(
        y=alt.Y(
            "pair:N",
            sort=alt.EncodingSortField(field="rank", op="min", order="ascending"),
            title=None,
            axis=alt.Axis(labelFontSize=label_size, labelLimit=260, labelFont="monospace"),
        ),
        x=alt.X(
            "count:Q",
            title="adjacent occurrences",
            axis=alt.Axis(labelFontSize=label_size, titleFontSize=title_size, tickMinStep=1),
        ),
        tooltip=[alt.Tooltip("pair:N"), alt.Tooltip("count:Q"), alt.Tooltip("legend:N", title="status")],
    )
    bars = base.mark_bar().encode(
        color=alt.Color(
            "legend:N",
            title=None,
            scale=alt.Scale(domain=[STATUS_LEGEND[s] for s in STATUS_DOMAIN], range=STATUS_COLORS),
            legend=alt.Legend(orient="bottom", labelFontSize=label_size, symbolSize=200 if large else 100),
        ),
    )
    text = base.mark_text(align="left", dx=4, fontSize=label_size).encode(text=alt.Text("label:N"))
    return alt.layer(bars, text).properties(height=alt.Step(38 if large else 24))


def pair_count_rows(table: pd.DataFrame, *, max_rows: int = 20) -> list[dict[str, Any]]:
    """The chart rows of a pair table (see :func:`mergescope_ui.train.tables.pair_table`)."""
    missing = {"rank", "pair", "count", "status"} - set(table.columns)
    if missing:
        raise ValueError(f"pair table lacks columns {sorted(missing)}; build it with tables.pair_table")
    rows = []
    for r in table.head(max_rows).to_dict("records"):
        status = r["status"]
        rows.append(
            r
            | {
                "count": int(r["count"]),
                "rank": int(r["rank"]),
                "legend": STATUS_LEGEND[status],
                "label": f"{int(r['count'])}{STATUS_MARK[status]}",
            }
        )
    return rows


def tokens_line_chart(*, large: bool = False) -> alt.LayerChart:
    """Corpus tokens after each step, a dot where ``current`` is true; rows from :data:`TOKENS_DATA`."""
    label_size, title_size = _font_sizes(large)
    axis = alt.Axis(labelFontSize=label_size, titleFontSize=title_size, tickMinStep=1, format=",d")
    base = alt.Chart(alt.NamedData(TOKENS_DATA))
    line = base.mark_line(color="#1c7ed6", strokeWidth=3 if large else 2).encode(
        x=alt.X(
            "step:Q",
            axis=alt.Axis(labelFontSize=label_size, titleFontSize=title_size, tickMinStep=1, format="d"),
        ),
        y=alt.Y("tokens:Q", title="corpus tokens", axis=axis, scale=alt.Scale(zero=False)),
        tooltip=["step:Q", "tokens:Q"],
    )
    dot = (
        base.mark_point(filled=True, size=220 if large else 110, color="#e8590c")
        .encode(
            x="step:Q",
            y="tokens:Q",
            tooltip=["step:Q", "tokens:Q"],
        )
        .transform_filter("datum.current")
    )
    return alt.layer(line, dot).properties(height=260 if large else 200)


@lru_cache(maxsize=8)
def _template(name: str, large: bool) -> dict[str, Any]:
    chart = pair_count_chart(large=large) if name == PAIRS_DATA else tokens_line_chart(large=large)
    return chart.to_dict() | {"usermeta": CANVAS}  # validated once per (chart, size)


def pair_count_spec(table: pd.DataFrame, *, large: bool = False, max_rows: int = 20) -> dict[str, Any]:
    """The pair chart as a Vega-Lite dict with this table's rows (for ``st.vega_lite_chart``)."""
    spec = copy.deepcopy(_template(PAIRS_DATA, large))
    rows = pair_count_rows(table, max_rows=max_rows)
    spec["datasets"] = {PAIRS_DATA: rows}
    return spec


def tokens_line_spec(series: pd.DataFrame, *, current_step: int, large: bool = False) -> dict[str, Any]:
    """The tokens-by-step chart as a Vega-Lite dict.

    ``series`` comes from :func:`mergescope_ui.train.tables.tokens_by_step`.
    """
    missing = {"step", "tokens"} - set(series.columns)
    if missing:
        raise ValueError(f"series lacks columns {sorted(missing)}; build it with tables.tokens_by_step")
    spec = copy.deepcopy(_template(TOKENS_DATA, large))
    rows = [
        {"step": int(s), "tokens": int(t), "current": int(s) == current_step}
        for s, t in zip(series["step"], series["tokens"])
    ]
    spec["datasets"] = {TOKENS_DATA: rows}
    return spec
