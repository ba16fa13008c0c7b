"""``encoding.json``: the split pattern and special tokens of files that cannot record them.

``vocab.json`` + ``merges.txt`` record no split pattern, and a ``.tiktoken``
rank file records neither the pattern nor the special tokens: loaded alone,
a tokenizer trained with ``gpt4``, ``o200k``, ``none`` or a custom regex comes
back as a ``gpt2`` one and cuts text differently.  So the writers put
``encoding.json`` beside them (in the same directory), and the loader reads it::

    {
      "pattern": "gpt4",
      "pat_str": "'(?i:[sdmt]|ll|ve|re)|...",
      "special_tokens": {"<|endoftext|>": 256}
    }

- ``pattern``: MergeScope's name for the split pattern (``none``,
  ``whitespace``, ``gpt2``, ``gpt4``, ``o200k``) or ``custom``;
- ``pat_str``: the regex itself (``null`` for ``none``: no split, each text
  between special tokens is one chunk);
- ``special_tokens``: each special token's id.

``pat_str`` and ``special_tokens`` are the arguments ``tiktoken.Encoding``
takes besides the ranks (``tiktoken.Encoding(name, pat_str=...,
mergeable_ranks=load_tiktoken_bpe(path), special_tokens=...)``), and HF users
find the regex to give ``pre_tokenizers.Split``.  Keys the file lacks fall back
to what the loader is told (``pattern=``, ``special_tokens=``) and then to
the defaults, with a note saying so.

>>> from .data import TokenizerData
>>> vocab = {b: bytes([b]) for b in range(256)} | {256: b"<|eot|>"}
>>> data = TokenizerData(vocab, [], {"<|eot|>": 256}, "none")
>>> text = encoding_json(data)
>>> print(text, end="")
{
  "pattern": "none",
  "pat_str": null,
  "special_tokens": {
    "<|eot|>": 256
  }
}
>>> read_encoding_json_text(text, ENCODING_JSON)
EncodingConfig(pattern='none', special_tokens={'<|eot|>': 256})
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from ..pretokenizer import PATTERNS, excerpt, pattern_name, resolve_pattern
from .data import TokenizerLike
from .safe_io import TokenizerFileError, expect_int, parse_json

ENCODING_JSON = "encoding.json"
NEEDS_CONFIG = ("gpt2", "tiktoken")
"""The formats whose files alone cannot say which tokenizer they are (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class EncodingConfig:
    """What an ``encoding.json`` says: the split pattern (a name or a regex; None when it does not
    say) and the special tokens (None when it does not say)."""

    pattern: str | None
    special_tokens: dict[str, int] | None


def encoding_json(tok: TokenizerLike) -> str:
    """The ``encoding.json`` text of ``tok``."""
    name = pattern_name(tok.pattern)
    data: dict[str, Any] = {
        "pattern": name,
        "pat_str": resolve_pattern(tok.pattern),
        "special_tokens": dict(sorted(tok.special_tokens.items(), key=lambda kv: kv[1])),
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def read_encoding_json_text(text: str, path: str | os.PathLike[str]) -> EncodingConfig:
    """An :class:`EncodingConfig` from the file's text (``path`` labels errors); a pattern that does not
    compile, a ``pattern`` name that disagrees with ``pat_str`` or a bad id is a TokenizerFileError."""
    data = parse_json(text, path)
    if not isinstance(data, dict):
        raise TokenizerFileError(
            path, "", 'must be a JSON object like {"pattern": "gpt2", "special_tokens": {}}'
        )
    return EncodingConfig(_pattern(data, path), _special_tokens(data, path))


def _pattern(data: dict[str, Any], path: str | os.PathLike[str]) -> str | None:
    name, regex = data.get("pattern"), data.get("pat_str")
    if name is not None and (not isinstance(name, str) or not name):
        raise TokenizerFileError(path, "key 'pattern'", f"{excerpt(name)} is not a pattern name")
    if regex is not None and not isinstance(regex, str):
        raise TokenizerFileError(path, "key 'pat_str'", f"{excerpt(regex)} is not a regex (a string)")
    if name is not None and name != "custom":
        if name not in PATTERNS:
            raise TokenizerFileError(
                path,
                "key 'pattern'",
                f"{excerpt(name)} is not a pattern name; use one of {sorted(PATTERNS)}, or 'custom' with "
                "the regex in pat_str",
            )
        source = resolve_pattern(name)
        if "pat_str" in data and regex != source:
            raise TokenizerFileError(
                path,
                "key 'pat_str'",
                f"is not the regex of pattern {excerpt(name)}; fix one of them (or drop pat_str)",
            )
        return name
    if regex is None:
        if name == "custom":
            raise TokenizerFileError(path, "key 'pat_str'", "pattern 'custom' needs its regex in pat_str")
        return None if "pat_str" not in data else "none"
    try:
        resolve_pattern(regex)
    except ValueError as exc:
        raise TokenizerFileError(path, "key 'pat_str'", str(exc)) from None
    named = pattern_name(regex)
    return named if named != "custom" else regex


def _special_tokens(data: dict[str, Any], path: str | os.PathLike[str]) -> dict[str, int] | None:
    specials = data.get("special_tokens")
    if specials is None:
        return None
    if not isinstance(specials, dict):
        raise TokenizerFileError(path, "key 'special_tokens'", 'must be an object {"<|endoftext|>": id}')
    out: dict[str, int] = {}
    for s, i in specials.items():
        if not s:
            raise TokenizerFileError(path, "key 'special_tokens'", "a special token is empty")
        out[s] = expect_int(i, path, f"special token {excerpt(s)}")
    return out


def unrecorded(tok: TokenizerLike, fmt: str) -> list[str]:
    """What the files of ``fmt`` cannot record about ``tok`` on their own (so ``encoding.json`` does).

    >>> from .data import TokenizerData
    >>> data = TokenizerData({b: bytes([b]) for b in range(256)}, [], {}, "gpt4")
    >>> unrecorded(data, "gpt2"), unrecorded(data, "tiktoken"), unrecorded(data, "hf-json")
    (['the split pattern (gpt4)'], ['the split pattern (gpt4)'], [])
    """
    if fmt not in NEEDS_CONFIG:
        return []
    name = pattern_name(tok.pattern)
    shown = name if name != "custom" else f"the custom regex {excerpt(tok.pattern)}"
    lost = [] if fmt == "gpt2" and name == "gpt2" else [f"the split pattern ({shown})"]
    if fmt == "tiktoken" and tok.special_tokens:
        n = len(tok.special_tokens)
        lost.append(f"the {n} special token{'s' * (n != 1)}")
    return lost
