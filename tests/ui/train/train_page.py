"""The Train page in AppTest, opened as a person would: the app first, then the page, with a state."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"


def open_train(**state: object) -> AppTest:
    """The Train page after the app's first run, with ``state`` in ``session_state`` (no exception)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(TRAIN).run()
    assert not at.exception, at.exception
    return at
