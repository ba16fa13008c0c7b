"""Page-wide CSS: a few base touches, and the presenter (projector) mode.

Only constant CSS goes through here (no user text), rendered with ``st.html``.
"""

from __future__ import annotations

from .blocks import BLOCK_CSS
from .styles import style
from .tables import TABLE_CSS
from .tokens import TOKEN_CSS

BASE_CSS = style("base.css")

# Presenter mode: readable from the back of a room.  Streamlit sizes text in
# rem, so raising the root font size scales nearly everything at once: 22 px on a
# 1280x720 projector, and in proportion to the window (33 px at 1920x1080), so the
# same screen fills any projector; times the room's text size (:data:`TEXT_SIZES`).
PRESENTER_CSS = style("presenter.css")


# The room's text size in presenter mode (app.py's sidebar, ?text_size=): a factor on the sizes above.
TEXT_SIZES = {"S": 0.85, "M": 1.0, "L": 1.2, "XL": 1.4}
DEFAULT_TEXT_SIZE = "M"


def page_css(*, presenter: bool, pages: str = "", text_size: str = DEFAULT_TEXT_SIZE) -> str:
    """The CSS for the current mode, token spans, tables and blocks included (one ``st.html`` call).

    ``pages`` is CSS the pages' own blocks need (the Train page's merge card:
    ``mergescope_ui.train.PAGE_CSS``).  Sent once per run from ``app.py`` and
    unchanged between reruns, so the browser does not restyle the page at
    every step the way a ``<style>`` inside each redrawn block would.
    """
    mode = PRESENTER_CSS if presenter else ""
    if presenter and text_size != DEFAULT_TEXT_SIZE:
        mode += f"<style>:root{{--ms-text-scale:{TEXT_SIZES.get(text_size, 1.0)};}}</style>"
    return BASE_CSS + TOKEN_CSS + pages + TABLE_CSS + BLOCK_CSS + mode
