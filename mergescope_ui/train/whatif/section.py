"""The "What if?" section: change one choice at the merge shown, then watch both histories side by side.

Drawn in the Train page's step fragment, it follows the page's stepper: at every step the what-if is
pulled to the real history's merge.  Every token goes through ``html.escape`` and every string from the
text or the URL through ``md_escape`` before a Markdown call.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.training_run import TrainingRun

from .compare_view import comparison
from .entry import entry
from .session import active_branch


def what_if(run: TrainingRun, *, moved: Callable[[], None] = lambda: None) -> bool:
    """The section for ``run``; True when it shows a branch (the page may then leave out what
    concerns the real history alone).  ``moved`` is called when it moves the real run's position
    itself (to show a branch where it parts)."""
    active = active_branch(run, moved)
    try:
        if active is None:
            entry(run, moved)
        else:
            comparison(run, active)
    except ValueError as exc:
        st.error(f"The what-if stopped with an error: {md_escape(exc)}.")
    return active is not None
