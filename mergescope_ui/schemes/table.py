"""The comparison as pandas frames: the article's table, and the curve's points (pure; no Streamlit).

>>> from bpe_core.analysis import compare_schemes
>>> rows = compare_schemes("the cat sat on the mat.\\n" * 5, held_out="the bat sat.\\n", vocab_size=270)
>>> frame = scheme_table(rows)
>>> list(frame["scheme"][:2]), list(frame["text"][:2]), list(frame["round-trip %"][:4])
(['Byte-level BPE', 'Byte-level BPE'], ['training', 'held-out'], [100.0, 100.0, 100.0, 0.0])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from bpe_core.analysis import SchemeRow, TextFigures

from .compute import NAMES

TEXTS = ("training", "held-out")
METRICS = {
    "chars_per_token": "characters per token",
    "bytes_per_token": "bytes per token",
    "oov_pct": "OOV rate (% of tokens)",
    "round_trip_pct": "round-trip rate (% of lines)",
}


def _figures(row: SchemeRow) -> tuple[tuple[str, TextFigures | None], ...]:
    return (TEXTS[0], row.text), (TEXTS[1], row.held_out)


FIGURES: dict[str, Callable[[SchemeRow, TextFigures], object]] = {  # the table's columns of figures
    "vocab reached": lambda row, f: row.vocab_size,
    "tokens": lambda row, f: f.tokens,
    "bytes/token": lambda row, f: round(f.bytes_per_token, 3),
    "chars/token": lambda row, f: round(f.chars_per_token, 3),
    "OOV %": lambda row, f: round(100 * f.oov_rate, 2),
    "unknown chars": lambda row, f: f.unknown_chars,
    "round-trip %": lambda row, f: round(100 * f.round_trip_rate, 1),
    "spacing lost": lambda row, f: f.spacing,
    "chars changed": lambda row, f: f.changed,
    "train s": lambda row, f: round(row.train_seconds, 3),
}


def scheme_table(rows: Sequence[SchemeRow]) -> pd.DataFrame:
    """Two lines per scheme (training text, held-out text) of :data:`FIGURES`; a scheme that could not
    train has its reason in ``note``."""
    out = []
    for row in rows:
        for text, f in _figures(row):
            line: dict[str, object] = {"scheme": NAMES.get(row.model, row.model), "text": text}
            if f is None:
                line["note"] = row.error or ""
            else:
                line |= {column: figure(row, f) for column, figure in FIGURES.items()} | {"note": ""}
            out.append(line)
    return pd.DataFrame(out, columns=["scheme", "text", *FIGURES, "note"])


def curve_frame(rows: Sequence[SchemeRow]) -> pd.DataFrame:
    """One point per scheme, size asked and text (schemes that could not train at a size are left out).

    >>> from bpe_core.analysis import compare_schemes
    >>> rows = compare_schemes("ab ab ba\\n" * 4, held_out="ab\\n", vocab_size=100)
    >>> sorted(set(curve_frame(rows)["scheme"]))  # BPE needs 256 ids for its bytes
    ['Characters', 'Unigram', 'WordPiece']
    """
    out = []
    for row in rows:
        for text, f in _figures(row):
            if f is None:
                continue
            out.append(
                {
                    "scheme": NAMES.get(row.model, row.model),
                    "text": text,
                    "vocab_size": row.vocab_size_asked,
                    "vocab_reached": row.vocab_size,
                    "tokens": f.tokens,
                    "chars_per_token": f.chars_per_token,
                    "bytes_per_token": f.bytes_per_token,
                    "oov_pct": 100 * f.oov_rate,
                    "round_trip_pct": 100 * f.round_trip_rate,
                }
            )
    columns = ["scheme", "text", "vocab_size", "vocab_reached", "tokens", *METRICS]
    return pd.DataFrame(out, columns=columns)
