"""Compare schemes: byte-level BPE, WordPiece, Unigram and characters trained on one text, side by side.

``pages/views/schemes.py`` (its URL is ``/schemes``) calls these sections in order:

- :func:`header` and :func:`sidebar` (``inputs``): the title, then the text (a built-in corpus, a paste
  or an upload), the held-out share, the chart's sizes, the vocab size and the sentence;
- :func:`comparison` (``compute_view``): the four schemes trained and measured (``compute``), once per
  inputs, with a progress bar, cached per server;
- :func:`cuts` and :func:`tabs` (``sections``): the sentence cut four ways, the table (``table``), what
  each loses, and the chart across vocab sizes (``chart``).

Its session keys are in ``keys``.
"""

from .compute_view import comparison
from .inputs import header, sidebar
from .sections import cuts, tabs

__all__ = ["comparison", "cuts", "header", "sidebar", "tabs"]
