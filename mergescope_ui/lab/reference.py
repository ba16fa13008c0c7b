"""A tokenizer from files to compare with the lab's run (e.g. GPT-2's), measured at its own vocab size."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.analysis import SizeRow
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.tokenizer_files import MAX_UPLOAD_FILES, UPLOAD_TYPES
from mergescope_ui.shared.workers.job_wait import UPLOAD_LIMITS, run_job

from . import keys
from .compute import REFERENCES, reference_job, reference_key

# files' digest -> what the loader assumed (beside the rows' cache)
_LOAD_NOTES: dict[str, tuple[str, ...]] = {}
_MAX_LOAD_NOTES = 64


def _remember_reference() -> None:
    files = st.session_state.get(keys.REF_UPLOAD) or []
    if files:
        st.session_state[keys.REF_FILES] = [(f.name, f.getvalue()) for f in files]
    else:
        st.session_state.pop(keys.REF_FILES, None)


def reference_upload() -> list[tuple[str, bytes]]:
    """An optional tokenizer from files (e.g. GPT-2's vocab.json + merges.txt) to compare at its own size."""
    st.file_uploader(
        "Tokenizer files (optional)",
        accept_multiple_files=True,
        key=keys.REF_UPLOAD,
        on_change=_remember_reference,
        type=list(UPLOAD_TYPES),
        help="tokenizer.json, a .tiktoken or .model file, or vocab.json + merges.txt "
        f"(up to {MAX_UPLOAD_FILES} files of one tokenizer; with encoding.json when you have it, as it "
        "records the split pattern those files lack, else gpt2 is assumed): it shows as a point at its own "
        "vocab size and as rows of the table.",
    )
    return list(st.session_state.get(keys.REF_FILES, []))


def reference_rows(
    files: list[tuple[str, bytes]],
    texts: dict[str, str],
    samples: int,
    messages: DeltaGenerator,
    bar: DeltaGenerator,
) -> tuple[SizeRow, ...]:
    """The uploaded tokenizer measured on each text (cached; on a miss in a worker process, with a
    progress bar and Cancel in ``bar``); () without files."""
    if not files:
        return ()
    name = " + ".join(n for n, _ in files)
    key = digest(*[part for file in files for part in file])  # name, bytes, name, bytes, ...
    cache_key = reference_key(key, name, texts, samples)
    rows = REFERENCES.get(cache_key)
    if rows is None:
        status = run_job(
            cache_key,
            reference_job,
            files,
            name,
            texts,
            samples,
            label=f"Measuring {name}",
            limits=UPLOAD_LIMITS,
            where=bar,
        )
        if not status.ok:
            messages.error(f"Cannot use the tokenizer files {md_escape(name)}: {md_escape(status.message)}.")
            return ()
        rows, notes = status.value
        REFERENCES.put(cache_key, rows)
        if len(_LOAD_NOTES) >= _MAX_LOAD_NOTES:
            _LOAD_NOTES.clear()
        _LOAD_NOTES[key] = notes
    for note in _LOAD_NOTES.get(key, ()):
        messages.warning(f"{md_escape(name)}: {md_escape(note)}.")
    return rows
