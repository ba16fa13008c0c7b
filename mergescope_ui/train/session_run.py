"""The session's run for the sidebar's choices, kept across reruns, and the one panel that steps it.

:func:`panel_for` is the page's one entry below the sidebar: the chosen scheme's :class:`~.panel.Page`
(:data:`PAGES`) starts (or keeps) its run and says what is drawn below the stage.  BPE's run is a
:class:`~mergescope_ui.shared.training_run.TrainingRun` in :data:`mergescope_ui.shared.keys.RUN` (the
Tokenize page reads it), asked through a :class:`BpeDriver`; the driver shown is in
:data:`.keys.DRIVER`.  A new text or new settings start a new run, and the page says what changed.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.settings import APP_WORKERS, changes
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.shared.workers.remote_trainer import prefetch, start_trainer

from . import details, keys, whatif
from .inputs import Inputs
from .lesson_file_view import lesson_download
from .link import link_box, link_state, write_link
from .live import live_room
from .panel import Page, begin, counted_bar, pasted, step_panel
from .quiz import BPE_QUESTION
from .scheme_driver import LocalDriver
from .scheme_panel import SCHEME_PAGE
from .stage import move_stage
from .stage_data import StageViews


class BpeDriver(LocalDriver[TrainingRun, StageViews]):
    """BPE's run as the page asks it: a :class:`TrainingRun` (its trainer here or in a worker, which
    fetches steps in batches) and its :class:`StageViews`."""

    def __init__(self, run: TrainingRun, text: str) -> None:
        super().__init__(run, StageViews(run, text), BPE_QUESTION)


def bpe_start(inputs: Inputs, messages: DeltaGenerator) -> BpeDriver | None:
    """The session's BPE run (:func:`training`) as a driver, kept with it."""
    run = training(inputs, messages)
    if run is None:
        return None
    driver: BpeDriver | None = st.session_state.get(keys.BPE_DRIVER)
    if driver is None or driver.run is not run:
        try:
            driver = BpeDriver(run, inputs.source.text)
        except ValueError as exc:
            messages.error(f"The engine stopped with an error: {md_escape(exc)}.")
            return None
        st.session_state[keys.BPE_DRIVER] = driver
    return driver


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
    # The stage shows the new run's position, and says why in its status line (a banner above the
    # stage would push it down the screen until the next full rerun).
    return begin(shared_keys.RUN, run, notice)


def bpe_below(driver: BpeDriver, inputs: Inputs, options: StageSettings) -> None:
    """BPE's sections below the stage: the URL, the text line, the link, the lesson file, the live room,
    the what-if, the tables."""
    run = driver.run
    moment = link_state(run, pasted=pasted(inputs))
    write_link(moment)  # the URL follows the step the stage shows (applied in its callback)
    details.text_line(inputs, run)
    link_box(moment)
    lesson_download(inputs, position=run.position, max_steps=run.max_steps, options=options)  # (#44)
    live_room(run, driver.views, options)  # a live room: students follow this step (#26)
    whatif.what_if(run, moved=move_stage)  # what if one choice had gone the other way (#14)
    details.step_tables(run, large=options.large)
    details.merges_so_far(run, large=options.large)
    whatif.merge_order(run)


PAGES = {
    "bpe": Page(
        start=bpe_start,
        bar=counted_bar,
        below=bpe_below,
        stopped="The engine stopped with an error",
    ),
    "wordpiece": SCHEME_PAGE,
    "unigram": SCHEME_PAGE,
}
"""Each scheme's page, by the name in ``?scheme=`` (:data:`.scheme_form.FORMS`)."""


def panel_for(inputs: Inputs | None, messages: DeltaGenerator) -> None:
    """The session's run for ``inputs`` (a message in ``messages`` when it cannot start), then its panel:
    the stage and what follows it, which rerun alone when the stage steps.  None: the sidebar is not
    ready (it says why), nothing to train."""
    if inputs is None:
        return
    page = PAGES[inputs.scheme]
    driver = page.start(inputs, messages)
    if driver is None:
        st.session_state.pop(keys.DRIVER, None)
        return
    shown: object = st.session_state.get(keys.DRIVER)
    if shown is not driver:  # a new run, or another scheme's
        st.session_state[keys.DRIVER] = driver
        move_stage()
    step_panel(driver, inputs, page)
