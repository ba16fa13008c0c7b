"""Compare schemes (``/schemes``): byte-level BPE, WordPiece, Unigram and characters trained on one text.

Its page calls, in order: :func:`header` and :func:`sidebar` (``inputs``); :func:`comparison`, trained
and measured once per inputs (``compute_view`` over ``compute``); :func:`cuts` and :func:`tabs`
(``sections``: the table from ``table``, what each loses, the chart from ``chart``).  Its session keys
are in ``keys``.
"""

from .compute_view import comparison
from .inputs import header, sidebar
from .sections import cuts, tabs

__all__ = ["comparison", "cuts", "header", "sidebar", "tabs"]
