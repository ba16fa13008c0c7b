"""MergeScope: watch a byte-level BPE tokenizer learn, merge by merge.

Run from the repo root: ``streamlit run app.py`` (``.streamlit/config.toml`` is read from there).
This entry script sets up the page, the shared sidebar and the navigation;
the pages live in ``app_pages/`` (not ``pages/``, see mergescope_ui/nav.py) and their logic in ``mergescope_ui``.
"""

import streamlit as st

from mergescope_ui import keys
from mergescope_ui.nav import pages
from mergescope_ui.theme import page_css

st.set_page_config(page_title="MergeScope", page_icon="🔬", layout="wide")
navigation = st.navigation(pages())
with st.sidebar:
    st.toggle(
        "📽 Presenter mode (large text)",
        key=keys.PRESENTER,
        persist_state="session",
        bind="query-params",
        help="Bigger text, tokens and charts for a projector.",
    )
st.html(page_css(presenter=bool(st.session_state.get(keys.PRESENTER, False))))
navigation.run()
