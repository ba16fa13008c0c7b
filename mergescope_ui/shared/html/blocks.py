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

BLOCK_CSS = """
<style>
.ms-h3{font-size:1.75rem;font-weight:600;line-height:1.2;margin:0;padding:.75rem 0 1rem 0;}
.ms-caption{font-size:.875rem;line-height:1.6;opacity:.6;margin:0 0 1rem 0;}
.ms-status{margin:0 0 1rem 0;line-height:1.6;}
/* st.divider's rule, inside the block it opens (one element less to redraw) */
.ms-rule{margin:2rem 0 0 0;border:none;
  border-top:1px solid light-dark(rgba(49,51,63,.2),rgba(237,235,232,.2));}
/* two blocks side by side, like st.columns([1.4, 1], gap="large"); stacked on a narrow screen */
.ms-split{display:grid;grid-template-columns:minmax(0,1.4fr) minmax(0,1fr);gap:3rem;align-items:start;}
@media (max-width:640px){.ms-split{grid-template-columns:minmax(0,1fr);gap:0;}}
/* the gap Streamlit leaves between separate elements */
:is(.ms-tokens,.ms-table-wrap,.ms-card)+:is(.ms-h3,.ms-caption){margin-top:1rem;}
.ms-figures{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:1rem;}
.ms-figure .ms-label{font-size:.875rem;line-height:1.6;}
.ms-figure .ms-value{font-size:2.25rem;padding-bottom:.25rem;font-variant-numeric:tabular-nums;
  white-space:nowrap;overflow:hidden;text-overflow:ellipsis;}
.ms-figure .ms-delta{display:inline-block;font-size:.875rem;padding:2px 6px 2px 4px;border-radius:9999px;}
.ms-figure .ms-good{color:light-dark(rgb(12,90,68),#8ce99a);background:light-dark(rgb(241,251,246),#12291c);}
.ms-figure .ms-bad{color:light-dark(rgb(158,31,31),#ffa8a8);background:light-dark(rgb(255,240,240),#3b1515);}
</style>
"""


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
