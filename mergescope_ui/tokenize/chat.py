"""A chat as the model reads it: messages joined with the tokenizer's own special tokens, and the Chat tab
that counts and colours them (:func:`chat_tab`; the rest is pure).

Which special tokens mark where each message starts and ends depends on the tokenizer:

- **ChatML** (``<|im_start|>``, ``<|im_end|>``): as tiktokenizer writes OpenAI's chats,
  ``<|im_start|>role<|im_sep|>text<|im_end|>``; without ``<|im_sep|>`` (Qwen) newlines instead;
- **Llama 3** (``<|start_header_id|>``, ``<|end_header_id|>``, ``<|eot_id|>``);
- **role tokens** (``<|user|>``... ended by ``<|end|>`` or ``<|endoftext|>``): Phi-3, Zephyr;
- other special tokens: ``role: text``, each message ended by its first special token;
- no special tokens: ``role: text`` lines, which the page points out.

Each form ends with the prompt for the assistant's next message, where generation starts.

>>> messages = [ChatMessage("system", "Be brief."), ChatMessage("user", "Hi")]
>>> chat = render_chat(messages, ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|im_sep|>"])
>>> chat.form
'ChatML'
>>> print(chat.text.replace("<|im_end|>", "<|im_end|>\\n"))
<|im_start|>system<|im_sep|>Be brief.<|im_end|>
<|im_start|>user<|im_sep|>Hi<|im_end|>
<|im_start|>assistant<|im_sep|>
>>> render_chat(messages, ["<|eot|>"]).text
'system: Be brief.<|eot|>user: Hi<|eot|>assistant:'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import streamlit as st

from mergescope_ui.shared.html.safe_text import md_escape

from . import keys
from .live_text import live_text_box
from .main_view import counts_row, spans_html
from .resolve import Picked, tokenized
from .results import page_of

ROLES = ("system", "user", "assistant")
IM_START, IM_END, IM_SEP = "<|im_start|>", "<|im_end|>", "<|im_sep|>"
LLAMA3 = ("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>")
ROLE_TOKENS = tuple(f"<|{r}|>" for r in ROLES)
ROLE_ENDS = ("<|end|>", "<|endoftext|>", "</s>")
ENDS_FIRST = ("<|endoftext|>", "<|eot|>", "<|end|>", "</s>")
DEFAULT_MESSAGES = (
    ("system", "You are a helpful assistant."),
    ("user", "What does a BPE tokenizer do?"),
    ("assistant", "It merges the most frequent pair of tokens, again and again."),
)


@dataclass(slots=True)
class ChatMessage:
    """One message: its role (system, user or assistant) and its text."""

    role: str
    content: str


@dataclass(frozen=True, slots=True)
class ChatText:
    """The chat as one text, the name of its form, and one sentence on how it was built."""

    text: str
    form: str
    how: str


def default_messages() -> list[ChatMessage]:
    return [ChatMessage(role, content) for role, content in DEFAULT_MESSAGES]


def render_chat(messages: Sequence[ChatMessage], special_tokens: Collection[str]) -> ChatText:
    """``messages`` as the tokenizer with these special tokens would be fed them (see the module)."""
    specials = set(special_tokens)
    if {IM_START, IM_END} <= specials:
        sep, between = (IM_SEP, "") if IM_SEP in specials else ("\n", "\n")
        parts = [f"{IM_START}{m.role}{sep}{m.content}{IM_END}" for m in messages]
        text = between.join([*parts, f"{IM_START}assistant{sep}"])
        shown = f"{IM_START}role{sep.replace(chr(10), '↵')}text{IM_END}"
        return ChatText(text, "ChatML", f"each message is {shown}, as its chat models read it")
    if set(LLAMA3) <= specials:
        begin, start, end, eot = LLAMA3
        parts = [f"{start}{m.role}{end}\n\n{m.content}{eot}" for m in messages]
        text = begin + "".join([*parts, f"{start}assistant{end}\n\n"])
        return ChatText(text, "Llama 3", f"each message is {start}role{end}↵↵text{eot}")
    role_end = next((e for e in ROLE_ENDS if e in specials), None)
    if set(ROLE_TOKENS) <= specials and role_end is not None:
        text = "".join([*(f"<|{m.role}|>\n{m.content}{role_end}\n" for m in messages), "<|assistant|>\n"])
        return ChatText(text, "role tokens", f"each message is <|role|>↵text{role_end}")
    if specials:
        ender = next((e for e in ENDS_FIRST if e in specials), sorted(specials)[0])
        text = "".join([*(f"{m.role}: {m.content}{ender}" for m in messages), "assistant:"])
        return ChatText(
            text, "its own special token", f"it has no chat tokens, so each message ends with its {ender}"
        )
    text = "".join([*(f"{m.role}: {m.content}\n" for m in messages), "assistant:"])
    return ChatText(
        text,
        "plain text",
        "it has no special tokens, so the messages are plain 'role: text' lines (train one with "
        "<|im_start|> and <|im_end|> as special tokens on the Train page to see them as tokens)",
    )


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
