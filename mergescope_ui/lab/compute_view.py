"""The lab's training run: once per texts + settings (a job's progress bar, then cached), and its
headline.  While a new run computes, its results' slot is empty: nothing on screen belongs to other
settings than the sidebar's."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.analysis import SizeRow
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.workers.job_wait import run_job

from .compute import CACHE, LAB_LIMITS, LabResult, LabSettings, lab_job, lab_key
from .inputs import LabInputs
from .reference import reference_rows
from .texts import HELDOUT_NAME


@dataclass(frozen=True, slots=True)
class LabRun:
    """The run's result, whether it came from the cache, the uploaded tokenizer's rows, and the
    container the results are drawn in (in their slot, empty while a job computes)."""

    result: LabResult
    cached: bool
    references: tuple[SizeRow, ...]
    area: DeltaGenerator


def training(inputs: LabInputs, messages: DeltaGenerator) -> LabRun | None:
    """Train (or take from the cache), show the headline figures, measure the uploaded tokenizer files."""
    names = md_escape(", ".join(inputs.names))
    st.caption(f"Training text: {names}; held-out: {md_escape(inputs.heldout_how)}.")
    bar = st.container()  # a job's progress bar and Cancel, and nothing else
    slot = st.empty()  # the results (empty while new ones compute)
    try:
        result, cached = _compute(inputs.train, inputs.heldout, inputs.settings, bar)
    except ValueError as exc:
        messages.error(f"Cannot compute the curves: {md_escape(exc)}.")
        return None
    texts = {result.run.train.name: inputs.train, **inputs.heldout}
    references = reference_rows(list(inputs.ref_files), texts, inputs.settings.samples, messages, bar)
    area = slot.container()
    with area:
        _headline(result, cached)
    return LabRun(result=result, cached=cached, references=references, area=area)


def _compute(
    train: str, heldout: dict[str, str], settings: LabSettings, bar: DeltaGenerator
) -> tuple[LabResult, bool]:
    """The run from the cache, or computed in a worker process with a progress bar and Cancel in
    ``bar``."""
    key = lab_key(train, heldout, settings)
    found = CACHE.get(key)
    if found is not None:
        return found, True
    status = run_job(key, lab_job, train, heldout, settings, label="Training", limits=LAB_LIMITS, where=bar)
    if not status.ok:
        raise ValueError(status.message)
    CACHE.put(key, status.value)
    return status.value, False


def _headline(result: LabResult, cached: bool) -> None:
    run = result.run
    K = run.merges
    held = run.heldout[0] if run.heldout else None
    st.caption(
        f"Trained on {run.train.chars:,} characters ({run.train.bytes:,} bytes) to vocab size "
        f"{run.vocab_size(K):,} ({K:,} merges; {run.stop_reason}) in {result.seconds:.2f} s"
        + (" · from the cache" if cached else "")
    )
    if run.vocab_size(K) < run.requested_vocab:
        st.info(
            f"Training stopped at {run.vocab_size(K):,} of the {run.requested_vocab:,} asked for: "
            f"{run.stop_reason}. The table stops there: its last row is this final tokenizer."
        )
    cols = st.columns(4)
    cols[0].metric(
        "Train bytes/token",
        f"{run.train.bytes_per_token(K):.2f}",
        help=f"At vocab size {run.vocab_size(K):,}; 1.00 before any merge.",
    )
    if held is not None:
        train_bpt = run.train.bytes_per_token(K)
        gap = held.bytes_per_token(K) / train_bpt - 1 if train_bpt else 0.0
        cols[1].metric(
            "Held-out bytes/token",
            f"{held.bytes_per_token(K):.2f}",
            delta=f"{100 * gap:+.1f}% vs train",
            delta_color="off",
            help="The gap to the training text is over-fitting: merges that fit only the training text.",
        )
    bpe = [r for r in result.rows if r.tokenizer == "byte-level BPE" and r.text == HELDOUT_NAME]
    chars = [r for r in result.rows if r.tokenizer == "character baseline" and r.text == HELDOUT_NAME]
    if bpe:
        cols[2].metric(
            "OOV rate, byte-level BPE (held-out)",
            f"{100 * bpe[-1].oov_rate:.2f}%",
            help="Every text is made of bytes, and all 256 are in the vocab: nothing is out of vocabulary.",
        )
    if chars:
        cols[3].metric(
            "OOV rate, character baseline (held-out)",
            f"{100 * chars[0].oov_rate:.2f}%",
            help=f"A vocab of the {chars[0].vocab_size:,} distinct characters of the training text: "
            "any other character cannot be encoded.",
        )
