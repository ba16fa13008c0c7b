"""What a WordPiece or Unigram tokenizer's round trip loses, under the tokens (Streamlit side).

``decode(encode(text))`` is shown as the tokenizer's decoder writes it, with a sentence saying what
it lost (:func:`~.piece_html.lost_summary`) and the text with the words that became the unknown token
marked (:func:`~mergescope_ui.shared.html.schemes.lost_html`, escaped).
"""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.html.schemes import lost_html

from .piece_html import PIECE_CSS, lost_summary
from .results import Tokenized
from .schemes import hooks_named

MAX_LOST_CHARS = 5000  # characters of the text shown with what is lost marked


def round_trip_view(result: Tokenized, text: str) -> None:
    """``decode(encode(text))`` and what it lost: the unknown token's words marked in the text."""
    loss = result.loss
    if loss is None or not result.ok:
        return
    summary = lost_summary(
        len(text),
        unknown_chars=loss.unknown_chars,
        unknown_spans=len(loss.unknown),
        spacing=loss.spacing,
        changed=loss.changed,
    )
    name = hooks_named(result.scheme).name
    with st.expander(
        f"Decoded back: {'exact' if loss.round_trip else 'lossy'} ({name})", expanded=not loss.round_trip
    ):
        st.caption(md_escape(summary))
        st.code(loss.decoded[:MAX_LOST_CHARS] or "(empty)", language=None, wrap_lines=True)
        if loss.unknown:
            st.caption("The text, with what became the unknown token marked (dark red):")
            shown = text[:MAX_LOST_CHARS]
            spans = [(a, min(b, len(shown))) for a, b in loss.unknown if a < len(shown)]
            st.html(PIECE_CSS + '<div class="ms-piece-lost">' + lost_html(shown, spans) + "</div>")
        if len(text) > MAX_LOST_CHARS:
            st.caption(f"The first {MAX_LOST_CHARS:,} characters are shown; the counts cover the whole text.")
