"""The Train page: watch a tokenizer (BPE, WordPiece, Unigram) learn on a text, step by step.

``pages/views/train.py`` calls :func:`header` and :func:`sidebar` (``inputs``: the title, the text, the
scheme and its settings, the classroom options), then :func:`panel_for` (``session_run``: the
session's run, kept across reruns, and the one ``panel``: the quiz and the ``stage``, then the sections
below it, each a fragment that reruns alone).  What differs per scheme is a record in a table: the
sidebar's (``scheme_form.FORMS``) and the panel's (``session_run.PAGES``, with a ``scheme_driver``).
BPE's views come from ``stage_data``, its sections below from ``details`` and ``whatif``; WordPiece's
and Unigram's from ``wordpiece_stage`` or ``unigram_stage`` over a ``scheme_run``.

Its session keys are in ``keys``; :data:`PAGE_CSS` goes into the page-wide CSS that ``app.py`` sends.
"""

from .cards import CARD_CSS
from .inputs import header, sidebar
from .lattice_view import LATTICE_CSS
from .pair_bars import BARS_CSS
from .scheme_stage import SCHEME_STAGE_CSS
from .session_run import panel_for
from .whatif import WHATIF_CSS

PAGE_CSS = CARD_CSS + BARS_CSS + WHATIF_CSS + SCHEME_STAGE_CSS + LATTICE_CSS

__all__ = ["PAGE_CSS", "header", "panel_for", "sidebar"]
