"""The comparison, once per inputs: from the server's cache, or computed in a worker process (the
Streamlit side of :mod:`mergescope_ui.schemes.compute`).

This is the page's one heavy call (:func:`comparison`).  :func:`~mergescope_ui.schemes.compute.compare_job`
runs as a job of the server's worker runner (:mod:`mergescope_ui.shared.workers.jobs`, through
:func:`~mergescope_ui.shared.workers.job_wait.run_job`): a progress bar and Cancel here, the training in a
process of its own (so other sessions never wait for it), within :data:`SCHEMES_LIMITS`; the result
(plain records) comes back and is cached for the server's other sessions.
"""

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
    found = _compare(inputs, messages, bar)
    return None if found is None else SchemesRun(result=found[0], cached=found[1], area=slot.container())


def _compare(
    inputs: SchemesInputs, messages: DeltaGenerator, bar: DeltaGenerator
) -> tuple[Comparison, bool] | None:
    key = job_key(
        inputs.text,
        inputs.held_out,
        vocab_size=inputs.vocab_size,
        sentence=inputs.sentence,
        sizes=inputs.sizes,
    )
    found = CACHE.get(key)
    if found is not None:
        return found, True
    try:
        check(inputs.text, inputs.held_out, vocab_size=inputs.vocab_size, sizes=inputs.sizes)
    except ValueError as exc:
        messages.error(f"Cannot compare the schemes: {md_escape(exc)}.")
        return None
    status = run_job(
        key,
        compare_job,
        inputs.text,
        inputs.held_out,
        label="Training the four schemes",
        limits=SCHEMES_LIMITS,
        where=bar,
        vocab_size=inputs.vocab_size,
        sentence=inputs.sentence,
        sizes=inputs.sizes,
    )
    if not status.ok or not isinstance(status.value, Comparison):
        messages.error(f"Cannot compare the schemes: {md_escape(status.message or 'no result')}.")
        return None
    CACHE.put(key, status.value)
    return status.value, False
