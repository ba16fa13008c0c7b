"""The lab's tables (pure: results in, DataFrames out; no Streamlit); the charts draw them (``lab.charts``).

Curves can have 32,768 points per text; every chart row goes to the browser,
so the curves are sampled at a few hundred vocab sizes (always including the
lessons' sizes and both ends), and the per-merge gains are averaged in bins.

>>> from bpe_core.analysis import compression_curve
>>> from bpe_core import TrainOptions
>>> options = TrainOptions(vocab_size=270)
>>> run = compression_curve("low lower lowest " * 5, options, heldout={"held-out": "lowest low"})
>>> df = compression_frame(run, plot_points(run))
>>> sorted(df["text"].unique()), int(df["vocab_size"].min()), int(df["vocab_size"].max())
(['held-out', 'train'], 256, 263)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pandas as pd

from bpe_core.analysis import LESSON_SIZES, SPACE_PUNCT, SPECIAL, CompressionCurve, SizeRow, TextCurve
from mergescope_ui.shared.html.csv_cells import csv_bytes

NOT_SCRIPTS = frozenset({SPACE_PUNCT, SPECIAL})
MAX_POINTS = 400
MAX_GAIN_BARS = 500


def plot_points(
    run: CompressionCurve, *, max_points: int = MAX_POINTS, marks: Sequence[int] = LESSON_SIZES
) -> list[int]:
    """Merge counts ``k`` to plot: all when few, else about ``max_points`` spread on a log scale of vocab.

    >>> from bpe_core import TrainOptions
    >>> from bpe_core.analysis import compression_curve
    >>> run = compression_curve("ab " * 50, TrainOptions(vocab_size=300))
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


CURVE_COLUMNS = ["text", "merges", "vocab_size", "tokens", "bytes_per_token", "chars_per_token"]
SCRIPT_COLUMNS = ["text", "script", "merges", "vocab_size", "tokens", "chars", *CURVE_COLUMNS[-2:]]


def _point(run: CompressionCurve, k: int, tokens: int, chars: int, nbytes: int) -> dict[str, object]:
    per = {
        "bytes_per_token": nbytes / tokens if tokens else 0.0,
        "chars_per_token": chars / tokens if tokens else 0.0,
    }
    return {"merges": k, "vocab_size": run.vocab_size(k), "tokens": tokens, **per}


def compression_frame(run: CompressionCurve, ks: Sequence[int]) -> pd.DataFrame:
    """Every curve at ``ks``, as a long table with :data:`CURVE_COLUMNS`."""
    rows = [
        {"text": c.name, **_point(run, k, c.at(k), c.chars, c.bytes)}
        for c in (run.train, *run.heldout)
        for k in ks
    ]
    return pd.DataFrame(rows, columns=CURVE_COLUMNS)


def gain_frame(run: CompressionCurve, *, max_bars: int = MAX_GAIN_BARS) -> pd.DataFrame:
    """Tokens saved by each merge on the training text: one row per merge, or per bin of merges when many.

    Columns ``first_step, last_step, gain`` (the bin's mean) and ``max_gain``.

    >>> from bpe_core.analysis import compression_curve
    >>> from bpe_core import TrainOptions
    >>> options = TrainOptions(vocab_size=259, pattern="none", tie_break="lowest-id")
    >>> run = compression_curve("aaabdaaabac", options)
    >>> gain_frame(run)["gain"].tolist()
    [2.0, 2.0, 2.0]
    """
    gains = run.gains
    columns = ["first_step", "last_step", "gain", "max_gain"]
    if not gains:
        return pd.DataFrame(columns=columns)
    width = max(1, math.ceil(len(gains) / max_bars))
    bins = [(start, gains[start : start + width]) for start in range(0, len(gains), width)]
    return pd.DataFrame([(s + 1, s + len(b), sum(b) / len(b), max(b)) for s, b in bins], columns=columns)


def script_frame(
    curve: TextCurve, run: CompressionCurve, ks: Sequence[int], *, min_share: float = 0.005
) -> pd.DataFrame:
    """Per-script ``bytes_per_token`` and ``chars_per_token`` of one text at ``ks``, without the
    scripts under ``min_share`` of the text's characters (a noisy line) and the categories that are not
    scripts (:data:`NOT_SCRIPTS`; the summary table keeps them)."""
    rows = []
    for cat, tokens in curve.script_tokens.items():
        chars = curve.script_chars.get(cat, 0)
        if cat in NOT_SCRIPTS or (curve.chars and chars / curve.chars < min_share):
            continue
        nbytes = curve.script_bytes.get(cat, 0)
        for k in ks:
            t = tokens[min(k, len(tokens) - 1)]
            rows.append(
                {"text": curve.name, "script": cat, "chars": chars, **_point(run, k, t, chars, nbytes)}
            )
    return pd.DataFrame(rows, columns=SCRIPT_COLUMNS)


def coinciding(data: pd.DataFrame, *, metric: str, tolerance: float = 0.01) -> list[str]:
    """The texts whose curve lies on the training text's (within ``tolerance``, relative) everywhere.

    >>> frame = pd.DataFrame({"text": ["train", "train", "held-out", "held-out"],
    ...                       "vocab_size": [256, 300, 256, 300], "m": [1.0, 2.0, 1.0, 2.01]})
    >>> coinciding(frame, metric="m"), coinciding(frame, metric="m", tolerance=0.001)
    (['held-out'], [])
    """
    texts = list(dict.fromkeys(data["text"]))
    if len(texts) < 2:
        return []
    train = data[data["text"] == texts[0]].set_index("vocab_size")[metric]
    out = []
    for name in texts[1:]:
        other = data[data["text"] == name].set_index("vocab_size")[metric]
        both = train.index.intersection(other.index)
        if len(both) and ((other[both] - train[both]).abs() <= tolerance * train[both].abs()).all():
            out.append(name)
    return out


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


SIZE_COLUMNS: dict[str, Callable[[SizeRow], object]] = {  # the table's columns (rates in percent)
    "tokenizer": lambda r: r.tokenizer,
    "vocab size asked": lambda r: r.requested_vocab,
    "vocab size": lambda r: r.vocab_size,
    "merges": lambda r: r.merges,
    "text": lambda r: r.text,
    "tokens": lambda r: r.compression.tokens,
    "bytes/token": lambda r: round(r.compression.bytes_per_token, 3),
    "chars/token": lambda r: round(r.compression.chars_per_token, 3),
    "tokens/word": lambda r: round(r.compression.tokens_per_word, 3),
    "OOV rate %": lambda r: round(100 * r.oov_rate, 3),
    "round-trip %": lambda r: round(100 * r.round_trip_rate, 3),
    "note": lambda r: f"training stopped at {r.vocab_size:,}" if r.vocab_size < r.requested_vocab else "",
}


def size_frame(rows: Sequence[SizeRow]) -> pd.DataFrame:
    """The table of sizes; a row asked for a bigger vocab than training reached says so in its note."""
    return pd.DataFrame(
        [{c: f(r) for c, f in SIZE_COLUMNS.items()} for r in rows], columns=list(SIZE_COLUMNS)
    )


CSV_FIGURES = ("tokens", "bytes", "chars", "words", "bytes_per_token", "chars_per_token", "tokens_per_word")


def size_csv(rows: Sequence[SizeRow]) -> bytes:
    """The table of sizes as UTF-8 CSV with unrounded figures (names that a spreadsheet would run as a
    formula start with an apostrophe: :mod:`mergescope_ui.shared.html.csv_cells`)."""
    table = pd.DataFrame(
        [
            {
                "tokenizer": r.tokenizer,
                "vocab_size_asked": r.requested_vocab,
                "vocab_size": r.vocab_size,
                "merges": r.merges,
                "text": r.text,
                **{name: getattr(r.compression, name) for name in CSV_FIGURES},
                "oov_rate": r.oov_rate,
                "round_trip_rate": r.round_trip_rate,
            }
            for r in rows
        ]
    )
    return csv_bytes(table)


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


def reference_frame(rows: Sequence[SizeRow]) -> pd.DataFrame:
    """Loaded tokenizers as chart points."""
    points = [
        (
            r.tokenizer,
            r.text,
            r.vocab_size,
            r.compression.tokens,
            r.compression.bytes_per_token,
            r.compression.chars_per_token,
        )
        for r in rows
    ]
    return pd.DataFrame(points, columns=["tokenizer", "text", "vocab_size", "tokens", *CURVE_COLUMNS[-2:]])
