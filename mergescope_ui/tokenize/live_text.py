"""A text box that reports its text while you type (a Streamlit components v2 element, no iframe), and
the Tokenize page's text: example buttons above that box (:func:`text_input`).

``st.text_area`` sends its value only on Ctrl+Enter or on blur; this box sends it :data:`DEBOUNCE_MS`
after the last key, for texts up to :data:`LIVE_BYTES` (past that, it says the tokens update on
Ctrl+Enter).  No keystroke is lost: Python sends a text back only when the page changes it (an
example, a link) with a new ``revision``, and the box takes it only for a revision it has not seen.
A paste inserts at most :data:`~mergescope_ui.shared.inputs.upload_widgets.MAX_PASTE_CHARS`
characters, as other pages' text areas do.  Nothing typed is rendered as HTML here; the box's
JavaScript and CSS are ``live_assets/box.js`` and ``box.css``.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ..shared.inputs.upload_widgets import MAX_PASTE_CHARS
from . import keys
from .assets import asset
from .screen import folded

DEBOUNCE_MS = 300
LIVE_BYTES = 100_000  # "about 100 KB": up to here the tokens follow every pause in typing
MAX_CHARS = 2_000_000

_BOX = st.components.v2.component(
    "mergescope_live_text", js=asset("box.js"), css=asset("box.css"), isolate_styles=False
)


def live_text_box(
    label: str,
    *,
    key: str,
    state_key: str,
    revision: int,
    height: int = 130,
    placeholder: str = "",
    on_change: Callable[[], None] | None = None,
) -> None:
    """Draw the box; what the user types lands in ``session_state[state_key]`` (then ``on_change``);
    ``revision`` changes whenever the page itself sets it (the box then shows that text)."""
    text = st.session_state.get(state_key, "")

    def copy() -> None:
        reported = (st.session_state.get(key) or {}).get("text")
        if isinstance(reported, str):
            st.session_state[state_key] = reported[:MAX_CHARS]
            if on_change is not None:
                on_change()

    _BOX(
        key=key,
        data={
            "name": key,
            "label": label,
            "text": text,
            "rev": revision,
            "height": height,
            "placeholder": placeholder,
            "live_bytes": LIVE_BYTES,
            "max_chars": MAX_CHARS,
            "max_paste": MAX_PASTE_CHARS,
            "debounce_ms": DEBOUNCE_MS,
        },
        default={"text": text},
        on_text_change=copy,
    )


EXAMPLES: dict[str, str] = {
    "English": "The lighthouse keeper climbed the stairs, lit the lamp, and watched the ships come home.",
    "Chinese": "机器学习是人工智能的一个分支。我们用数据训练模型。",
    "Code": 'def greet(name: str) -> str:\n    """Say hello."""\n    return f"Hello, {name}!"\n',
    "Emoji & ZWJ": "Family: 👨‍👩‍👧‍👦  flags: 🇯🇵🇫🇷  skin tone: 👋🏽  heart: ❤️ <3",
    "Numbers": "In 2024, 1,234,567 visitors paid $3.14 each; π ≈ 3.14159265358979.",
    "Whitespace": "a  b\tc\n\n    indented\n\t\ttabs   trailing   \n",
    "HTML": '<script>alert("hi")</script> </span> & "quotes" \'single\'',
}


def set_text(text: str) -> None:
    """The page sets the text (an example, a link): the box shows it, the tokens follow."""
    st.session_state[keys.TEXT] = text[:MAX_CHARS]
    st.session_state[keys.TEXT_REV] = st.session_state.get(keys.TEXT_REV, 0) + 1
    st.session_state[keys.PAGE] = 1


def example_buttons() -> None:
    """A row of buttons, one per example text."""
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption("Try an example:")
        for name in EXAMPLES:
            st.button(name, key=f"{keys.EXAMPLE}{name}", on_click=set_text, args=(EXAMPLES[name],))


def text_input() -> str:
    """A row of example buttons (in presenter mode and on a phone: with the picker), then the text box
    (the English example to start with)."""
    if not folded():
        example_buttons()
    st.session_state.setdefault(keys.TEXT, EXAMPLES["English"])
    live_text_box(
        "Text to tokenize (the tokens follow as you type)",
        key=keys.TEXT_BOX,
        state_key=keys.TEXT,
        revision=st.session_state.get(keys.TEXT_REV, 0),
        height=70 if folded() else 130,
        placeholder="Type or paste anything: several languages, code, emoji",
    )
    return st.session_state.get(keys.TEXT) or ""
