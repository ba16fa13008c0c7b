"""Whether the page is on a projector (presenter mode): it then keeps the tokens within the first screen.

Presenter mode leaves out the intro line, makes the text box shorter and folds the example buttons,
the tokenizer picker and its notes away under one line (the name of the tokenizer in use stays above
the tokens).
"""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared import keys as shared_keys


def presenting() -> bool:
    """True in presenter mode (the toggle in the sidebar, or ``?presenter=true``)."""
    return bool(st.session_state.get(shared_keys.PRESENTER, False))
