"""The Vocab-size lab: compression, OOV and round-trip rates against vocab size, from one training run.

``pages/views/vocab-lab.py`` (named as its URL, ``/vocab-lab``) calls these sections in order:

- :func:`header` and :func:`sidebar` (``inputs``): the title, then the training and
  held-out texts (``texts``), the settings (``settings_form``) and tokenizer files
  to compare (``reference``);
- :func:`training` (``compute_view``): one training run to the largest vocab, with a progress
  bar and cached per texts + settings (``compute``), and the headline figures;
- :func:`tabs` (``tab_views``): the curves and per-script curves (``tables`` builds the
  frames, ``charts`` draws them), the table of sizes, and the speed lesson (``speed``).

Its session keys are in ``keys``.
"""

from .compute_view import training
from .inputs import header, sidebar
from .tab_views import tabs

__all__ = ["header", "sidebar", "tabs", "training"]
