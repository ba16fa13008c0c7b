"""The Train page's "⬇️ Download this lesson": the run's steps in a range, as one offline HTML file.

The file (:mod:`.lesson_file`) is made when the button is clicked, from the text, the settings and the
range chosen here (a fresh run: the session's own is not touched from the download's thread), so the
page pays nothing until then.  What it holds and its limits are said above the button.
"""

from __future__ import annotations

import re

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.stage.producer import StageSettings

from . import keys
from .inputs import Inputs
from .lesson_file import (
    MAX_LESSON_CHARS,
    MAX_LESSON_MB,
    MAX_LESSON_STEPS,
    LessonRequest,
    check_range,
    lesson_html,
)

DEFAULT_STEPS = 30  # the range's end before the user picks one (or the step shown, when further)


def lesson_download(inputs: Inputs, *, position: int, max_steps: int, options: StageSettings) -> None:
    """The range, the limits and the button (a message instead, for a text too long for a file)."""
    st.subheader("⬇️ Take this lesson home")
    text = inputs.source.text
    if len(text) > MAX_LESSON_CHARS:
        st.caption(
            f"A lesson file is made from texts up to {MAX_LESSON_CHARS:,} characters; this one has "
            f"{len(text):,}. Paste or upload a shorter part of it to download a lesson."
        )
        return
    st.caption(
        "One HTML file with these steps on this stage (Next, Back, Play, the keys, presenter mode, light "
        "and dark), the same text and settings: it opens in a browser from a disk or a mail, with no "
        f"server and no network. Up to {MAX_LESSON_STEPS:,} steps and {MAX_LESSON_MB:,} MB a "
        "file (about 10 kB a step); each step holds its first places. Made when you click."
    )
    top = max(1, max_steps)
    first_col, last_col = st.columns(2)
    first = first_col.number_input("From step", min_value=0, max_value=top, value=0, key=keys.LESSON_FIRST)
    last = last_col.number_input(
        "To step",
        min_value=0,
        max_value=top,
        value=min(top, max(DEFAULT_STEPS, position)),
        key=keys.LESSON_LAST,
    )
    try:
        check_range(int(first), int(last))
        request = LessonRequest(
            text=text,
            name=inputs.source.name,
            scheme=inputs.scheme,
            settings=inputs.settings,
            first=int(first),
            last=int(last),
            large=options.large,
            animate=options.animate,
            speed=options.speed,
        )
    except ValueError as exc:
        st.warning(f"No lesson file for these steps: {md_escape(exc)}.")
        return
    st.download_button(
        "⬇️ Download this lesson",
        data=lambda: lesson_html(request).encode("utf-8"),
        file_name=file_name(inputs.source.name, inputs.scheme, request.first, request.last),
        mime="text/html",
        key=keys.LESSON_DOWNLOAD,
        on_click="ignore",
        help="An offline .html file of these steps: no server, no network.",
    )


def file_name(name: str, scheme: str, first: int, last: int) -> str:
    """A file name for the lesson: the text's name in letters, digits and dashes.

    >>> file_name("Low, lower & newest!", "bpe", 0, 30)
    'mergescope-bpe-low-lower-newest-steps-0-30.html'
    """
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "text"
    return f"mergescope-{scheme}-{slug}-steps-{first}-{last}.html"
