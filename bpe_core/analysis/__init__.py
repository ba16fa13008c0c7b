"""Analysis, the fifth stage: what a trained tokenizer does to texts, and why the fast trainer matters.

- :mod:`.curves`: :func:`compression_curve`, token counts after every number of merges, from one run;
- :mod:`.metrics`: compression, OOV and round-trip rates, the table of vocab sizes;
- :mod:`.scripts`: which writing system each character belongs to;
- :mod:`.data_split`: a held-out part of a corpus;
- :mod:`.speed_lesson`: the textbook and the fast trainer timed side by side;
- :mod:`.side_by_side`: two tokenizers compared (cuts, shared tokens, compression), for "What if?";
- :mod:`.schemes_table`: the four schemes trained on one text and measured side by side;
- :mod:`.health`: a tokenizer's health (unreachable, unused, partial and duplicate tokens...);
- :mod:`.selftest`: hostile and edge-case texts round-tripped, pass or fail, and what is lost.

The names below are the package's public ones (the UI imports them from here).
"""

from .curves import CompressionCurve, TextCurve, compression_curve
from .data_split import split_documents, split_fraction
from .health import FINDINGS, Finding, Health, check_health, unused_tokens
from .metrics import (
    DEFAULT_SAMPLES,
    LESSON_SIZES,
    Compression,
    SizeRow,
    oov_rate,
    round_trip,
    sample_chars,
    size_table,
)
from .schemes_table import SchemeRow, TextFigures, compare_schemes, measure
from .scripts import SPACE_PUNCT, SPECIAL
from .selftest import COLUMNS as SELF_TEST_COLUMNS
from .selftest import CaseResult, SelfTest, self_test
from .side_by_side import VocabComparison, align, compare_cuts, compare_made, compare_vocabs, compression
from .speed_lesson import GPT2_BYTES, GPT2_MERGES, SpeedLesson, time_trainers

__all__ = [
    "DEFAULT_SAMPLES",
    "FINDINGS",
    "GPT2_BYTES",
    "GPT2_MERGES",
    "LESSON_SIZES",
    "SELF_TEST_COLUMNS",
    "SPACE_PUNCT",
    "SPECIAL",
    "CaseResult",
    "Compression",
    "CompressionCurve",
    "Finding",
    "Health",
    "SchemeRow",
    "SelfTest",
    "SizeRow",
    "SpeedLesson",
    "TextCurve",
    "TextFigures",
    "VocabComparison",
    "align",
    "check_health",
    "compare_cuts",
    "compare_made",
    "compare_schemes",
    "compare_vocabs",
    "compression",
    "compression_curve",
    "measure",
    "oov_rate",
    "round_trip",
    "sample_chars",
    "self_test",
    "size_table",
    "split_documents",
    "split_fraction",
    "time_trainers",
    "unused_tokens",
]
