"""The lab's altair charts, drawn from the frames of :mod:`mergescope_ui.lab.tables` (pure; no Streamlit).

>>> import pandas as pd
>>> data = pd.DataFrame({"text": ["train"], "merges": [0], "vocab_size": [256], "tokens": [9],
...                      "bytes_per_token": [1.0], "chars_per_token": [1.0]})
>>> spec = compression_chart(data).to_dict()
>>> spec["layer"][0]["mark"]["type"], [layer["mark"]["type"] for layer in spec["layer"][1]["layer"]]
('rule', ['line', 'line'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import pandas as pd

from bpe_core.analysis import LESSON_SIZES

TEXT_COLORS = ["#1c7ed6", "#e8590c", "#2f9e44", "#ae3ec9", "#f59f00"]
DASHES = [[1, 0], [7, 4], [2, 3], [10, 3, 2, 3], [4, 2]]  # train solid, the others dashed
SCRIPT_HEIGHT, SCRIPT_HEIGHT_LARGE = 420, 560

METRIC_TITLES = {"bytes_per_token": "bytes per token", "chars_per_token": "characters per token"}


def _axis_sizes(large: bool) -> tuple[int, int]:
    return (18, 20) if large else (12, 13)


def _axis(large: bool) -> alt.Axis:
    label, title = _axis_sizes(large)
    return alt.Axis(labelFontSize=label, titleFontSize=title)


def _legend(large: bool, **more: Any) -> alt.Legend:
    return alt.Legend(orient="bottom", labelFontSize=_axis_sizes(large)[0], **more)


def _log_x(metric: str, large: bool) -> alt.X:
    """The vocab size axis (log scale) of a chart of ``metric`` (checked)."""
    if metric not in METRIC_TITLES:
        raise ValueError(f"metric must be one of {list(METRIC_TITLES)}, not {metric!r}")
    log = alt.Scale(type="log", base=2)
    return alt.X("vocab_size:Q", title="vocab size (log scale)", scale=log, axis=_axis(large))


def _tip(metric: str) -> alt.Tooltip:
    return alt.Tooltip(f"{metric}:Q", format=".3f", title=METRIC_TITLES[metric])


def compression_chart(
    data: pd.DataFrame,
    *,
    metric: str = "bytes_per_token",
    large: bool = False,
    marks: Sequence[int] = LESSON_SIZES,
    points: pd.DataFrame | None = None,
) -> alt.LayerChart:
    """``metric`` vs vocab size (log scale), one line per text, grey rules at the lessons' sizes.

    ``points`` (see :func:`reference_frame`) adds loaded tokenizers as
    points at their own vocab size, colored by text, shaped by tokenizer.
    """
    x = _log_x(metric, large)
    texts = list(dict.fromkeys(data["text"]))
    # The first text (train) underneath and thicker, the others dashed on top: coinciding lines both show.
    width = 3 if large else 2
    base = alt.Chart(data).encode(
        x=x,
        y=alt.Y(f"{metric}:Q", title=METRIC_TITLES[metric], scale=alt.Scale(zero=False), axis=_axis(large)),
        color=alt.Color(
            "text:N",
            title=None,
            scale=alt.Scale(domain=texts, range=TEXT_COLORS[: len(texts)] or TEXT_COLORS),
            legend=_legend(large),
        ),
        tooltip=["text:N", "vocab_size:Q", "merges:Q", "tokens:Q", _tip(metric)],
    )
    first = texts[0] if texts else ""
    under = base.transform_filter(alt.datum.text == first).mark_line(strokeWidth=width * 2.5, opacity=0.55)
    over = base.transform_filter(alt.datum.text != first).mark_line(strokeWidth=width, strokeDash=DASHES[1])
    lines = alt.layer(under, over)
    top = data["vocab_size"].max() if len(data) else 0
    rules = pd.DataFrame({"vocab_size": [m for m in marks if m <= top]})
    marks_layer = alt.Chart(rules).mark_rule(color="#adb5bd", strokeDash=[4, 4]).encode(x="vocab_size:Q")
    layers = [marks_layer, lines]
    if points is not None and len(points):
        layers.append(
            alt.Chart(points)
            .mark_point(size=160 if large else 90, filled=True)
            .encode(
                x="vocab_size:Q",
                y=f"{metric}:Q",
                color=alt.Color("text:N"),
                shape=alt.Shape("tokenizer:N", title=None, legend=_legend(large)),
                tooltip=["tokenizer:N", "text:N", "vocab_size:Q", "tokens:Q", _tip(metric)],
            )
        )
    return alt.LayerChart(layer=layers).properties(height=360 if large else 300)


def gain_chart(data: pd.DataFrame, *, large: bool = False) -> alt.Chart:
    """Tokens saved per merge vs merge step (symlog y, named in its title): the first merges save the most.

    >>> frame = pd.DataFrame({"first_step": [1, 2], "last_step": [1, 2], "gain": [9.0, 2.0],
    ...                       "max_gain": [9, 2]})
    >>> gain_chart(frame).to_dict()["encoding"]["y"]["title"]
    'tokens saved (symlog scale)'
    """
    binned = bool(len(data)) and bool((data["last_step"] > data["first_step"]).any())
    # A symlog axis (log-like, and 0 has a place): its title says so, the numbers are not evenly spaced.
    y_title = "tokens saved, bin mean (symlog scale)" if binned else "tokens saved (symlog scale)"
    return (
        alt.Chart(data)
        .mark_area(line={"color": "#e8590c"}, color="#ffd8a8", interpolate="step-after")
        .encode(
            x=alt.X("first_step:Q", title="merge step", axis=_axis(large)),
            y=alt.Y("gain:Q", title=y_title, scale=alt.Scale(type="symlog"), axis=_axis(large)),
            tooltip=[
                alt.Tooltip("first_step:Q", title="from step"),
                alt.Tooltip("last_step:Q", title="to step"),
                alt.Tooltip("gain:Q", format=",.1f", title="mean tokens saved"),
                alt.Tooltip("max_gain:Q", title="most saved"),
            ],
        )
        .properties(height=260 if large else 220)
    )


SCRIPT_SHAPES = ["circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "star", "wedge"]


def script_chart(
    data: pd.DataFrame,
    *,
    metric: str = "chars_per_token",
    large: bool = False,
    marks: Sequence[int] = LESSON_SIZES,
) -> alt.LayerChart:
    """``metric`` vs vocab size per script category: colour and marker shape = script, dash = text (train
    solid), and each line named at its end, so no line is told apart by colour alone.

    The markers sit at the lessons' sizes ``marks`` and at both ends of each line.

    >>> frame = pd.DataFrame({"text": ["train"] * 4, "script": ["Latin", "Latin", "Han", "Han"],
    ...     "merges": [0, 9, 0, 9], "vocab_size": [256, 265] * 2, "tokens": [9, 5, 8, 4],
    ...     "chars": [9, 9, 8, 8],
    ...     "bytes_per_token": [1.0, 1.8, 1.0, 2.0], "chars_per_token": [1.0, 1.8, 1.0, 2.0]})
    >>> spec = script_chart(frame).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'point', 'text']
    >>> sorted(spec["layer"][1]["encoding"]) == ['color', 'shape', 'tooltip', 'x', 'y']
    True
    """
    x = _log_x(metric, large)
    texts = list(dict.fromkeys(data["text"])) if "text" in data else ["train"]
    scripts = list(dict.fromkeys(data["script"])) if "script" in data else []
    y = alt.Y(f"{metric}:Q", title=METRIC_TITLES[metric], axis=_axis(large))
    color = alt.Color("script:N", title=None, scale=alt.Scale(domain=scripts), legend=_legend(large))
    tooltip = ["text:N", "script:N", "vocab_size:Q", "tokens:Q", "chars:Q", _tip(metric)]
    dash = alt.StrokeDash(
        "text:N",
        title=None,
        scale=alt.Scale(domain=texts, range=DASHES[: len(texts)]),
        legend=_legend(large, symbolStrokeWidth=3),
    )
    lines = (
        alt.Chart(data)
        .mark_line(strokeWidth=3 if large else 2)
        .encode(x, y, color, strokeDash=dash, detail="text:N", tooltip=tooltip)
    )
    ends = data.groupby(["text", "script"], sort=False)["vocab_size"].transform
    marked = data[data["vocab_size"].isin(list(marks)) | (data["vocab_size"] == ends("min"))]
    marked = pd.concat([marked, data[data["vocab_size"] == ends("max")]]).drop_duplicates()
    shape = alt.Shape(
        "script:N",
        title=None,
        scale=alt.Scale(domain=scripts, range=SCRIPT_SHAPES[: max(len(scripts), 1)]),
        legend=_legend(large),
    )
    points = (
        alt.Chart(marked)
        .mark_point(size=110 if large else 60, filled=True, opacity=1)
        .encode(x, y, color, shape, tooltip=tooltip)
    )
    last = data[(data["text"] == texts[0]) & (data["vocab_size"] == ends("max"))] if len(data) else data
    names = (
        alt.Chart(last)
        .mark_text(align="left", dx=8, fontSize=_axis_sizes(large)[0], fontWeight="bold")
        .encode(x=x, y=y, text="script:N")
    )
    height = SCRIPT_HEIGHT_LARGE if large else SCRIPT_HEIGHT
    return alt.LayerChart(layer=[lines, points, names]).properties(height=height)
