"""The fetch in place: a tokenizer of tiktoken or the hub that is not on this machine yet (Streamlit side).

One button fetches it with a progress bar; a failed fetch is said in one line, and with fetching off
the page offers the upload instead.  Every name shown comes from a link or a text box: all escaped.
"""

from __future__ import annotations

import streamlit as st

from bpe_core.hub import FetchError, Progress, ProgressCallback
from mergescope_ui.shared.html.safe_text import md_escape

from . import keys
from .fetch_settings import FetchSettings
from .resolve import local_tokenizers
from .specs import CachedSpec, UploadSpec

MEGABYTE = 1e6


def _to_upload() -> None:
    st.session_state[keys.KIND] = UploadSpec.choice


def offer_fetch(spec: CachedSpec) -> None:
    """Say that ``spec`` is not on this machine, and offer to fetch it (or to load its files)."""
    settings = FetchSettings.from_env()  # read at every run: cheap
    problem = st.session_state.get(keys.FETCH_PROBLEM)
    if problem is not None and problem[0] == spec.key():
        st.error(f"Could not fetch **{md_escape(spec.name)}**: {md_escape(problem[1])}")
    if settings.off is not None:
        st.info(
            f"**{md_escape(spec.name)}** is not on this machine, and this server does not fetch tokenizers "
            f"({md_escape(settings.off)}). Load its files with **Load tokenizer files**."
        )
        st.button("Load its files", key=keys.TO_UPLOAD, on_click=_to_upload)
        return
    st.info(
        f"**{md_escape(spec.name)}** is not on this machine yet. Fetch it once from "
        f"{md_escape(spec.source(settings))}: it is checked against "
        f"its published hash and kept in {md_escape(spec.where)}, so it works offline from then on."
    )
    cols = st.columns([1, 1, 2])
    fetch = cols[0].button(f"⬇️ Fetch {md_escape(spec.name)}", key=keys.FETCH, type="primary")
    cols[1].button("Load its files instead", key=keys.TO_UPLOAD, on_click=_to_upload)
    if fetch:
        _fetch(spec, settings)


def _fetch(spec: CachedSpec, settings: FetchSettings) -> None:
    """Fetch with a progress bar; then look in the caches again (or keep the one-line reason)."""
    bar = st.progress(0.0, text=f"Fetching {md_escape(spec.name)}…")

    def report(p: Progress) -> None:
        size = f" of {p.total / MEGABYTE:.1f} MB" if p.total else ""
        bar.progress(p.fraction, text=f"Fetching {md_escape(p.name)}: {p.done / MEGABYTE:.1f}{size}")

    try:
        spec.fetch(settings, progress=_every_percent(report))
    except (FetchError, OSError) as exc:
        message = str(exc) if isinstance(exc, FetchError) else f"cannot write the cache ({exc})"
        st.session_state[keys.FETCH_PROBLEM] = (spec.key(), message)
    else:
        st.session_state.pop(keys.FETCH_PROBLEM, None)
        st.session_state[keys.RELABEL] = True  # its label in the picker changes: send it again
        local_tokenizers.clear()
    st.rerun()


def _every_percent(report: ProgressCallback) -> ProgressCallback:
    """``report``, called when the bar moves by a percent (or a megabyte), not at each 64 KB read."""
    last = Progress("", -int(MEGABYTE), None)

    def call(p: Progress) -> None:
        nonlocal last
        if p.name != last.name or p.fraction - last.fraction >= 0.01 or p.done - last.done >= MEGABYTE:
            last = p
            report(p)

    return call
