"""Train: watch byte-level BPE learn on a text, merge by merge."""

from mergescope_ui import train_page

train_page.render()
