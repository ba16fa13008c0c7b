"""The tokens-by-step chart (altair, pure: no Streamlit), and its per-step Vega-Lite spec.

An altair chart costs tens of milliseconds to build, so it is built once on a named data set and each
step drops its rows into a copy: the browser updates the drawn chart's data instead of a new view.

>>> import pandas as pd
>>> spec = tokens_line_spec(pd.DataFrame({"step": [0, 1], "tokens": [10, 8]}), current_step=1)
>>> spec["layer"][0]["mark"]["type"], [row["current"] for row in spec["datasets"][TOKENS_DATA]]
('line', [False, True])
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

import altair as alt
import pandas as pd

# Vega-Lite ``usermeta`` that Streamlit passes to vega-embed: draw on a canvas, not as SVG nodes.
CANVAS = {"embedOptions": {"renderer": "canvas"}}
TOKENS_DATA = "tokens_by_step"


def tokens_line_chart(*, large: bool = False) -> alt.LayerChart:
    """Corpus tokens after each step, a dot where ``current`` is true; rows from :data:`TOKENS_DATA`."""
    label_size, title_size = (20, 22) if large else (13, 14)  # presenter mode's, or the page's

    def axis(numbers: str) -> alt.Axis:
        return alt.Axis(labelFontSize=label_size, titleFontSize=title_size, tickMinStep=1, format=numbers)

    base = alt.Chart(alt.NamedData(TOKENS_DATA))
    line = base.mark_line(color="#1c7ed6", strokeWidth=3 if large else 2).encode(
        x=alt.X("step:Q", axis=axis("d")),
        y=alt.Y("tokens:Q", title="corpus tokens", axis=axis(",d"), scale=alt.Scale(zero=False)),
        tooltip=["step:Q", "tokens:Q"],
    )
    dot = base.mark_point(filled=True, size=220 if large else 110, color="#e8590c").encode(
        x="step:Q", y="tokens:Q", tooltip=["step:Q", "tokens:Q"]
    )
    dot = dot.transform_filter("datum.current")
    return alt.LayerChart(layer=[line, dot]).properties(height=260 if large else 200)


@lru_cache(maxsize=4)
def _template(large: bool) -> dict[str, Any]:
    return tokens_line_chart(large=large).to_dict() | {"usermeta": CANVAS}  # validated once per size


def tokens_line_spec(series: pd.DataFrame, *, current_step: int, large: bool = False) -> dict[str, Any]:
    """The tokens-by-step chart of ``series`` (:func:`.tables.tokens_by_step`) as a Vega-Lite dict."""
    missing = {"step", "tokens"} - set(series.columns)
    if missing:
        raise ValueError(f"series lacks columns {sorted(missing)}; build it with tables.tokens_by_step")
    spec = copy.deepcopy(_template(large))
    rows = [
        {"step": int(s), "tokens": int(t), "current": int(s) == current_step}
        for s, t in zip(series["step"], series["tokens"])
    ]
    spec["datasets"] = {TOKENS_DATA: rows}
    return spec
