"""The Train page: watch byte-level BPE learn on a text, merge by merge.

``pages/train.py`` calls these sections in order:

- :func:`header`: the title and a container for messages;
- :func:`sidebar`: the text (``text_source``), the settings (``settings_form``), the quiz toggle;
- :func:`training`: the session's run for them (``run``), kept across reruns;
- :func:`view_options`: the line about the text, play speed, jump to step, "show all";
- :func:`step_panel`: the fragment that reruns alone: buttons (``controls``), the step line,
  the quiz, and the step itself (``step_view``, built from ``cards``, ``charts`` and ``tables``).

Its session keys are in ``keys``; ``PAGE_CSS`` goes into the page-wide CSS (``app.py``).
"""

from .cards import CARD_CSS as PAGE_CSS
from .inputs import header, sidebar
from .panel import step_panel
from .run import training
from .window import view_options

__all__ = ["PAGE_CSS", "header", "sidebar", "step_panel", "training", "view_options"]
