"""The Viterbi lattice of one word under a Unigram run's pieces, as HTML (pure).

One box per piece that fits, over its characters, with its score (log probability), the best
segmentation's highlighted; below it every way to cut the word, best first.  Every piece is escaped.

>>> import math
>>> from bpe_core.unigram import lattice
>>> scores = {p: math.log(n / 210) for p, n in {"p": 17, "u": 36, "g": 20, "pu": 17, "ug": 20}.items()}
>>> page = lattice_html(lattice("pug", scores))
>>> page.count('class="ms-lat-e ms-lat-best"'), page.count('<tr class="ms-lat-best">'), "3 ways" in page
(2, 1, True)
"""

from __future__ import annotations

import html
import math
from itertools import accumulate

from bpe_core.unigram import TIE_RULE_HELP, Edge, Lattice

from .scheme_stage import visible

LATTICE_CSS = """
<style>
.ms-lat{overflow-x:auto;margin:.3rem 0;}
.ms-lat-g{display:grid;gap:3px;font-family:ui-monospace,"DejaVu Sans Mono","Noto Sans Mono",monospace;
  min-width:max-content;}
.ms-lat-c{text-align:center;font-weight:700;font-size:1.15rem;border-bottom:2px solid rgba(128,128,128,.5);
  padding:0 .2rem;min-width:2.2rem;}
.ms-lat-e{border:1px solid rgba(128,128,128,.55);border-radius:.35rem;padding:0 .3rem;text-align:center;
  font-size:.9rem;line-height:1.35;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;
  background:rgba(116,192,252,.18);}
.ms-lat-e small{opacity:.8;}
/* white on #c2410c: 5.2:1 (AA), the score too (no dimming on the best path) */
.ms-lat-e.ms-lat-best{background:#c2410c;border-color:#c2410c;color:#fff;font-weight:700;}
.ms-lat-e.ms-lat-best small{opacity:1;}
.ms-lat-t{border-collapse:collapse;font-size:.92rem;margin-top:.4rem;}
.ms-lat-t td,.ms-lat-t th{padding:.1rem .6rem;border-bottom:1px solid rgba(128,128,128,.3);text-align:left;}
.ms-lat-t td.ms-num{text-align:right;font-variant-numeric:tabular-nums;}
.ms-lat-t tr.ms-lat-best td{font-weight:700;background:rgba(232,89,12,.12);}
.ms-lat-t code{white-space:pre;}
/* The word picked: Streamlit draws it in the primary colour, 3.3:1 on the dark theme's background. */
.st-key-lattice_word button[aria-checked="true"] p{color:var(--ms-accent-text);}
</style>
"""
MAX_ROWS = 40  # segmentations listed (the lattice itself shows every piece)


def _lanes(edges: tuple[Edge, ...]) -> list[int]:
    """A row for each edge so that edges in one row never overlap (first fit, in edge order).

    >>> _lanes((Edge(0, 1, "a", 0.0), Edge(0, 2, "ab", 0.0), Edge(1, 2, "b", 0.0)))
    [0, 1, 0]
    """
    ends: list[int] = []
    out = []
    for e in edges:
        for lane, end in enumerate(ends):
            if end <= e.start:
                ends[lane] = e.end
                out.append(lane)
                break
        else:
            ends.append(e.end)
            out.append(len(ends) - 1)
    return out


def lattice_html(lat: Lattice) -> str:
    """``lat`` as the diagram and the list of segmentations (escaped HTML for ``st.html``)."""
    chars = list(lat.word)
    ends = list(accumulate(map(len, lat.best.pieces))) if lat.best is not None else []
    best = set(zip([0, *ends], ends))  # the best cut's pieces, (start, end) in characters
    cells = [
        f'<div class="ms-lat-c" style="grid-column:{i + 1};grid-row:1">{html.escape(visible(c))}</div>'
        for i, c in enumerate(chars)
    ]
    for e, lane in zip(lat.edges, _lanes(lat.edges), strict=True):
        on = (e.start, e.end) in best
        title = (
            f"“{e.piece}” · characters {e.start}–{e.end} · score {e.score:.3f} (P = {math.exp(e.score):.2e})"
        )
        cells.append(
            f'<div class="ms-lat-e{" ms-lat-best" if on else ""}" title="{html.escape(title, quote=True)}" '
            f'style="grid-column:{e.start + 1} / {e.end + 1};grid-row:{lane + 2}">'
            f"{html.escape(visible(e.piece))} <small>{e.score:.2f}</small></div>"
        )
    columns = f"repeat({max(len(chars), 1)}, minmax(2.2rem, auto))"
    n = len(lat.segmentations)
    ways = f"{n} ways" if lat.complete else f"the best {n} ways (there are more)"
    rows = []
    for s in lat.segmentations[:MAX_ROWS]:
        on = lat.best is not None and s.pieces == lat.best.pieces
        cut = " | ".join(visible(p) for p in s.pieces)
        attr = ' class="ms-lat-best"' if on else ""
        note = " ◀ best (Viterbi)" if on else ""
        rows.append(
            f"<tr{attr}><td><code>{html.escape(cut)}</code>{note}</td>"
            f'<td class="ms-num">{s.score:.3f}</td><td class="ms-num">{math.exp(s.score):.3e}</td></tr>'
        )
    more = f"<p>… and {n - MAX_ROWS} more.</p>" if n > MAX_ROWS else ""
    missing = ""
    if lat.best is None:
        missing = "<p>This word cannot be cut with the pieces: a character is not one of them.</p>"
    return (
        f'<div class="ms-lat" role="group" aria-label="Lattice of {html.escape(lat.word, quote=True)}">'
        f'<div class="ms-lat-g" style="grid-template-columns:{columns}">{"".join(cells)}</div></div>'
        f"{missing}<p>{html.escape(ways)} to cut it; a cut's score is the sum of its pieces' scores (log "
        f"probabilities). Ties: {html.escape(TIE_RULE_HELP)}.</p>"
        '<table class="ms-lat-t"><thead><tr><th>Segmentation</th><th>Score</th><th>Probability</th></tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table>{more}"
    )
