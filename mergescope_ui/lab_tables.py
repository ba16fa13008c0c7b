"""The lab page's tables and altair charts (pure: results in, DataFrames and charts out; no Streamlit).

Curves can have 32,768 points per text; every chart row goes to the browser,
so the curves are sampled at a few hundred vocab sizes (always including the
lessons' sizes and both ends), and the per-merge gains are averaged in bins.

>>> from bpe_core.compression_curve import compression_curve
>>> run = compression_curve("low lower lowest " * 5, vocab_size=270, heldout={"held-out": "lowest low"})
>>> df = compression_frame(run, plot_points(run))
>>> sorted(df["text"].unique()), int(df["vocab_size"].min()), int(df["vocab_size"].max())
(['held-out', 'train'], 256, 263)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import pandas as pd

from bpe_core.compression_curve import CompressionCurve, TextCurve
from bpe_core.metrics import LESSON_SIZES, SizeRow
from bpe_core.scripts import SPACE_PUNCT, SPECIAL

NOT_SCRIPTS = frozenset({SPACE_PUNCT, SPECIAL})
MAX_POINTS = 400
MAX_GAIN_BARS = 500
TEXT_COLORS = ["#1c7ed6", "#e8590c", "#2f9e44", "#ae3ec9", "#f59f00"]


def plot_points(
    run: CompressionCurve, *, max_points: int = MAX_POINTS, marks: Sequence[int] = LESSON_SIZES
) -> list[int]:
    """Merge counts ``k`` to plot: all when few, else about ``max_points`` spread evenly on a log scale of vocab size.

    >>> from bpe_core.compression_curve import compression_curve
    >>> run = compression_curve("ab " * 50, vocab_size=300)
    >>> plot_points(run)
    [0, 1, 2]
    """
    K = run.merges
    if max_points >= K + 1:
        return list(range(K + 1))
    base = run.base_vocab
    low, high = math.log(base), math.log(base + K)
    ks = {0, K}
    for i in range(max_points):
        ks.add(min(K, round(math.exp(low + (high - low) * i / (max_points - 1))) - base))
    ks.update(m - base for m in marks if 0 <= m - base <= K)
    return sorted(k for k in ks if 0 <= k <= K)


def compression_frame(run: CompressionCurve, ks: Sequence[int]) -> pd.DataFrame:
    """Long table ``text, merges, vocab_size, tokens, bytes_per_token, chars_per_token`` for every curve at ``ks``."""
    rows = []
    for curve in (run.train, *run.heldout):
        for k in ks:
            t = curve.at(k)
            rows.append(
                {
                    "text": curve.name,
                    "merges": k,
                    "vocab_size": run.vocab_size(k),
                    "tokens": t,
                    "bytes_per_token": curve.bytes / t if t else 0.0,
                    "chars_per_token": curve.chars / t if t else 0.0,
                }
            )
    return pd.DataFrame(
        rows, columns=["text", "merges", "vocab_size", "tokens", "bytes_per_token", "chars_per_token"]
    )


def gain_frame(run: CompressionCurve, *, max_bars: int = MAX_GAIN_BARS) -> pd.DataFrame:
    """Tokens saved by each merge on the training text: one row per merge, or per bin of merges when many.

    Columns ``first_step, last_step, gain`` (the bin's mean) and ``max_gain``.

    >>> from bpe_core.compression_curve import compression_curve
    >>> gain_frame(compression_curve("aaabdaaabac", vocab_size=259, pattern="none", tie_break="lowest-id"))["gain"].tolist()
    [2.0, 2.0, 2.0]
    """
    gains = run.gains
    if not gains:
        return pd.DataFrame(columns=["first_step", "last_step", "gain", "max_gain"])
    width = max(1, math.ceil(len(gains) / max_bars))
    rows = []
    for start in range(0, len(gains), width):
        part = gains[start : start + width]
        rows.append(
            {
                "first_step": start + 1,
                "last_step": start + len(part),
                "gain": sum(part) / len(part),
                "max_gain": max(part),
            }
        )
    return pd.DataFrame(rows)


def script_frame(
    curve: TextCurve, run: CompressionCurve, ks: Sequence[int], *, min_share: float = 0.005
) -> pd.DataFrame:
    """Per-script ``bytes_per_token`` and ``chars_per_token`` of one text at ``ks``.

    Scripts with under ``min_share`` of the text's characters are left out
    (a handful of characters make a noisy line), and so are the categories
    that are not scripts (``space & punctuation``, ``special tokens``; the
    summary table keeps them).
    """
    rows = []
    for cat, tokens in curve.script_tokens.items():
        chars = curve.script_chars.get(cat, 0)
        nbytes = curve.script_bytes.get(cat, 0)
        if cat in NOT_SCRIPTS or (curve.chars and chars / curve.chars < min_share):
            continue
        for k in ks:
            t = tokens[min(k, len(tokens) - 1)]
            rows.append(
                {
                    "script": cat,
                    "merges": k,
                    "vocab_size": run.vocab_size(k),
                    "tokens": t,
                    "chars": chars,
                    "bytes_per_token": nbytes / t if t else 0.0,
                    "chars_per_token": chars / t if t else 0.0,
                }
            )
    return pd.DataFrame(
        rows,
        columns=["script", "merges", "vocab_size", "tokens", "chars", "bytes_per_token", "chars_per_token"],
    )


def script_summary(curve: TextCurve, k: int) -> pd.DataFrame:
    """One row per category after ``k`` merges: characters, bytes, tokens, bytes/token, chars/token."""
    rows = []
    for cat, tokens in curve.script_tokens.items():
        t = tokens[min(k, len(tokens) - 1)]
        chars, nbytes = curve.script_chars.get(cat, 0), curve.script_bytes.get(cat, 0)
        rows.append(
            {
                "script": cat,
                "characters": chars,
                "bytes": nbytes,
                "tokens": t,
                "bytes/token": round(nbytes / t, 3) if t else 0.0,
                "chars/token": round(chars / t, 3) if t else 0.0,
            }
        )
    return pd.DataFrame(rows).sort_values("characters", ascending=False, kind="stable").reset_index(drop=True)


SIZE_COLUMNS = [
    "tokenizer",
    "vocab size asked",
    "vocab size",
    "merges",
    "text",
    "tokens",
    "bytes/token",
    "chars/token",
    "tokens/word",
    "OOV rate %",
    "round-trip %",
]


def size_frame(rows: Sequence[SizeRow]) -> pd.DataFrame:
    """The table of sizes as a DataFrame (rates in percent)."""
    return pd.DataFrame(
        [
            {
                "tokenizer": r.tokenizer,
                "vocab size asked": r.requested_vocab,
                "vocab size": r.vocab_size,
                "merges": r.merges,
                "text": r.text,
                "tokens": r.compression.tokens,
                "bytes/token": round(r.compression.bytes_per_token, 3),
                "chars/token": round(r.compression.chars_per_token, 3),
                "tokens/word": round(r.compression.tokens_per_word, 3),
                "OOV rate %": round(100 * r.oov_rate, 3),
                "round-trip %": round(100 * r.round_trip_rate, 3),
            }
            for r in rows
        ],
        columns=SIZE_COLUMNS,
    )


def size_csv(rows: Sequence[SizeRow]) -> bytes:
    """The table of sizes as UTF-8 CSV with unrounded figures."""
    table = pd.DataFrame(
        [
            {
                "tokenizer": r.tokenizer,
                "vocab_size_asked": r.requested_vocab,
                "vocab_size": r.vocab_size,
                "merges": r.merges,
                "text": r.text,
                "tokens": r.compression.tokens,
                "bytes": r.compression.bytes,
                "chars": r.compression.chars,
                "words": r.compression.words,
                "bytes_per_token": r.compression.bytes_per_token,
                "chars_per_token": r.compression.chars_per_token,
                "tokens_per_word": r.compression.tokens_per_word,
                "oov_rate": r.oov_rate,
                "round_trip_rate": r.round_trip_rate,
            }
            for r in rows
        ]
    )
    return table.to_csv(index=False).encode("utf-8")


def human_duration(seconds: float) -> str:
    """A duration in the largest fitting unit.

    >>> human_duration(0.0123), human_duration(95), human_duration(3 * 86400), human_duration(4e9)
    ('12 ms', '1.6 min', '3.0 days', '127 years')
    """
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            value = seconds / size
            return f"{value:,.0f} {unit}" if value >= 100 else f"{value:.1f} {unit}"
    return f"{seconds:.1f} s"


# ----- charts --------------------------------------------------------------------------

METRIC_TITLES = {"bytes_per_token": "bytes per token", "chars_per_token": "characters per token"}


def _axis_sizes(large: bool) -> tuple[int, int]:
    return (18, 20) if large else (12, 13)


def reference_frame(rows: Sequence[SizeRow]) -> pd.DataFrame:
    """Loaded tokenizers as chart points: ``tokenizer, text, vocab_size, tokens, bytes_per_token, chars_per_token``."""
    return pd.DataFrame(
        [
            {
                "tokenizer": r.tokenizer,
                "text": r.text,
                "vocab_size": r.vocab_size,
                "tokens": r.compression.tokens,
                "bytes_per_token": r.compression.bytes_per_token,
                "chars_per_token": r.compression.chars_per_token,
            }
            for r in rows
        ],
        columns=["tokenizer", "text", "vocab_size", "tokens", "bytes_per_token", "chars_per_token"],
    )


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
    if metric not in METRIC_TITLES:
        raise ValueError(f"metric must be one of {list(METRIC_TITLES)}, not {metric!r}")
    label, title = _axis_sizes(large)
    texts = list(dict.fromkeys(data["text"]))
    x = alt.X(
        "vocab_size:Q",
        title="vocab size (log scale)",
        scale=alt.Scale(type="log", base=2),
        axis=alt.Axis(labelFontSize=label, titleFontSize=title),
    )
    lines = (
        alt.Chart(data)
        .mark_line(strokeWidth=3 if large else 2)
        .encode(
            x=x,
            y=alt.Y(
                f"{metric}:Q",
                title=METRIC_TITLES[metric],
                scale=alt.Scale(zero=False),
                axis=alt.Axis(labelFontSize=label, titleFontSize=title),
            ),
            color=alt.Color(
                "text:N",
                title=None,
                scale=alt.Scale(domain=texts, range=TEXT_COLORS[: len(texts)] or TEXT_COLORS),
                legend=alt.Legend(orient="bottom", labelFontSize=label),
            ),
            tooltip=[
                "text:N",
                "vocab_size:Q",
                "merges:Q",
                "tokens:Q",
                alt.Tooltip(f"{metric}:Q", format=".3f", title=METRIC_TITLES[metric]),
            ],
        )
    )
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
                shape=alt.Shape(
                    "tokenizer:N", title=None, legend=alt.Legend(orient="bottom", labelFontSize=label)
                ),
                tooltip=[
                    "tokenizer:N",
                    "text:N",
                    "vocab_size:Q",
                    "tokens:Q",
                    alt.Tooltip(f"{metric}:Q", format=".3f", title=METRIC_TITLES[metric]),
                ],
            )
        )
    return alt.layer(*layers).properties(height=360 if large else 300)


def gain_chart(data: pd.DataFrame, *, large: bool = False) -> alt.Chart:
    """Tokens saved per merge vs merge step (log y): the first merges save the most."""
    label, title = _axis_sizes(large)
    binned = bool(len(data)) and bool((data["last_step"] > data["first_step"]).any())
    y_title = "tokens saved (bin mean)" if binned else "tokens saved"
    return (
        alt.Chart(data)
        .mark_area(line={"color": "#e8590c"}, color="#ffd8a8", interpolate="step-after")
        .encode(
            x=alt.X(
                "first_step:Q", title="merge step", axis=alt.Axis(labelFontSize=label, titleFontSize=title)
            ),
            y=alt.Y(
                "gain:Q",
                title=y_title,
                scale=alt.Scale(type="symlog"),
                axis=alt.Axis(labelFontSize=label, titleFontSize=title),
            ),
            tooltip=[
                alt.Tooltip("first_step:Q", title="from step"),
                alt.Tooltip("last_step:Q", title="to step"),
                alt.Tooltip("gain:Q", format=",.1f", title="mean tokens saved"),
                alt.Tooltip("max_gain:Q", title="most saved"),
            ],
        )
        .properties(height=260 if large else 220)
    )


def script_chart(data: pd.DataFrame, *, metric: str = "chars_per_token", large: bool = False) -> alt.Chart:
    """``metric`` vs vocab size per script category of one text."""
    if metric not in METRIC_TITLES:
        raise ValueError(f"metric must be one of {list(METRIC_TITLES)}, not {metric!r}")
    label, title = _axis_sizes(large)
    return (
        alt.Chart(data)
        .mark_line(strokeWidth=3 if large else 2)
        .encode(
            x=alt.X(
                "vocab_size:Q",
                title="vocab size (log scale)",
                scale=alt.Scale(type="log", base=2),
                axis=alt.Axis(labelFontSize=label, titleFontSize=title),
            ),
            y=alt.Y(
                f"{metric}:Q",
                title=METRIC_TITLES[metric],
                axis=alt.Axis(labelFontSize=label, titleFontSize=title),
            ),
            color=alt.Color("script:N", title=None, legend=alt.Legend(orient="bottom", labelFontSize=label)),
            tooltip=[
                "script:N",
                "vocab_size:Q",
                "tokens:Q",
                "chars:Q",
                alt.Tooltip(f"{metric}:Q", format=".3f", title=METRIC_TITLES[metric]),
            ],
        )
        .properties(height=300 if large else 260)
    )
