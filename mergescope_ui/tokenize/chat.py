"""A chat as the model reads it: messages joined with the tokenizer's own special tokens (pure).

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
