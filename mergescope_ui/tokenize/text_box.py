"""The Tokenize page's text: example buttons and the box whose tokens follow your typing."""

from __future__ import annotations

import streamlit as st

from . import keys
from .live_text import MAX_CHARS, live_text_box
from .screen import folded

MAX_TEXT_CHARS = MAX_CHARS
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
    st.session_state[keys.TEXT] = text[:MAX_TEXT_CHARS]
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
