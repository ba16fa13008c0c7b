"""MergeScope: watch a byte-level BPE tokenizer learn, merge by merge, on any text.

Run from the repo root: ``streamlit run app.py`` (``.streamlit/config.toml`` is read from there).
This entry script sets up the page, lists the pages for ``st.navigation``, and
draws what every page shares: the presenter toggle and the page-wide CSS.  Each
page file in ``pages/views/`` calls its sections from ``mergescope_ui.<page>`` (the files
in ``pages/`` itself only run this script: see ``mergescope_ui/shared/entry.py``).
"""

import streamlit as st

from mergescope_ui import train
from mergescope_ui.shared import keys
from mergescope_ui.shared.html.theme import DEFAULT_TEXT_SIZE, TEXT_SIZES, page_css
from mergescope_ui.shared.inputs.paste_guard import paste_guard
from mergescope_ui.shared.no_such_page import hidden_pages
from mergescope_ui.shared.workers.memory import start_trimmer
from mergescope_ui.shared.workers.stack_dump import dump_stacks_on_signal

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
dump_stacks_on_signal()  # kill -USR1 <pid>: every thread's stack on the server's stderr
PAGES = [
    # The default page is the root, "/"; url_path="" leaves it no other name, so "home" is free for the alias.
    st.Page("pages/views/welcome.py", title="Welcome", icon="🏠", url_path="", default=True),
    st.Page("pages/views/train.py", title="Train", icon="🔬", url_path="train"),
    st.Page("pages/views/tokenize_page.py", title="Tokenize", icon="🔤", url_path="tokenize"),
    st.Page("pages/views/vocab-lab.py", title="Vocab-size lab", icon="🧪", url_path="vocab-lab"),
    st.Page("pages/views/schemes.py", title="Compare schemes", icon="⚖️", url_path="schemes"),
    st.Page("pages/views/classroom.py", title="Live room", icon="🎓", url_path="room"),
]
# Unlisted: /home (the Welcome page's old URL) switches to "/"; any other unknown URL gets "No such page".
navigation = st.navigation(PAGES + hidden_pages(PAGES, aliases={"home": PAGES[0]}))
with st.sidebar:
    st.toggle(
        "📽 Presenter mode (large text)",
        key=keys.PRESENTER,
        persist_state="session",
        bind="query-params",
        help="Bigger text, tokens and charts for a projector.",
    )
    if st.session_state.get(keys.PRESENTER):
        st.selectbox(
            "Text size for the room",
            list(TEXT_SIZES),
            index=list(TEXT_SIZES).index(DEFAULT_TEXT_SIZE),
            key=keys.TEXT_SIZE,
            persist_state="session",
            bind="query-params",
            help="Presenter mode scales with the window; this makes every size larger or smaller on top.",
        )
    paste_guard()  # a long paste is cut before the browser inserts it (it froze the page)
st.html(
    page_css(
        presenter=bool(st.session_state.get(keys.PRESENTER, False)),
        pages=train.PAGE_CSS,
        text_size=str(st.session_state.get(keys.TEXT_SIZE, DEFAULT_TEXT_SIZE)),
    )
)
navigation.run()
