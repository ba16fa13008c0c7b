"""The Chat tab: a few messages, joined with the tokenizer's special tokens, counted and coloured."""

from __future__ import annotations

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape

from . import keys
from .chat import ROLES, ChatMessage, default_messages, render_chat
from .live_text import live_text_box
from .main_view import counts_row, spans_html
from .resolve import Picked, tokenized
from .results import page_of

MAX_MESSAGES = 8


def _ids() -> list[int]:
    """The messages' ids, in order (set up with the default chat on first use)."""
    if keys.CHAT not in st.session_state:
        for n, message in enumerate(default_messages()):
            st.session_state[f"{keys.CHAT_ROLE}{n}"] = message.role
            st.session_state[f"{keys.CHAT_TEXT}{n}"] = message.content
        st.session_state[keys.CHAT] = list(range(len(default_messages())))
    return st.session_state[keys.CHAT]


def _add() -> None:
    ids = _ids()
    new = max(ids, default=-1) + 1
    last = st.session_state.get(f"{keys.CHAT_ROLE}{ids[-1]}") if ids else "assistant"
    st.session_state[f"{keys.CHAT_ROLE}{new}"] = "assistant" if last == "user" else "user"
    st.session_state[f"{keys.CHAT_TEXT}{new}"] = ""
    ids.append(new)


def _drop(n: int) -> None:
    ids = _ids()
    if n in ids:
        ids.remove(n)


def chat_tab(picked: Picked) -> None:
    """The messages (role and text, each box follows your typing), then the chat as tokens."""
    st.caption(
        "A chat is one text for the model: special tokens mark where each message starts and ends. "
        "Edit the messages; the count follows."
    )
    messages: list[ChatMessage] = []
    ids = _ids()
    for number, n in enumerate(ids, start=1):
        role_col, text_col, drop_col = st.columns([1.2, 6, 0.8], vertical_alignment="bottom")
        role = role_col.selectbox(
            f"Role {number}", ROLES, key=f"{keys.CHAT_ROLE}{n}", persist_state="session"
        )
        with text_col:
            live_text_box(
                f"Message {number}",
                key=f"{keys.CHAT_BOX}{n}",
                state_key=f"{keys.CHAT_TEXT}{n}",
                revision=0,
                height=44,
            )
        drop_col.button(
            "✕", key=f"{keys.CHAT_DROP}{n}", on_click=_drop, args=(n,), help="Remove this message"
        )
        messages.append(ChatMessage(role, st.session_state.get(f"{keys.CHAT_TEXT}{n}", "")))
    st.button("➕ Add message", key=keys.CHAT_ADD, on_click=_add, disabled=len(ids) >= MAX_MESSAGES)
    tok = picked.tokenizer
    if tok is None:
        st.info("Pick a tokenizer above to see the chat as tokens.")
        return
    bpe = tok.as_bpe()  # the special tokens a chat template is made of (BPE's, which a text can hold)
    specials = list(bpe.special_tokens) if bpe is not None else []
    chat = render_chat(messages, specials)
    st.markdown(f"**As {md_escape(picked.label)} reads it** ({md_escape(chat.form)}): {md_escape(chat.how)}.")
    result = tokenized(picked, chat.text)
    if result is None:
        return
    counts_row(result)
    if result.error:
        st.error(f"This tokenizer cannot encode the chat: {md_escape(result.error)}")
        return
    st.html(spans_html(result, page_of(len(result.ids), page=1)))
