"""The Vocab-size lab: compression, OOV and round-trip rates against vocab size, from one training run.

``pages/lab.py`` calls these sections in order:

- :func:`header`: the title, the question, a container for messages;
- :func:`sidebar`: the training text and held-out text (``texts``), the settings
  (``settings_form``), tokenizer files to compare (``reference``);
- :func:`training`: one training run to the largest vocab, with a progress bar and
  cached per texts + settings (``compute``), and the headline figures;
- :func:`tabs`: the curves, per-script curves, the table of sizes (``tables``, ``charts``)
  and the speed lesson (``speed``).

Its session keys are in ``keys``.
"""

from .inputs import header, sidebar
from .run import training
from .tab_views import tabs

__all__ = ["header", "sidebar", "tabs", "training"]
