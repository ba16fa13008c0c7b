"""The comparison, once per inputs: from the server's cache, or computed in a worker process.

This is the page's one heavy call (:func:`comparison`).  :func:`~mergescope_ui.schemes.compute.compare_job`
runs as a job of the server's worker runner (:mod:`mergescope_ui.shared.jobs`, through
:func:`~mergescope_ui.shared.job_wait.run_job`): a progress bar and Cancel here, the training in a
process of its own (so other sessions never wait for it), within :data:`SCHEMES_LIMITS`; the result
(plain records) comes back and is cached for the server's other sessions.
"""

from __future__ import annotations

from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared.job_wait import run_job
from mergescope_ui.shared.jobs import MEGABYTE, Limits
from mergescope_ui.shared.safe_text import md_escape

from .compute import CACHE, Comparison, check, compare_job, job_key
from .inputs import SchemesInputs

SCHEMES_LIMITS = Limits(seconds=300, memory_bytes=1024 * MEGABYTE)
"""50,000 characters, the four schemes at seven sizes: well under a minute and a few hundred MB here."""


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
        vocab_size=inputs.vocab_size,
        sentence=inputs.sentence,
        sizes=inputs.sizes,
    )
    if not status.ok or not isinstance(status.value, Comparison):
        messages.error(f"Cannot compare the schemes: {md_escape(status.message or 'no result')}.")
        return None
    CACHE.put(key, status.value)
    return status.value, False
