"""The session's run for the sidebar's choices, kept across reruns, and the panel that steps it.

:func:`panel_for` is the page's one entry below the sidebar: for BPE the run is a
:class:`~mergescope_ui.shared.training_run.TrainingRun` (:func:`training`) stepped by :mod:`.panel`;
for WordPiece and Unigram a driver (:func:`.scheme_panel.scheme_training`) stepped by
:mod:`.scheme_panel`.  The run lives in ``session_state`` (:data:`mergescope_ui.shared.keys.RUN`,
:data:`.keys.SCHEME_RUN`), never in a cache (see :mod:`mergescope_ui.shared.workers.cache`).  A new
text or new settings start a new run (BPE's replayed to the same step when only the settings changed),
and the page says what changed.
"""

from __future__ import annotations

from functools import singledispatch

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.settings import APP_WORKERS, changes
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.shared.workers.remote_trainer import prefetch, start_trainer

from . import keys
from .inputs import Inputs, SchemeInputs
from .panel import step_panel
from .scheme_panel import scheme_panel, scheme_training
from .stage import move_stage


@singledispatch
def panel_for(inputs: Inputs | SchemeInputs | None, messages: DeltaGenerator) -> None:
    """The session's run for ``inputs`` (a message in ``messages`` when it cannot start), then its panel:
    the stage and what follows it, which rerun alone when the stage steps.  None: the sidebar is not
    ready (it says why), nothing to train."""


@panel_for.register
def _(inputs: Inputs, messages: DeltaGenerator) -> None:
    run = training(inputs, messages)
    if run is not None:
        step_panel(run, inputs)


@panel_for.register
def _(inputs: SchemeInputs, messages: DeltaGenerator) -> None:
    if scheme_training(inputs, messages) is not None:
        scheme_panel(inputs)


def training(inputs: Inputs, messages: DeltaGenerator) -> TrainingRun | None:
    """The session's BPE run for this text and these settings (None after an error in ``messages``),
    restarting on a change (the stage says so)."""
    source, settings = inputs.source, inputs.settings
    identity = RunIdentity.of(source.text, settings)
    old: TrainingRun | None = st.session_state.get(shared_keys.RUN)
    if old is not None and old.identity == identity:
        return old
    same_text = old is not None and old.identity.text_digest == identity.text_digest
    try:
        with st.spinner("Pre-tokenizing and counting pairs…"):
            trainer = start_trainer(source.text, settings, workers=APP_WORKERS)  # a bad text: ValueError
            prefetch(trainer, 1)  # in a worker, the pairs are counted at the first merge: under the spinner
            run = TrainingRun(trainer=trainer, identity=identity)
            target = old.position if same_text and old is not None else 0
            if target:
                bar = messages.progress(0.0, text=f"Retraining up to step {target}…")
                run.jump(target, progress=lambda done, total: bar.progress(min(1.0, done / max(total, 1))))
                bar.empty()
    except ValueError as exc:
        messages.error(f"Cannot train with these settings: {md_escape(exc)}.")
        st.session_state.pop(shared_keys.RUN, None)
        return None
    notice = ""
    if old is not None:
        what = changes(old.identity.settings, settings) if same_text else ["the text changed"]
        where = f" and replayed to step {run.position} so you can compare" if run.position else ""
        why = "; ".join(what) or "new text"
        notice = f"🔄 Training restarted ({why}): every merge was recomputed{where}."
    st.session_state[shared_keys.RUN] = run
    st.session_state[keys.QUIZ_LOG] = {}
    # The stage shows the new run's position, and says why in its status line (a banner above the
    # stage would push it down the screen until the next full rerun).
    move_stage(notice)
    return run
