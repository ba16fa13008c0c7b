"""The app's pages for ``st.navigation``: the known ones first, then any other ``app_pages/*.py``.

A new page needs no edit here: drop ``app_pages/<name>.py`` (title from the file
name) and it appears after the known ones, sorted by file name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

# Not "pages/": a pages/ folder beside app.py switches Streamlit to its legacy
# multipage mode, where a first visit to /train runs that page without app.py.
PAGES_DIR = Path(__file__).resolve().parent.parent / "app_pages"


@dataclass(frozen=True, slots=True)
class PageInfo:
    """How a known page is listed."""

    file: str
    title: str
    icon: str
    url_path: str


KNOWN_PAGES = (
    PageInfo(file="home.py", title="Welcome", icon="🏠", url_path="home"),
    PageInfo(file="train.py", title="Train", icon="🔬", url_path="train"),
    PageInfo(file="playground.py", title="Tokenize", icon="🔤", url_path="playground"),
    PageInfo(file="vocab_lab.py", title="Vocab-size lab", icon="🧪", url_path="vocab-lab"),
)


def page_files(directory: Path = PAGES_DIR) -> list[Path]:
    """Page scripts in nav order: the known ones, then the rest by name (``_``-prefixed files skipped)."""
    known = [directory / p.file for p in KNOWN_PAGES if (directory / p.file).is_file()]
    others = sorted(p for p in directory.glob("*.py") if not p.name.startswith("_") and p not in known)
    return known + others


def pages(directory: Path = PAGES_DIR) -> list[st.Page]:
    """``st.Page`` objects for ``st.navigation``; the first known page is the default."""
    info = {p.file: p for p in KNOWN_PAGES}
    out = []
    for n, path in enumerate(page_files(directory)):
        meta = info.get(path.name)
        if meta is None:
            out.append(st.Page(path))
        else:
            out.append(
                st.Page(path, title=meta.title, icon=meta.icon, url_path=meta.url_path, default=n == 0)
            )
    return out
