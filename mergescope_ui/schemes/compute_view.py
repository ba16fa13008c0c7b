"""The comparison, once per inputs: from the server's cache, or computed by
:func:`~mergescope_ui.schemes.compute.compare_job` in a worker process (a progress bar and Cancel here;
other sessions never wait for it), within :data:`SCHEMES_LIMITS`."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.workers.job_wait import run_job
from mergescope_ui.shared.workers.jobs import MEGABYTE, Limits

from .compute import CACHE, Comparison, check, compare_job, job_key
from .inputs import SchemesInputs

SCHEMES_LIMITS = Limits(seconds=300, memory_bytes=1024 * MEGABYTE)
"""50,000 characters, the four schemes at seven sizes: well under a minute and a few hundred MB here."""


@dataclass(frozen=True, slots=True)
class SchemesRun:
    """The comparison, whether it came from the cache, and the container its sections are drawn in (in
    their slot, empty while a new comparison computes, under the job's bar)."""

    result: Comparison
    cached: bool
    area: DeltaGenerator


def comparison(inputs: SchemesInputs, messages: DeltaGenerator) -> SchemesRun | None:
    """The comparison of ``inputs``; None after saying why not."""
    bar = st.container()  # a job's progress bar and Cancel, and nothing else
    slot = st.empty()  # the sections (empty while a new comparison computes)
    text, held_out, vocab, sizes = inputs.text, inputs.held_out, inputs.vocab_size, inputs.sizes
    key = job_key(text, held_out, vocab_size=vocab, sentence=inputs.sentence, sizes=sizes)
    found = CACHE.get(key)
    if found is not None:
        return SchemesRun(result=found, cached=True, area=slot.container())
    try:
        check(text, held_out, vocab_size=vocab, sizes=sizes)
    except ValueError as exc:
        messages.error(f"Cannot compare the schemes: {md_escape(exc)}.")
        return None
    status = run_job(
        key,
        compare_job,
        text,
        held_out,
        label="Training the four schemes",
        limits=SCHEMES_LIMITS,
        where=bar,
        vocab_size=vocab,
        sentence=inputs.sentence,
        sizes=sizes,
    )
    if not status.ok or not isinstance(status.value, Comparison):
        messages.error(f"Cannot compare the schemes: {md_escape(status.message or 'no result')}.")
        return None
    CACHE.put(key, status.value)
    return SchemesRun(result=status.value, cached=False, area=slot.container())
