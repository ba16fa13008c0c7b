"""The Train page's link to this moment: read once a session, written at every step, copied, shown as a QR.

What it carries beyond the bound widgets is :mod:`.share`; a reload reads it back once
(:func:`apply_link`) and jumps there.
"""

from __future__ import annotations

import io
import urllib.parse
from pathlib import Path

import segno
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.training_run import TrainingRun
from mergescope_ui.shared.url_state import read_params_once, write_params

from . import keys
from .lesson import lesson_settings
from .presets import CORPUS_LESSONS
from .share import MAX_LINK_TEXT, PARAM_NAMES, LinkState, from_query, pack_text, text_fits, to_query

LESSON_PARAMS = ("pattern", "tie_break", "min_frequency", "merges", "specials")
QR_MAX_CHARS = 1_200  # a longer link makes a QR code too dense to scan from the back of a room

ASSETS = Path(__file__).with_name("assets")
_COPY = st.components.v2.component(
    "mergescope_copy_link",
    js=(ASSETS / "copy_link.js").read_text(encoding="utf-8"),
    css=(ASSETS / "copy_link.css").read_text(encoding="utf-8"),
    isolate_styles=False,
)


def apply_link(messages: DeltaGenerator) -> None:
    """Once a session, before the sidebar's widgets are drawn: the text, regex, specials, step and tab
    of the link (what it could not use is said in ``messages``)."""
    params = read_params_once(keys.LINK_READ, (*PARAM_NAMES, "corpus"))
    if not params:
        return
    state, notes = from_query(params)
    corpus = params.get("corpus", [""])[-1]
    if state.text is not None:
        st.session_state[keys.PASTED_TEXT] = state.text
    elif corpus == keys.PASTE:
        notes.append(
            "the link chose pasted text but carries none (a text too long for a link is left out): paste "
            "it, or upload the file you were given"
        )
    for key, value in ((keys.CUSTOM_REGEX, state.regex), (keys.SPECIAL_TOKENS, state.specials)):
        if value is not None:
            st.session_state[key] = value
    if state.step:
        st.session_state[keys.JUMP_PENDING] = state.step
    st.session_state[keys.STAGE_TAB] = state.tab
    if corpus in CORPUS_LESSONS and not any(name in st.query_params for name in LESSON_PARAMS):
        lesson_settings(CORPUS_LESSONS[corpus])  # a corpus with its own lesson, and no settings named
    for note in notes:
        messages.warning(f"From the link: {md_escape(note, limit=300)}.")


def link_state(run: TrainingRun, *, pasted: str | None) -> LinkState:
    """This moment: the step shown, the stage's tab, pasted text, the custom regex, the special tokens."""
    custom = st.session_state.get(keys.PATTERN) == keys.CUSTOM
    return LinkState(
        step=run.position,
        text=pasted,
        regex=st.session_state.get(keys.CUSTOM_REGEX) if custom else None,
        specials=st.session_state.get(keys.SPECIAL_TOKENS) or None,
        tab=st.session_state.get(keys.STAGE_TAB, "places"),
    )


def write_link(state: LinkState) -> None:
    """Put this moment in the URL (only these parameters; the widgets write their own)."""
    write_params(PARAM_NAMES, to_query(state))


def page_url() -> str:
    """The URL of this moment as a browser would open it (the page's path when the host is unknown)."""
    base = st.context.url or "/train"
    query = urllib.parse.urlencode(st.query_params.to_dict(), quote_via=urllib.parse.quote)
    return f"{base}?{query}" if query else base


def qr_png(url: str) -> bytes | None:
    """A QR code of ``url`` as PNG bytes (dark on white, a quiet zone of 4), or None when it is too long.

    >>> qr_png("http://localhost:8501/train?step=3")[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    >>> qr_png("x" * (QR_MAX_CHARS + 1)) is None
    True
    """
    if len(url) > QR_MAX_CHARS:
        return None
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="png", scale=8, border=4)
    return out.getvalue()


def link_box(state: LinkState) -> None:
    """The Copy-link button, the QR code on demand, and what a link cannot carry (with the file)."""
    _COPY(
        key=keys.COPY_LINK,
        data={
            "label": "🔗 Copy link to this step",
            "copied": "Link copied",
            "failed": "Copy failed: copy the address bar",
        },
    )
    if state.text and not text_fits(state.text):
        st.caption(
            f"Your text packs to {len(pack_text(state.text)):,} characters, over the {MAX_LINK_TEXT:,} a "
            "link carries: the link opens the paste box empty. Share the text as a file (upload it with "
            "📄 Upload a .txt file)."
        )
        st.download_button(
            "⬇ The text as a .txt file",
            state.text.encode("utf-8"),
            file_name="mergescope_text.txt",
            mime="text/plain",
            key=keys.DOWNLOAD_TEXT,
            on_click="ignore",
        )
    box = st.expander("QR code of this link, for a slide", key=keys.QR_ENTRY, on_change="rerun")
    if not box.open:
        return
    url = page_url()
    png = qr_png(url)
    with box:
        if png is None:
            st.caption(
                f"This link is {len(url):,} characters, too long for a QR code a room can scan "
                f"(up to {QR_MAX_CHARS:,}): copy the link instead."
            )
        else:
            st.image(png, width=320, caption="Scan to open this step")
