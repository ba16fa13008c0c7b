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
components v2 element with no visible part; it reads nothing from the page
and sends nothing back.
"""

from __future__ import annotations

import streamlit as st

from .upload_widgets import MAX_PASTE_CHARS

KEY = "mergescope_paste_guard"

_JS = r"""
export default function (component) {
  window.__msPasteLimit = component.data.max_chars;
  if (window.__msPasteGuard) return;  // one listener per page, however often the element is drawn
  window.__msPasteGuard = true;
  document.addEventListener("paste", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLTextAreaElement) || !box.closest('[data-testid="stTextArea"]')) return;
    const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
    const limit = window.__msPasteLimit;
    const room = limit - (box.value.length - (box.selectionEnd - box.selectionStart));
    if (text.length <= room) return;
    event.preventDefault();
    let cut = Math.max(0, room);
    if (cut > 0 && /[\uD800-\uDBFF]/.test(text[cut - 1])) cut -= 1;  // never half an emoji
    document.execCommand("insertText", false, text.slice(0, cut));
  }, true);
}
"""
_CSS = f".st-key-{KEY}{{display:none;}}"
_GUARD = st.components.v2.component(KEY, js=_JS, css=_CSS, isolate_styles=False)


def paste_guard() -> None:
    """Draw the (invisible) guard; call once per run of the page."""
    _GUARD(key=KEY, data={"max_chars": MAX_PASTE_CHARS})
