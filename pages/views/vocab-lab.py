"""Vocab-size lab: compression, OOV and round-trip rates against vocab size (sections: mergescope_ui.lab)."""

from mergescope_ui import lab

messages = lab.header()  # the title, the question it answers, the place for every message
inputs = lab.sidebar(messages)  # texts, held-out text, settings, tokenizer files (None: not ready yet)
if inputs is not None and (run := lab.training(inputs, messages)) is not None:  # one cached training run
    lab.tabs(inputs, run)  # curves, per script, table of sizes, speed lesson
