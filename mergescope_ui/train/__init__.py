"""The Train page: watch byte-level BPE learn on a text, merge by merge.

``pages/train.py`` calls these sections in order:

- :func:`header` and :func:`sidebar` (``inputs``): the title, then the text
  (``text_source``), the training settings (``settings_form``) and the quiz toggle;
- :func:`training` (``run``): the session's run for them, kept across reruns;
- :func:`view_options` (``window``): the line about the text, play speed, jump to step, "show all";
- :func:`step_panel` (``panel``): the fragment that reruns alone: the buttons (``controls``),
  the step line, the quiz (``quiz``) and the step itself (``step_view``, built from
  ``cards``, ``charts`` and ``tables``).

Its session keys are in ``keys``; :data:`PAGE_CSS` (the merge card's) goes into the
page-wide CSS that ``app.py`` sends once per run.
"""

from .cards import CARD_CSS as PAGE_CSS
from .inputs import header, sidebar
from .panel import step_panel
from .run import training
from .window import view_options

__all__ = ["PAGE_CSS", "header", "sidebar", "step_panel", "training", "view_options"]
