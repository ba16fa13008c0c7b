"""Tables built from merge records (pure pandas; no Streamlit).

>>> from bpe_core import train_steps
>>> steps = list(train_steps("aaabdaaabac", vocab_size=258, pattern="none", tie_break="lowest-id"))
>>> pair_table(steps[0])[["pair", "count", "chosen"]].head(2).to_dict("records")
[{'pair': 'a + a', 'count': 4, 'chosen': True}, {'pair': 'a + b', 'count': 2, 'chosen': False}]
>>> merges_table(steps)["token"].tolist()
['aa', 'ab']
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence

import pandas as pd

from bpe_core import MergeStep, PairCount
from bpe_core.byte_level import readable as label
from mergescope_ui.shared.html.csv_cells import csv_bytes

# A non-space byte followed by a whitespace byte: the token runs past the end of a word.
_CROSSES = re.compile(rb"[^\s][\s]")

PAIR_COLUMNS = ["rank", "pair", "left", "right", "left_id", "right_id", "count", "chosen", "tied", "status"]
MERGE_COLUMNS = [
    "step",
    "left",
    "right",
    "token",
    "id",
    "bytes",
    "count",
    "replaced",
    "tokens_after",
    "crosses_words",
]


def pair_label(left: bytes, right: bytes) -> str:
    """A pair as people read it: the readable labels (``bpe_core.byte_level.readable``) joined by ` + `.

    >>> pair_label(b" ", b"t"), pair_label(b"\\xe6", b"\\x9c")
    ('␣ + t', '<E6> + <9C>')
    """
    return f"{label(left)} + {label(right)}"


def crosses_word_boundary(token: bytes) -> bool:
    """True when ``token`` continues past the end of a word (``e␣``, ``the␣``, ``a b``).

    A leading space (``␣the``, GPT-2 style) does not count: pre-tokenizers allow it.

    >>> crosses_word_boundary(b"e "), crosses_word_boundary(b" the"), crosses_word_boundary(b"in the")
    (True, False, True)
    """
    return _CROSSES.search(token) is not None


def pair_table(step: MergeStep, every: Sequence[PairCount] | None = None) -> pd.DataFrame:
    """The pair-count table of ``step`` (before its merge), winner first: its top pairs, or ``every``
    pair when given (``Trainer.pair_table``).

    ``status`` is ``chosen``, ``tied`` (same count as the winner, not chosen) or ``other``; a label that
    would repeat gets a ``#rank`` suffix (each row stays its own bar in a chart).
    """
    ties = set(step.ties)
    source = step.top_pairs if every is None else every
    # a record names the first tied pairs only (records.ties_kept): the rest have the rule's count
    tie_at = None
    if step.tie_count > len(step.ties):
        tie_at = next((pc.count for pc in source if pc.pair == step.ties[0]), None)
    rows = []
    seen: set[str] = set()
    for rank, pc in enumerate(source, start=1):
        name = pair_label(pc.left, pc.right)
        if name in seen:
            name = f"{name} #{rank}"
        seen.add(name)
        chosen = pc.pair == step.pair
        tied = (pc.pair in ties or pc.count == tie_at) and not chosen
        status = "chosen" if chosen else "tied" if tied else "other"
        rows.append((rank, name, label(pc.left), label(pc.right), *pc.pair, pc.count, chosen, tied, status))
    return pd.DataFrame(rows, columns=PAIR_COLUMNS)


def pairs_counted(step: MergeStep) -> int:
    """How many distinct pairs ``step`` chose among (its top pairs' number for a record made without it)."""
    return max(step.distinct_pairs, len(step.top_pairs))


def merges_table(steps: Sequence[MergeStep]) -> pd.DataFrame:
    """One row per merge so far: the pair, the new token, its counts, a word-crossing flag."""
    rows = [
        (s.index, label(s.left), label(s.right), label(s.token), s.new_id, len(s.token), s.count, s.replaced)
        + (s.tokens_after, crosses_word_boundary(s.token))
        for s in steps
    ]
    return pd.DataFrame(rows, columns=MERGE_COLUMNS)


def longest_tokens(steps: Sequence[MergeStep], *, n: int = 10) -> pd.DataFrame:
    """The ``n`` longest tokens learned so far (by bytes; earlier merge first on a tie)."""
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    # Pick the rows first: a table of every merge so far, at every step, grew slower with each one.
    top = heapq.nsmallest(n, steps, key=lambda s: (-len(s.token), s.index))
    return merges_table(top)[["step", "token", "id", "bytes", "crosses_words"]]


def tokens_by_step(initial_tokens: int, steps: Sequence[MergeStep]) -> pd.DataFrame:
    """Corpus token count after each step, step 0 being the raw bytes."""
    return pd.DataFrame(
        {"step": [0, *(s.index for s in steps)], "tokens": [initial_tokens, *(s.tokens_after for s in steps)]}
    )


def merges_csv(steps: Sequence[MergeStep]) -> bytes:
    """The merges table as UTF-8 CSV, each token's bytes in hex too (a label a spreadsheet would run as a
    formula starts with an apostrophe: :mod:`mergescope_ui.shared.html.csv_cells`)."""
    table = merges_table(steps)
    table.insert(4, "token_hex", [s.token.hex() for s in steps])
    return csv_bytes(table)
