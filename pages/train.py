"""Train: watch byte-level BPE learn on a text, merge by merge (the sections: mergescope_ui.train)."""

from mergescope_ui import train
from mergescope_ui.shared.entry import run_through_app

run_through_app()  # on a fresh server's first request for this URL: start over from app.py

messages = train.header()  # the title, and the place under it for every message
inputs = train.sidebar(messages)  # the text, the training settings, the classroom options (None: not ready)
if inputs is not None and (run := train.training(inputs, messages)) is not None:  # the session's run
    train.step_panel(run, inputs)  # the stage and what follows it; reruns alone when the stage steps
