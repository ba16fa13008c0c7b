"""The comparison, once per inputs: from the server's cache, or computed with a progress bar.

This is the page's one heavy call (:func:`comparison`).  :func:`~mergescope_ui.schemes.compute.compare_job`
takes a ``progress(done, total, note)`` callback and returns plain records, the shape of a job of the
worker runner (issue 28); until that runner is in the app it runs here, on this session's thread, kept
small by :data:`~mergescope_ui.schemes.compute.MAX_CHARS` and the few sizes of the chart.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared.safe_text import md_escape

from .compute import CACHE, Comparison, compare_job, job_key
from .inputs import SchemesInputs


def comparison(inputs: SchemesInputs, messages: DeltaGenerator) -> tuple[Comparison, bool] | None:
    """The comparison of ``inputs`` and whether it came from the cache; None after saying why not."""
    key = job_key(
        inputs.text,
        inputs.held_out,
        vocab_size=inputs.vocab_size,
        sentence=inputs.sentence,
        sizes=inputs.sizes,
    )
    found = CACHE.get(key)
    if isinstance(found, Comparison):
        return found, True
    slot = st.empty()
    bar = slot.progress(0.0, text="Training the four schemes…")

    def progress(done: int, total: int, note: str) -> None:
        bar.progress(min(1.0, done / total) if total else 0.0, text=md_escape(f"Training: {note}"))

    try:
        result = compare_job(
            inputs.text,
            inputs.held_out,
            vocab_size=inputs.vocab_size,
            sentence=inputs.sentence,
            sizes=inputs.sizes,
            progress=progress,
        )
    except ValueError as exc:
        slot.empty()
        messages.error(f"Cannot compare the schemes: {md_escape(exc)}.")
        return None
    slot.empty()
    CACHE.put(key, result)
    return result, False
