"""Every page runs inside app.py's navigation, even when it is a fresh server's first request.

Streamlit 1.67 turns on its legacy multipage mode when a ``pages/`` folder sits
beside the main script, and keeps it on in the server process until
``st.navigation`` is first called.  So when the very first request a freshly
started server gets is a page's URL (a shared ``/train?corpus=...`` link after a
restart), Streamlit runs ``pages/train.py`` alone: its own navigation of file
names, no page config, no presenter toggle.  Once any run has gone through
``app.py`` the mode is off for good.  :func:`run_through_app`, called first in
every page file, notices the mode is still on, turns it off and starts the
run over, now from ``app.py``.  ``tests/browser/test_pages.py`` opens each URL
as the first request of a fresh server to keep this honest.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def run_through_app() -> None:
    """Start this run over from ``app.py`` if Streamlit's legacy multipage mode ran the page file alone."""
    if getattr(PagesManager, "uses_pages_directory", False):
        PagesManager.uses_pages_directory = False
        st.rerun()
