"""The compact pair-count chart of the stage: the top pairs as HTML bars, chosen and tied ones marked (pure).

Long tokens are shortened in the middle (the whole pair in the tooltip); every label is escaped.

>>> from bpe_core import train_steps
>>> step = next(train_steps("low low lower", vocab_size=300, pattern="none", tie_break="lowest-id"))
>>> bars = pair_bars_html(step, rows=3)
>>> bars.count('class="ms-bar '), "ms-chosen" in bars, "Orange ◀: merged" in bars
(3, True, True)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping

from bpe_core import MergeStep
from bpe_core.byte_level import partial_note, readable
from mergescope_ui.shared.html.tokens import clip_apart, label_width

from .tables import pair_table, pairs_counted

PAIR_ROWS = 8  # pairs in the stage's chart; the full table below has them all
LABEL_COLUMNS = 7  # columns each half of a pair label may take
ROOMY_LABEL = 8  # a chosen pair's label up to this many columns leaves room for "merged" in a narrow column
# (HTML; {long} marks a "merged" that a narrow column drops, see BARS_CSS)
MARKS = {"chosen": '◀<span class="ms-bar-w{long}"> merged</span>', "tied": "tie", "other": ""}

BARS_CSS = """
<style>
.ms-bars{font-size:.95rem;container-type:inline-size;}
.ms-bars .ms-bars-h{font-weight:600;margin:.1rem 0 .3rem 0;line-height:1.3;}
.ms-bar{display:grid;grid-template-columns:minmax(0,max-content) minmax(1.5rem,1fr) minmax(0,max-content);
  gap:.4em;align-items:center;line-height:1.5;}
.ms-bar .ms-bar-l{font-family:ui-monospace,"DejaVu Sans Mono","Noto Sans Mono","Noto Sans CJK SC",monospace;
  display:flex;justify-content:flex-end;white-space:pre;min-width:0;}
/* Too narrow still: each half gives up room on its own (an ellipsis at its end), the + stays. */
.ms-bar .ms-bar-l > span{overflow:hidden;text-overflow:ellipsis;min-width:0;}
.ms-bar .ms-bar-l > .ms-bar-op{flex:none;}
.ms-bar .ms-bar-t{height:.9em;background:rgba(128,128,128,.12);border-radius:.2em;overflow:hidden;}
.ms-bar .ms-bar-f{display:block;height:100%;background:#74c0fc;border-radius:.2em;}
.ms-bar.ms-chosen .ms-bar-f{background:#e8590c;}
.ms-bar.ms-tied .ms-bar-f{background:#f59f00;}
.ms-bar.ms-chosen{font-weight:700;}
.ms-bar .ms-bar-n{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;
  font-variant-numeric:tabular-nums;}
.ms-bars .ms-bars-k{font-size:.85em;opacity:.75;margin-top:.2rem;}
/* A narrow column (presenter mode) and a long label: the label keeps the room, "merged" goes. */
@container (max-width: 18rem){.ms-bar .ms-bar-w.ms-bar-wlong{display:none;}}
</style>
"""


def pair_bars_html(
    step: MergeStep,
    *,
    rows: int = PAIR_ROWS,
    name_winner: bool = True,
    chars: Mapping[str, int] | None = None,
) -> str:
    """The top ``rows`` pairs of ``step``'s table (counted before its merge) as bars; with ``name_winner``
    off (step 0, or the quiz before a guess) no pair is marked as chosen or tied."""
    table = pair_table(step)
    shown = table.head(rows)
    top = max(int(shown["count"].max()), 1) if len(shown) else 1
    counted = pairs_counted(step)
    key = f"Top {len(shown)} of {counted:,} pairs (the table below the stage lists them all)."
    if counted <= len(shown):
        key = f"All {counted:,} pairs."
    if name_winner:
        tie = f"; amber: tied, not chosen ({step.tie_break} rule)"
        key += f" Orange ◀: merged{tie if step.tied else ''}."
    title = f"Pair counts before merge {step.index}" if name_winner else "Pair counts now"
    bars = []
    # (columns by name: a row of itertuples would have a field "count" hiding tuple.count)
    for rank, name, count, row_status in zip(shown["rank"], shown["pair"], shown["count"], shown["status"]):
        status = row_status if name_winner else "other"
        left, right = step.top_pairs[rank - 1].left, step.top_pairs[rank - 1].right
        halves = clip_apart([readable(left), readable(right)], LABEL_COLUMNS)
        long = " ms-bar-wlong" if sum(map(label_width, halves)) + 3 > ROOMY_LABEL else ""
        mark = MARKS[status].format(long=long)
        full = f"{name} · {int(count):,} adjacent occurrences"
        number = f"{int(count):,}{' ' + mark if mark else ''}"
        bars.append(bar_html(status, full, halves_html(halves), 100 * int(count) / top, number))
    # bytes of a character cut in two, tied to their character (at most three)
    tokens = [t for pc in step.top_pairs[: len(shown)] for t in (pc.left, pc.right)] if chars else []
    notes = list(dict.fromkeys(note for t in tokens if (note := partial_note(t, chars or {}, shown=1))))
    after = f'<div class="ms-bars-k ms-part">🧩 {html.escape(" · ".join(notes[:3]))}</div>' if notes else ""
    return bars_html(title, key, bars, after=after)


def bars_html(title: str, key: str, rows: Iterable[str], *, after: str = "") -> str:
    """A chart of bars: ``title`` (its tooltip repeats the ``key``: hidden in presenter mode when the stage
    is tight), the ``rows`` (:func:`bar_html`), the key, then ``after`` (HTML)."""
    key = html.escape(key)
    head = f'<div class="ms-bars"><div class="ms-bars-h" title="{key}">{html.escape(title)}</div>'
    return f'{head}{"".join(rows)}<div class="ms-bars-k">{key}</div>{after}</div>'


def bar_html(status: str, title: str, label: str, width: float, number: str) -> str:
    """One bar: its ``label`` and ``number`` (HTML), the bar ``width`` percent of the longest."""
    return (
        f'<div class="ms-bar ms-{status}" title="{html.escape(title)}"><span class="ms-bar-l">{label}</span>'
        f'<span class="ms-bar-t"><span class="ms-bar-f" style="width:{width:.1f}%"></span></span>'
        f'<span class="ms-bar-n">{number}</span></div>'
    )


def halves_html(halves: Iterable[str]) -> str:
    """A pair's label in a bar: each half shortens on its own, the + stays."""
    return '<span class="ms-bar-op"> + </span>'.join(f"<span>{html.escape(h)}</span>" for h in halves)
