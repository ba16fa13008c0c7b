"""Train: watch a tokenizer learn on a text, step by step (the sections: mergescope_ui.train)."""

from mergescope_ui import train

messages = train.header()  # the title, and the place under it for every message
inputs = train.sidebar(messages)  # the text, the scheme and its settings, the classroom options
train.panel_for(inputs, messages)  # the session's run, the stage and what follows it (reruns alone)
