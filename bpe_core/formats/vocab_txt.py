"""``vocab.txt``: a human-readable listing of every token (written, never read).

One line per id: ``id<TAB>"token"<TAB>how it was made``.  A token is shown in
double quotes: whole printable characters as themselves, ``\\n``, ``\\t``,
``\\r``, ``\\"`` and ``\\\\`` escaped, and every other byte (a control byte, or a
byte that is not a whole UTF-8 character) as ``<0xE4>``.

>>> show_token("机".encode()[:2] + b" a\\n")
'"<0xE6><0x9C> a\\\\n"'
>>> vocab = {b: bytes([b]) for b in range(256)} | {256: b"<|eot|>", 257: b" t"}
>>> listing = vocab_txt(TokenizerData(vocab, [(32, 116)], {"<|eot|>": 256}, "gpt2"))
>>> print(listing.replace("\\t", " | "))  # doctest: +ELLIPSIS
# vocab.txt: 258 tokens (256 bytes, 1 special token, 1 merge), pattern gpt2
# id | token | how it was made
0 | "<0x00>" | byte 0x00
...
97 | "a" | byte 0x61
...
256 | "<|eot|>" | special token
257 | " t" | merge 1: " " + "t" (32 + 116)
<BLANKLINE>
"""

from __future__ import annotations

from ..byte_level import utf8_width
from ..pretokenizer import pattern_name
from .data import TokenizerData, TokenizerLike, merge_results  # noqa: F401  (TokenizerData: doctest)

VOCAB_TXT = "vocab.txt"
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def show_token(token: bytes) -> str:
    """``token`` in double quotes, readable and with no byte hidden (see the module docstring)."""
    out: list[str] = []
    i, n = 0, len(token)
    while i < n:
        width = utf8_width(token[i])
        char = None
        if width and i + width <= n:
            try:
                char = token[i : i + width].decode("utf-8")
            except UnicodeDecodeError:
                char = None
        if char is None:
            out.append(f"<0x{token[i]:02X}>")
            i += 1
        elif char in _ESCAPES:
            out.append(_ESCAPES[char])
            i += width
        elif char.isprintable() or char == " ":
            out.append(char)
            i += width
        else:
            out.extend(f"<0x{x:02X}>" for x in token[i : i + width])
            i += width
    return '"' + "".join(out) + '"'


def vocab_txt(tok: TokenizerLike) -> str:
    """The ``vocab.txt`` text, in id order."""
    special = set(tok.special_tokens.values())
    results = merge_results(tok)
    made_by: dict[int, int] = {}
    for k, new_id in enumerate(results):
        made_by.setdefault(new_id, k)
    n_bytes = sum(1 for i, t in tok.vocab.items() if len(t) == 1 and i not in special)
    n_special, n_merges = len(tok.special_tokens), len(tok.merges)
    lines = [
        f"# vocab.txt: {len(tok.vocab)} tokens ({n_bytes} bytes, {n_special} special "
        f"token{'s' * (n_special != 1)}, "
        f"{n_merges} merge{'s' * (n_merges != 1)}), pattern {_pattern_label(tok.pattern)}",
        "# id\ttoken\thow it was made",
    ]
    for i in sorted(tok.vocab):
        token = tok.vocab[i]
        if i in special:
            how = "special token"
        elif i in made_by:
            k = made_by[i]
            a, b = tok.merges[k]
            how = f"merge {k + 1}: {show_token(tok.vocab[a])} + {show_token(tok.vocab[b])} ({a} + {b})"
        elif len(token) == 1:
            how = f"byte 0x{token[0]:02X}"
        else:
            how = "not made by any merge"
        lines.append(f"{i}\t{show_token(token)}\t{how}")
    return "\n".join(lines) + "\n"


def _pattern_label(pattern: str) -> str:
    name = pattern_name(pattern)
    return name if name != "custom" else f"custom {pattern!r}"
