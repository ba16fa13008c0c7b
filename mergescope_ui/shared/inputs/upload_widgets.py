"""An uploaded text file in a page: kept across page switches, decoded with a "decode anyway" box.

The Train page's text and the lab's training text both use these (Streamlit side;
the decoding itself is :mod:`mergescope_ui.shared.inputs.upload`).
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from .. import keys
from ..html.safe_text import md_escape
from .upload import DEFAULT_MAX_BYTES, MEGABYTE, DecodedText, decode_upload

MAX_PASTE_CHARS = 100_000
"""The text areas' limit for pasted text.  The browser takes a 100,000-character paste in about half a
second; a million characters in a Streamlit text area took 93 s (and over 30 s in chromium here)
before the page could answer.  Longer texts are uploaded (up to 10 MB), which is fast."""
UPLOAD_INSTEAD = f"upload it as a UTF-8 .txt file instead (up to {DEFAULT_MAX_BYTES // MEGABYTE} MB)"


def paste_cut_note(text: str, messages: DeltaGenerator, *, instead: str = UPLOAD_INSTEAD) -> None:
    """Say so when a text area is full: the browser cut the paste at :data:`MAX_PASTE_CHARS`
    characters without a word, and the rest must come another way (``instead``).

    The browser counts UTF-16 units (an emoji is two), and the paste guard
    (:mod:`mergescope_ui.shared.inputs.paste_guard`) stops one short rather than split an emoji.
    """
    if len(text.encode("utf-16-le")) // 2 >= MAX_PASTE_CHARS - 1:
        messages.warning(
            f"The text box holds at most {MAX_PASTE_CHARS:,} characters, so your paste was cut there. "
            f"For a longer text, {instead}.",
            icon="✂️",
        )


def remember_upload(widget_key: str, raw_key: str, name_key: str) -> None:
    """on_change of an uploader: keep the file's bytes and name in plain keys
    (widget values die on a page switch).  Pass the three keys as ``args``."""
    file = st.session_state.get(widget_key)
    if file is None:
        st.session_state.pop(raw_key, None)
        st.session_state.pop(name_key, None)
    else:
        st.session_state[raw_key] = file.getvalue()
        st.session_state[name_key] = file.name


def decode_remembered_upload(
    raw: bytes, name: str, *, lossy_key: str, messages: DeltaGenerator
) -> str | None:
    """Decode an upload's bytes, with a "decode anyway" checkbox (key ``lossy_key``).

    Returns the text, or None after writing why into ``messages`` (not UTF-8
    and not decoded anyway, too large); a lossy decode is reported as a warning.
    """
    lossy = st.checkbox(
        "Decode anyway (replace bad bytes with �)",
        key=lossy_key,
        persist_state="session",
        help="For files that are not valid UTF-8: each invalid byte sequence becomes U+FFFD.",
    )
    decoded = _decoded(raw, lossy=lossy, slot=lossy_key)
    if isinstance(decoded, str):
        messages.error(f"Cannot use {md_escape(name)}: {md_escape(decoded)}.")
        return None
    if decoded.lossy:
        messages.warning(
            f"{md_escape(name)} is not valid UTF-8: {decoded.replaced:,} invalid byte sequence(s) were "
            "replaced by �."
        )
    return decoded.text


def _decoded(raw: bytes, *, lossy: bool, slot: str) -> DecodedText | str:
    """``raw`` decoded (or why it cannot be), kept in this session for the uploader ``slot`` while
    its bytes stay the same: no rerun decodes a 10 MB file again, and the text leaves memory with
    the session (a per-server cache would keep one user's text after they left)."""
    memo: dict[str, tuple[bytes, bool, DecodedText | str]] = st.session_state.setdefault(
        keys.DECODED_UPLOADS, {}
    )
    kept = memo.get(slot)
    if kept is not None and kept[0] is raw and kept[1] == lossy:
        return kept[2]
    try:
        decoded: DecodedText | str = decode_upload(raw, lossy=lossy, max_bytes=DEFAULT_MAX_BYTES)
    except ValueError as exc:
        decoded = str(exc)
    memo[slot] = (raw, lossy, decoded)
    return decoded
