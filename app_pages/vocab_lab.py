"""Vocab-size lab: compression, OOV and round-trip rates vs vocab size, from one training run."""

from mergescope_ui import lab_page

lab_page.render()
