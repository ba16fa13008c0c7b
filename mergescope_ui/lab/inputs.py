"""The top of the lab and its sidebar: training text, held-out text, settings, tokenizer files to compare."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from .compute import LabSettings
from .link import apply_link, write_link
from .reference import reference_upload
from .settings_form import lab_settings
from .texts import heldout_text, training_text

TITLE = "🧪 Vocab-size lab"


@dataclass(frozen=True, slots=True)
class LabInputs:
    """What the sidebar gives the page: the texts after the split, where the held-out text came from,
    the names of the training text's parts, the settings, and uploaded tokenizer files (name, bytes)."""

    train: str
    heldout: dict[str, str]
    heldout_how: str
    names: tuple[str, ...]
    settings: LabSettings
    ref_files: tuple[tuple[str, bytes], ...]


def header() -> DeltaGenerator:
    """The title, the question the lab answers, and the container for every section's messages."""
    st.title(TITLE)
    st.write(
        "“Should we use 8K or 32K?” Train once to the largest size and see compression, OOV and round-trip "
        "rates for every smaller vocabulary, on the training text and on held-out text."
    )
    return st.container()


def sidebar(messages: DeltaGenerator) -> LabInputs | None:
    """The sidebar's four sections; None (after saying why in ``messages``) until there is text to train."""
    apply_link(messages)
    with st.sidebar:
        st.header("Training text")
        picked = training_text(messages)
        split = None
        if picked is not None:
            st.header("Held-out text")
            split = heldout_text(picked[0], messages)
        st.header("Settings")
        settings = lab_settings(messages)
        st.header("Compare")
        ref_files = reference_upload()
    write_link(messages)
    if picked is None or split is None or settings is None:
        return None
    train, heldout, how = split
    if not train.strip():
        messages.error("The training text is empty after the split; hold out less, or add text.")
        return None
    return LabInputs(
        train=train,
        heldout=heldout,
        heldout_how=how,
        names=tuple(picked[1]),
        settings=settings,
        ref_files=tuple(ref_files),
    )
