"""A paste longer than a text area's limit is cut before the browser inserts it, not after.

Streamlit's ``st.text_area(max_chars=...)`` cuts the text in its own script
after the browser has inserted all of it, and chromium takes about 90 s to
insert a million characters into a text area (100,000 take a second; a native
``maxlength`` would cut first, but Streamlit sets none).  So a student who
pastes a whole book into the Train page's box froze their page for a minute
and a half.  :func:`paste_guard` (drawn once per page run by ``app.py``) adds
one listener to the page: a paste into a Streamlit text area (``st.text_area``,
the Tokenize page's own box cuts its pastes itself) inserts only what fits under
:data:`~mergescope_ui.shared.inputs.upload_widgets.MAX_PASTE_CHARS`, at once; the page then says it was cut
(:func:`mergescope_ui.shared.inputs.upload_widgets.paste_cut_note`).  It is a
components v2 element with no visible part (its JavaScript: ``assets/paste_guard.js``); it reads
nothing from the page and sends nothing back.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from .upload_widgets import MAX_PASTE_CHARS

KEY = "mergescope_paste_guard"

_GUARD = st.components.v2.component(
    KEY,
    js=(Path(__file__).with_name("assets") / "paste_guard.js").read_text(encoding="utf-8"),
    css=f".st-key-{KEY}{{display:none;}}",  # the element takes no room (its key names it: no CSS file)
    isolate_styles=False,
)


def paste_guard() -> None:
    """Draw the (invisible) guard; call once per run of the page."""
    _GUARD(key=KEY, data={"max_chars": MAX_PASTE_CHARS})
