"""The Vocab-size lab (``/vocab-lab``): compression, OOV and round-trip rates against vocab size.

Its page calls, in order: :func:`header` and :func:`sidebar` (``inputs``: ``texts``, ``settings_form``,
tokenizer files to compare in ``reference``); :func:`training`, one cached run (``compute_view`` over
``compute``); :func:`tabs` (``tab_views``: ``tables`` builds the frames, ``charts`` draws them, ``speed``).
Its session keys are in ``keys``.
"""

from .compute_view import training
from .inputs import header, sidebar
from .tab_views import tabs

__all__ = ["header", "sidebar", "tabs", "training"]
