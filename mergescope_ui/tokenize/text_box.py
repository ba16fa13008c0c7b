"""The Tokenize page's text: example buttons and the text box."""

from __future__ import annotations

import streamlit as st

from . import keys

MAX_TEXT_CHARS = 2_000_000
EXAMPLES: dict[str, str] = {
    "English": "The lighthouse keeper climbed the stairs, lit the lamp, and watched the ships come home.",
    "Chinese": "机器学习是人工智能的一个分支。我们用数据训练模型。",
    "Code": 'def greet(name: str) -> str:\n    """Say hello."""\n    return f"Hello, {name}!"\n',
    "Emoji & ZWJ": "Family: 👨‍👩‍👧‍👦  flags: 🇯🇵🇫🇷  skin tone: 👋🏽  heart: ❤️ <3",
    "Numbers": "In 2024, 1,234,567 visitors paid $3.14 each; π ≈ 3.14159265358979.",
    "Whitespace": "a  b\tc\n\n    indented\n\t\ttabs   trailing   \n",
    "HTML": '<script>alert("hi")</script> </span> & "quotes" \'single\'',
}


def _use_example(name: str) -> None:
    st.session_state[keys.TEXT] = EXAMPLES[name]
    st.session_state[keys.PAGE] = 1


def text_input() -> str:
    """A row of example buttons, then the text box (the English example to start with)."""
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption("Try an example:")
        for name in EXAMPLES:
            st.button(name, key=f"{keys.EXAMPLE}{name}", on_click=_use_example, args=(name,))
    st.session_state.setdefault(keys.TEXT, EXAMPLES["English"])
    text = st.text_area(
        "Text to tokenize",
        key=keys.TEXT,
        height=130,
        max_chars=MAX_TEXT_CHARS,
        persist_state="session",
        help="Anything: several languages, code, emoji. Ctrl+Enter applies it.",
    )
    return text or ""
