"""Small tables as escaped HTML (pure; for ``st.html``).

A static HTML table redraws much faster than ``st.dataframe`` (a canvas grid)
or ``st.table`` (markdown per cell), which matters when it changes at every
step.  Every cell and header is ``html.escape``-d.

>>> import pandas as pd
>>> table = html_table(pd.DataFrame({"pair": ["<a> + b"], "count": [3]}), row_classes=["ms-chosen"])
>>> print(table.replace("><", ">\\n<"))
<table class="ms-table">
<thead>
<tr>
<th>pair</th>
<th>count</th>
</tr>
</thead>
<tbody>
<tr class="ms-chosen">
<td>&lt;a&gt; + b</td>
<td class="ms-num">3</td>
</tr>
</tbody>
</table>
"""

from __future__ import annotations

import html
from collections.abc import Collection, Mapping, Sequence
from numbers import Number

import pandas as pd

from .styles import style
from .tokens import clip_apart, clip_label

TABLE_CSS = style("tables.css")


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "🚩" if value else ""
    return html.escape(str(value), quote=True)


PLUS = " + "  # between the two tokens of a pair cell (a token's own spaces show as ␣, never as " ")


def _td(value: object, clip: int | None, *, words: bool = False, short: str | None = None) -> str:
    if isinstance(value, Number) and not isinstance(value, bool):
        return f'<td class="ms-num">{_cell(value)}</td>'
    text = str(value)
    if clip and not isinstance(value, bool):
        short = clip_label(text, clip) if short is None else short
        if short != text:
            title = html.escape(f"{text} ({len(text)} characters)", quote=True)
            return f'<td title="{title}">{html.escape(short, quote=True)}</td>'
    return f'<td class="ms-word">{_cell(value)}</td>' if words else f"<td>{_cell(value)}</td>"


def html_table(
    table: pd.DataFrame,
    *,
    row_classes: Sequence[str] | None = None,
    wrap: bool = False,
    clip: Mapping[str, int] | None = None,
    apart: Sequence[str] = (),
    pairs: Collection[str] = (),
    name: str = "Table, scrolls",
) -> str:
    """``table`` as ``<table class="ms-table">``; ``row_classes`` gives one CSS class per row.

    Booleans show as 🚩 / empty (for flags); numbers are right-aligned.
    ``wrap`` puts the table in a scrolling box that a keyboard can focus and scroll, a region
    called ``name`` for a screen reader (axe's ``scrollable-region-focusable``):

    >>> html_table(pd.DataFrame({"n": [1]}), wrap=True, name="Pairs")  # doctest: +ELLIPSIS
    '<div class="ms-table-wrap" tabindex="0" role="region" aria-label="Pairs">...'

      ``clip`` maps a column to the
    columns of text its cells may take: longer ones are shortened in the middle
    (:func:`~mergescope_ui.shared.html.tokens.clip_label`), the whole text in their tooltip, so
    one long token cannot push the other columns out of sight.  Token cells may wrap anywhere;
    numbers never wrap, and with ``clip`` given the other text columns hold words, which wrap
    only between words (no ``chose|n``).

    >>> cells = html_table(pd.DataFrame({"token": ["low␣" * 9]}), clip={"token": 8})
    >>> "low␣…ow␣" in cells and 'title="low␣low␣' in cells
    True

    The clipped cells of the columns ``apart`` (say left, right, token) never read the same within a
    row when their texts differ (:func:`~mergescope_ui.shared.html.tokens.clip_apart`), and a cell of
    a column in ``pairs`` (``left + right``) is cut on each side of its `` + ``, which always stays:

    >>> html_table(pd.DataFrame({"pair": ["abcdefghij + klmnopqrst"]}), clip={"pair": 12}, pairs={"pair"})
    ... # doctest: +ELLIPSIS
    '...<td title="abcdefghij + klmnopqrst (23 characters)">ab…j + kl…t</td>...'
    """
    if row_classes is not None and len(row_classes) != len(table):
        raise ValueError(
            f"row_classes has {len(row_classes)} entries for {len(table)} rows; give one per row"
        )
    head = "".join(f"<th>{html.escape(str(c), quote=True)}</th>" for c in table.columns)
    columns = list(table.columns)
    limits = {c: (clip or {}).get(c) for c in columns}
    words = {c: bool(clip and c not in clip) for c in columns}
    rows = []
    for n, record in enumerate(table.itertuples(index=False)):
        cls = (
            f' class="{html.escape(row_classes[n], quote=True)}"'
            if row_classes is not None and row_classes[n]
            else ""
        )
        values = dict(zip(columns, record))
        shorts: dict[str, str] = {}
        together = [c for c in apart if limits.get(c) and isinstance(values.get(c), str)]
        if together:
            width = min(limits[c] or 0 for c in together)
            shorts = dict(zip(together, clip_apart([str(values[c]) for c in together], width)))
        for c in pairs:
            halves = str(values.get(c, "")).split(PLUS)
            if limits.get(c) and len(halves) == 2:
                side = max(((limits[c] or 0) - len(PLUS)) // 2, 2)
                shorts[c] = PLUS.join(clip_apart(halves, side))
        cells = "".join(
            _td(v, limits[c], words=words[c], short=shorts.get(c)) for c, v in zip(columns, record)
        )
        rows.append(f"<tr{cls}>{cells}</tr>")
    markup = f'<table class="ms-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    if not wrap:
        return markup
    label = html.escape(name, quote=True)
    return f'<div class="ms-table-wrap" tabindex="0" role="region" aria-label="{label}">{markup}</div>'
