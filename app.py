"""MergeScope: watch a byte-level BPE tokenizer learn, merge by merge, on any text.

Run from the repo root: ``streamlit run app.py`` (``.streamlit/config.toml`` is read from there).
This entry script sets up the page, lists the pages for ``st.navigation``, and
draws what every page shares: the presenter toggle and the page-wide CSS.  Each
page file in ``pages/`` calls its sections from ``mergescope_ui.<page>``.
"""

import streamlit as st

from mergescope_ui import train
from mergescope_ui.shared import keys
from mergescope_ui.shared.memory import start_trimmer
from mergescope_ui.shared.no_such_page import no_such_page, unknown_path
from mergescope_ui.shared.paste_guard import paste_guard
from mergescope_ui.shared.theme import page_css

# Presenter mode (?presenter=true, or the toggle below) starts with the sidebar folded away: the page gets
# the whole projector width; the » button at the top left brings the sidebar back.
presenter = bool(st.session_state.get(keys.PRESENTER, st.query_params.get("presenter") == "true"))
st.set_page_config(
    page_title="MergeScope",
    page_icon="🔬",
    layout="wide",
    initial_sidebar_state="collapsed" if presenter else "auto",
)
start_trimmer()  # once per server: give the memory that ended sessions freed back to the system
PAGES = [
    st.Page("pages/home.py", title="Welcome", icon="🏠", url_path="home", default=True),
    st.Page("pages/train.py", title="Train", icon="🔬", url_path="train"),
    st.Page("pages/tokenize.py", title="Tokenize", icon="🔤", url_path="tokenize"),
    st.Page("pages/vocab-lab.py", title="Vocab-size lab", icon="🧪", url_path="vocab-lab"),
]
missing = unknown_path(PAGES)  # a URL that names no page (asked before the navigation resolves it)
navigation = st.navigation(PAGES)
with st.sidebar:
    st.toggle(
        "📽 Presenter mode (large text)",
        key=keys.PRESENTER,
        persist_state="session",
        bind="query-params",
        help="Bigger text, tokens and charts for a projector.",
    )
    paste_guard()  # a long paste is cut before the browser inserts it (it froze the page)
st.html(page_css(presenter=bool(st.session_state.get(keys.PRESENTER, False)), pages=train.PAGE_CSS))
if missing is None:
    navigation.run()
else:  # say so, with a link to each page, instead of showing the Welcome page
    no_such_page(missing, PAGES)
