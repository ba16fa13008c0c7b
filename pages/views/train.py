"""Train: watch byte-level BPE learn on a text, merge by merge (the sections: mergescope_ui.train)."""

from mergescope_ui import train

messages = train.header()  # the title, and the place under it for every message
inputs = train.sidebar(messages)  # the text, the training settings, the classroom options (None: not ready)
if inputs is not None and (run := train.training(inputs, messages)) is not None:  # the session's run
    train.step_panel(run, inputs)  # the stage and what follows it; reruns alone when the stage steps
