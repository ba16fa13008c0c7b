"""The Tokenize page's files in ``live_assets/``: its components' JavaScript and CSS, its views' styles."""

from __future__ import annotations

from pathlib import Path

from mergescope_ui.shared.html.styles import style as shared_style

ASSETS = Path(__file__).with_name("live_assets")


def asset(name: str) -> str:
    """The text of ``live_assets/<name>``."""
    return (ASSETS / name).read_text(encoding="utf-8")


def style(name: str, *more: str) -> str:
    """The rules of ``live_assets/<name>`` (then ``more``) as a ``<style>`` block for ``st.html``."""
    return shared_style(ASSETS / name, *more)
