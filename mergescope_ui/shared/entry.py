"""Why ``pages/`` holds a short file per URL that runs ``app.py`` (the pages are in ``pages/views/``).

Streamlit 1.67 treats a ``pages/`` folder beside the main script as a legacy
multipage app until ``st.navigation`` first runs in the server process: the
first script run of a fresh server builds its own navigation from ``app.py``
plus every top-level ``pages/*.py`` (named by file) and runs the one the URL
names.  After that run every run goes through ``app.py``.

So the pages live one folder down, where that legacy navigation does not look,
and for each URL a visitor may open first (``/home``, ``/train``,
``/tokenize``, ``/vocab-lab``, ``/schemes``, ``/room``) ``pages/`` holds a file of that name that only
calls :func:`run_app` (``tests/ui/test_app.py`` checks that each URL has one).  A first request for
``/train`` then runs ``pages/train.py``, which runs ``app.py``, whose ``st.navigation`` finds
``/train`` and runs ``pages/views/train.py``: the page config, the navigation
and the presenter toggle are all there.  Without those files (only the
subfolder) the legacy navigation would not find ``/train``, and Streamlit would
show its "Page not found" dialog over the right page on that first request.
``tests/browser/test_pages.py`` opens each URL as a fresh server's first
request to keep this honest.
"""

from __future__ import annotations

import runpy
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app.py"


def run_app() -> None:
    """Run ``app.py`` as ``streamlit run app.py`` does (for a file in ``pages/`` that Streamlit ran alone)."""
    runpy.run_path(str(APP), run_name="__main__")
