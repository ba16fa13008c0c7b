"""The UI's CSS files, each read into a ``<style>`` block for ``st.html`` (constant CSS, no user text)."""

from __future__ import annotations

from pathlib import Path

ASSETS = Path(__file__).with_name("assets")


def style(path: Path | str, *more: str) -> str:
    """The rules of the CSS file ``path`` (a name in ``assets/`` beside this module, or a whole path),
    then ``more``, as one ``<style>`` block.

    >>> style("blocks.css").startswith("\\n<style>\\n.ms-h3{")
    True
    """
    return "\n<style>\n" + (ASSETS / path).read_text(encoding="utf-8") + "".join(more) + "</style>\n"
