"""A URL that names no page (``/vocab_lab``): say so and link to the pages there are.

``st.navigation`` runs the default page for a URL it does not know, under
Streamlit's "Page not found" dialog, so a mistyped or outdated link would show
the Welcome page.  ``app.py`` gives the navigation :func:`hidden_pages` besides
its own: for an unknown URL, a page that is not listed, whose URL is the one
asked for, and which draws :func:`no_such_page`; for an old name of a page
(``/home``), a page that switches to it.
"""

from __future__ import annotations

import functools
import urllib.parse
from collections.abc import Mapping, Sequence

import streamlit as st

from .html.safe_text import md_escape


def page_name(url: str, *, base: str = "") -> str:
    """The page part of a URL: its path without the server's base path and slashes ("" for the root).

    >>> page_name("http://localhost:8501/vocab_lab")
    'vocab_lab'
    >>> page_name("https://example.org/class/mergescope/train", base="/class/mergescope/")
    'train'
    >>> page_name("http://localhost:8501/"), page_name("https://example.org/mergescope", base="mergescope")
    ('', '')
    """
    path = urllib.parse.unquote(urllib.parse.urlsplit(url).path).strip("/")
    base = base.strip("/")
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base) :].strip("/")
    return path


def hidden_pages(pages: Sequence[st.Page], *, aliases: Mapping[str, st.Page]) -> list[st.Page]:
    """The unlisted page for the URL the browser shows, when it names none of ``pages`` (call before
    ``st.navigation``): one that switches to ``aliases[name]``, or else one that says there is no such page.
    """
    asked = page_name(st.context.url or "", base=str(st.get_option("server.baseUrlPath") or ""))
    if not asked or asked in {page.url_path for page in pages} or "/" in asked:
        return []  # a page of the app, the root, or a path no page name can match (the default page runs)
    if asked in aliases:
        switch = functools.partial(st.switch_page, aliases[asked])
        return [st.Page(switch, title=aliases[asked].title, url_path=asked, visibility="hidden")]
    draw = functools.partial(no_such_page, asked, pages)
    return [st.Page(draw, title="No such page", icon="🧭", url_path=asked, visibility="hidden")]


def no_such_page(path: str, pages: Sequence[st.Page]) -> None:
    """The page drawn for an unknown URL: what was asked for, and a link to every page."""
    st.title("🧭 No such page")
    st.error(f"MergeScope has no page at {md_escape('/' + path)}.")
    st.markdown("The pages are:")
    for page in pages:
        st.page_link(page, label=page.title, icon=page.icon)
