"""The top of the Train page and its sidebar: the text, the training settings, the quiz toggle.

The text is a built-in corpus, pasted text or an upload (:data:`TEXT`, the shared picker);
``?corpus=<id>`` picks it (``__paste__`` / ``__upload__`` too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.bpe import TIE_BREAKS
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.text_source import PasteBox, Picker, SourceText, UploadBox, pick_text
from mergescope_ui.shared.url_state import ignored_value, read_params_once
from mergescope_ui.shared.workers.cache import corpus_index, corpus_text

from . import keys
from .lesson import on_corpus, preset_picker
from .link import apply_link
from .scheme_form import DEFAULT, FORMS, scheme_choice

TITLES = {name: f"🔬 Train: watch {f.label} learn, {f.step} by {f.step}" for name, f in FORMS.items()}
# In presenter mode: one line on a 1280 px projector.
SHORT_TITLES = {name: f"🔬 Train: watch {f.label} learn" for name, f in FORMS.items()}
URL_PARAM = "corpus"  # ?corpus=<id> picks a built-in text (or __paste__ / __upload__)
TEXT = Picker(
    key=keys.SOURCE,
    label="Text",
    default="low_lowest_newest",  # the classroom string
    help="A built-in corpus, your own pasted text, or an uploaded UTF-8 file.",
    on_change=on_corpus,  # a corpus with its own lesson brings its settings (the classic one)
    url_param=URL_PARAM,
    describe=True,
    blank_is_text=True,
    paste=PasteBox(
        key=keys.PASTED_TEXT,
        label="Your text",
        height=160,
        placeholder="Paste any text here, e.g. low low low lower newest newest widest",
        title="✍️ Paste your own text",
        missing="Paste some text in the sidebar to start training.",
    ),
    upload=UploadBox(
        widget=keys.UPLOAD,
        raw=keys.UPLOAD_RAW,
        name=keys.UPLOAD_NAME,
        lossy=keys.UPLOAD_LOSSY,
        missing="Upload a .txt file in the sidebar to start training.",
        empty=" is empty; upload a file with some text.",
    ),
)
SPEEDS = {2.0: "slow (2 s)", 1.0: "1 s", 0.5: "fast (0.5 s)", 0.2: "very fast (0.2 s)"}


@dataclass(frozen=True, slots=True)
class Inputs:
    """What the sidebar gives the page: the scheme, the text to train on and that scheme's settings."""

    scheme: str
    source: SourceText
    settings: Any  # the record of scheme_form.FORMS[scheme].settings (BPE's: a TrainOptions)


def header() -> DeltaGenerator:
    """The page title (naming the scheme chosen), and the container under it for every message."""
    scheme = str(st.session_state.get(keys.SCHEME) or st.query_params.get(keys.SCHEME) or DEFAULT)
    scheme = scheme if scheme in TITLES else DEFAULT
    st.title(SHORT_TITLES[scheme] if st.session_state.get(shared_keys.PRESENTER) else TITLES[scheme])
    return st.container()


def sidebar(messages: DeltaGenerator) -> Inputs | None:
    """The sidebar's three sections; None (after saying why in ``messages``) until text and settings work."""
    given = read_params_once(keys.LINK_CHECKED, list(LINK_RULES))  # before the widgets take (or drop) them
    apply_link(messages)  # once a session: what the link carries beyond the bound widgets
    with st.sidebar:
        st.header("Text")
        preset_picker()
        source = pick_text(TEXT, messages, corpora=corpus_index(), read=corpus_text)
        st.header("Training")
        scheme = scheme_choice(messages)
        form = FORMS[scheme]
        try:
            settings = form.settings(messages)
        except ValueError as exc:
            messages.error(f"Cannot train with these settings: {md_escape(exc)}.")
            settings = None
        st.header("Classroom")
        st.toggle(
            form.quiz[0],
            key=keys.QUIZ,
            persist_state="session",
            bind="query-params",
            help=form.quiz[1],
        )
        if st.session_state.get(keys.QUIZ):
            st.toggle(
                "Counts as a hint",
                key=keys.QUIZ_HINT,
                persist_state="session",
                help="Keep the ranked counts in sight during a question (off: they come with the answer).",
            )
        st.selectbox(
            "Play speed (per step)",
            list(SPEEDS),
            index=1,
            format_func=SPEEDS.__getitem__,
            key=keys.PLAY_SPEED,
            persist_state="session",
        )
        st.toggle(
            f"Animate each {form.step}",
            value=True,
            key=keys.ANIMATE,
            persist_state="session",
            help=form.motion + " Off, or when the system asks for reduced motion: no movement.",
        )
    for param, rule in LINK_RULES.items():
        if param in st.session_state:  # the widget was drawn (an error above may stop the form early)
            note = ignored_value(given, param, st.session_state[param], rule)
            if note is not None:
                messages.warning(md_escape(note[0].upper() + note[1:]) + ".")
    if source is None or settings is None:
        return None
    return Inputs(scheme=scheme, source=source, settings=settings)


# The link parameters bound to widgets (bind="query-params"), each with what a valid value is (merges
# and min_frequency are read by settings_form, which says what it ignored).
LINK_RULES = {
    keys.TIE_BREAK: f"use one of {', '.join(TIE_BREAKS)}",
    keys.QUIZ: "use true or false",
}
