"""A URL that names no page (``/vocab_lab``): say so and link to the pages there are.

``st.navigation`` runs the default page for an unknown URL, so a mistyped or
outdated link would show the Welcome page.  ``app.py`` asks :func:`unknown_path`
first and draws :func:`no_such_page` instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from .safe_text import md_escape


def unknown_path(pages: Sequence[st.Page]) -> str | None:
    """The path the browser asked for when it is none of ``pages``' URLs (None: a known page, or ``/``).

    Call it before ``st.navigation``: for an unknown path it also tells the navigation to run the
    default page quietly, so :func:`no_such_page` explains instead of Streamlit's "Page not found,
    running the app's main page" dialog.  Streamlit keeps the page name of the URL it was asked for
    (``vocab_lab`` for ``/vocab_lab``); a click on a page link names the page by its hash instead.
    """
    ctx = get_script_run_ctx()
    if ctx is None:
        return None
    manager = ctx.pages_manager
    if manager.intended_page_script_hash:
        return None
    asked = (manager.intended_page_name or "").strip("/")
    # The default page's url_path reads "" (it is the root), but its own name (/home) is a page too.
    known = {p.url_path for p in pages} | {getattr(p, "_url_path", p.url_path) for p in pages}
    if not asked or asked in known:
        return None
    manager.set_script_intent("", "")
    return asked


def no_such_page(path: str, pages: Sequence[st.Page]) -> None:
    """The page drawn for an unknown URL: what was asked for, and a link to every page."""
    st.title("🧭 No such page")
    st.error(f"MergeScope has no page at {md_escape('/' + path)}.")
    st.markdown("The pages are:")
    for page in pages:
        st.page_link(page, label=page.title, icon=page.icon)
