"""Headings, captions, a status line and a row of figures as HTML (pure; for ``st.html``).

Each ``st.subheader``, ``st.caption`` or ``st.metric`` is a separate element that the
browser renders through Markdown (a metric: three times) and redraws at every
step.  The training page redraws a dozen of them per Next, so it builds these
as HTML and sends each group in one ``st.html`` call with the content it
introduces.  The look follows Streamlit's own (sizes in rem, so presenter mode
scales them).  Every text is ``html.escape``-d.

>>> heading_html("After <merge> 2")
'<h3 class="ms-h3">After &lt;merge&gt; 2</h3>'
>>> print(figures_html([Figure("Vocab size", "257", delta="1")]).replace("><", ">\\n<"))
<div class="ms-figures">
<div class="ms-figure">
<div class="ms-label">Vocab size</div>
<div class="ms-value">257</div>
<div class="ms-delta ms-good">↑ 1</div>
</div>
</div>
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from .styles import style

BLOCK_CSS = style("blocks.css")


def heading_html(text: str) -> str:
    """A subheader (``<h3>``) sized like ``st.subheader``."""
    return f'<h3 class="ms-h3">{html.escape(text, quote=True)}</h3>'


def caption_html(text: str) -> str:
    """Small faded text like ``st.caption`` (plain text: no Markdown)."""
    return f'<p class="ms-caption">{html.escape(text, quote=True)}</p>'


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure of the row: a label, a value, and an optional change with its direction.

    ``delta`` is shown as given (``"-75"``), with an up arrow unless it starts
    with ``-``; ``good`` colors it green (True) or red (False), the way
    ``st.metric``'s ``delta_color`` does.
    """

    label: str
    value: str
    delta: str | None = None
    good: bool = True


def figures_html(figures: Sequence[Figure]) -> str:
    """A row of labelled figures like ``st.columns`` of ``st.metric`` (one grid column each)."""
    cells = []
    for f in figures:
        delta = ""
        if f.delta is not None:
            arrow = "↓" if f.delta.startswith("-") else "↑"
            delta = (
                f'<div class="ms-delta ms-{"good" if f.good else "bad"}">'
                f"{arrow} {html.escape(f.delta, quote=True)}</div>"
            )
        cells.append(
            f'<div class="ms-figure"><div class="ms-label">{html.escape(f.label, quote=True)}</div>'
            f'<div class="ms-value">{html.escape(f.value, quote=True)}</div>{delta}</div>'
        )
    return f'<div class="ms-figures">{"".join(cells)}</div>'
