"""Engine calls the pages share, cached where caching is safe.

A trainer is a live iterator: it is never cached (``st.cache_data`` cannot
pickle it, ``st.cache_resource`` would share one iterator between users); it
lives in the user's own ``session_state`` inside a
:class:`~mergescope_ui.stepper.TrainingRun`.
"""

from __future__ import annotations

import streamlit as st

import bpe_core

from .corpora import Corpus, find_corpus, load_index, load_text
from .settings import TrainSettings
from .stepper import TrainingRun
from .upload import DecodedText, decode_upload


@st.cache_data(show_spinner=False)
def corpus_index() -> list[Corpus]:
    """The built-in corpora (read once per server)."""
    return load_index()


@st.cache_data(show_spinner=False)
def corpus_text(corpus_id: str) -> str:
    """The text of a built-in corpus (read once per server)."""
    return load_text(find_corpus(corpus_id))


@st.cache_data(show_spinner=False, max_entries=8)
def decoded_upload(raw: bytes, *, lossy: bool, max_bytes: int) -> DecodedText:
    """:func:`mergescope_ui.upload.decode_upload`, cached per file content."""
    return decode_upload(raw, lossy=lossy, max_bytes=max_bytes)


def start_run(text: str, settings: TrainSettings, *, identity: object) -> TrainingRun:
    """A fresh trainer on ``text``; bad settings raise the engine's ValueError."""
    trainer = bpe_core.train_steps(text, **settings.engine_kwargs())
    return TrainingRun(trainer=trainer, identity=identity)
