"""The Train page: watch byte-level BPE learn on a text, merge by merge.

``pages/views/train.py`` calls these sections in order:

- :func:`header` and :func:`sidebar` (``inputs``): the title, then the text (the shared picker,
  :mod:`mergescope_ui.shared.inputs.text_source`), the training settings (``settings_form``) and the
  classroom options;
- :func:`panel_for` (``session_run``): the session's run for them, kept across reruns, and its panel
  (``panel``), the same for every scheme: two fragments that rerun alone, the quiz (``quiz``) and the
  stage (``stage``: a components v2 component that steps in the browser through the steps a
  ``scheme_driver`` sends), rerun when the stage needs a window; then the sections below it, rerun
  when stepping pauses.

What differs per scheme is a record in a table: the sidebar's (``scheme_form.FORMS``: BPE's settings
are ``settings_form``'s) and the panel's (``session_run.PAGES``).  BPE's stage views come from
``stage_data`` (built from ``cards``, ``pair_bars`` and the engine's text replay), its sections below
from ``details`` (``tables``, ``charts``) and ``whatif``; WordPiece's and Unigram's from
``wordpiece_stage`` or ``unigram_stage`` over a ``scheme_run``, and for Unigram the Viterbi lattice
(``lattice_view``, in ``scheme_panel``).

Its session keys are in ``keys``; :data:`PAGE_CSS` (the card's, the pair chart's, the quiz's
and the what-if's) goes into the page-wide CSS that ``app.py`` sends once per run.
"""

from .cards import CARD_CSS
from .inputs import header, sidebar
from .lattice_view import LATTICE_CSS
from .pair_bars import BARS_CSS
from .quiz import QUIZ_CSS
from .scheme_stage import SCHEME_STAGE_CSS
from .session_run import panel_for
from .whatif import WHATIF_CSS

PAGE_CSS = CARD_CSS + BARS_CSS + QUIZ_CSS + WHATIF_CSS + SCHEME_STAGE_CSS + LATTICE_CSS

__all__ = ["PAGE_CSS", "header", "panel_for", "sidebar"]
