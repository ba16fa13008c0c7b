"""The chart across vocabulary sizes, from :func:`~mergescope_ui.schemes.table.curve_frame` (pure; no
Streamlit): one line per scheme, each with its own marker shape and dash and its name at its last point,
so that it reads without colour.

>>> import pandas as pd
>>> data = pd.DataFrame({"scheme": ["WordPiece"] * 2, "text": ["held-out"] * 2, "vocab_size": [300, 500],
...                      "vocab_reached": [300, 480], "tokens": [9, 8], "chars_per_token": [2.0, 2.5],
...                      "bytes_per_token": [2.0, 2.5], "oov_pct": [0.0, 0.0], "round_trip_pct": [0.0, 0.0]})
>>> [layer["mark"]["type"] for layer in curve_chart(data).to_dict()["layer"]]
['line', 'point', 'text']
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from .compute import NAMES
from .table import METRICS

SCHEMES = list(NAMES.values())
COLORS = ["#1c7ed6", "#e8590c", "#2f9e44", "#7048e8"]
SHAPES = ["circle", "square", "triangle-up", "diamond"]
DASHES = [[1, 0], [7, 4], [2, 3], [10, 3, 2, 3]]


def curve_chart(
    data: pd.DataFrame, *, metric: str = "chars_per_token", text: str = "held-out", large: bool = False
) -> alt.LayerChart:
    """``metric`` on ``text`` against the vocabulary size asked."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {list(METRICS)}, not {metric!r}")
    label, title = (18, 20) if large else (12, 13)
    axis = alt.Axis(labelFontSize=label, titleFontSize=title)
    y_title = f"{METRICS[metric]}, {text} text"
    data = data[data["text"] == text]
    base = alt.Chart(data).encode(
        x=alt.X("vocab_size:Q", title="vocab size asked", axis=axis, scale=alt.Scale(zero=False)),
        y=alt.Y(f"{metric}:Q", title=y_title, axis=axis),
        color=alt.Color(
            "scheme:N",
            title=None,
            scale=alt.Scale(domain=SCHEMES, range=COLORS),
            legend=alt.Legend(orient="bottom", labelFontSize=label, symbolSize=120),
        ),
        tooltip=[
            "scheme:N",
            "vocab_size:Q",
            alt.Tooltip("vocab_reached:Q", title="vocab reached"),
            "tokens:Q",
            alt.Tooltip(f"{metric}:Q", format=".3f", title=METRICS[metric]),
        ],
    )
    width = 3 if large else 2
    lines = base.mark_line(strokeWidth=width).encode(
        strokeDash=alt.StrokeDash("scheme:N", scale=alt.Scale(domain=SCHEMES, range=DASHES), legend=None)
    )
    points = base.mark_point(size=140 if large else 80, filled=True, opacity=1).encode(
        shape=alt.Shape("scheme:N", scale=alt.Scale(domain=SCHEMES, range=SHAPES), legend=None)
    )
    names = (
        alt.Chart(label_places(data, metric))
        .mark_text(align="left", dx=8, fontSize=label, fontWeight="bold")
        .encode(
            x="vocab_size:Q",
            y=alt.Y("label_y:Q", title=y_title),  # the same title: shown once
            text="scheme:N",
            color=alt.Color("scheme:N", scale=alt.Scale(domain=SCHEMES, range=COLORS), legend=None),
        )
    )
    return alt.LayerChart(layer=[lines, points, names]).properties(height=460 if large else 340)


def label_places(data: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Each scheme's last point, with ``label_y``: its value, moved up just enough that no two names sit
    closer than a tenth of the chart's range (lines that end together keep their names apart).

    >>> d = pd.DataFrame({"scheme": ["A", "B", "C"], "vocab_size": [9, 9, 9], "m": [1.0, 1.01, 2.0]})
    >>> [round(y, 3) for y in label_places(d, "m")["label_y"]]
    [1.0, 1.1, 2.0]
    """
    last = data.sort_values("vocab_size").groupby("scheme", as_index=False).tail(1)
    last = last.sort_values(metric).copy()
    values = list(last[metric])
    span = (max(values) - min(values)) if values else 0.0
    gap = (span or 1.0) / 10
    places: list[float] = []
    for v in values:
        places.append(v if not places else max(v, places[-1] + gap))
    last["label_y"] = places
    return last
