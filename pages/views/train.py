"""Train: watch a tokenizer learn on a text, step by step (the sections: mergescope_ui.train)."""

from mergescope_ui import train

messages = train.header()  # the title, and the place under it for every message
inputs = train.sidebar(
    messages
)  # the text, the scheme and its settings, the classroom options (None: not ready)
if isinstance(inputs, train.SchemeInputs):  # WordPiece or Unigram: the same stage, their own steps
    if train.scheme_training(inputs, messages) is not None:
        train.scheme_panel(inputs)
elif inputs is not None and (run := train.training(inputs, messages)) is not None:  # the session's run
    train.step_panel(run, inputs)  # the stage and what follows it; reruns alone when the stage steps
