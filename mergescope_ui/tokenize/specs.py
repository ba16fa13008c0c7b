"""Which tokenizer to use, as a small record with a stable text form (pure).

The text form goes into the URL and into the compare list, so a spec must
round-trip and a bad one must be a ValueError that says what is wrong.

>>> spec = TokenizerSpec(kind=QUICK, corpus="lighthouse-story", vocab_size=500, pattern="gpt2")
>>> spec.key()
'quick:lighthouse-story:500:gpt2'
>>> TokenizerSpec.parse(spec.key()) == spec
True
>>> TokenizerSpec.parse("session:50").step, TokenizerSpec.parse("session").step
(50, None)
>>> TokenizerSpec.parse("hf:openai-community/gpt2").label()
'openai-community/gpt2 (Hugging Face)'
>>> TokenizerSpec(kind=TIKTOKEN, name="o200k_base").key()
'tiktoken:o200k_base'
>>> TokenizerSpec.parse("quick:x:9:gpt2")
Traceback (most recent call last):
...
ValueError: vocab size 9 in 'quick:x:9:gpt2' is out of range; use 256 to 5000
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bpe_core import PATTERNS
from bpe_core.formats.tiktoken_registry import ENCODINGS

SESSION = "session"  # the training page's run, at its current step or at step k
TIKTOKEN = "tiktoken"  # one of tiktoken's encodings, found in its cache on this machine
HF = "hf"  # a model's tokenizer.json, found in the Hugging Face hub cache on this machine
QUICK = "quick"  # trained here on a built-in corpus
UPLOAD = "upload"  # loaded from the user's files (the last ones, or the ones of this digest)
CHAR = "char"  # the character-level baseline built from a corpus
TEXT_CHARS = "textchars"  # the character-level baseline built from the text in the box itself
BYTES = "bytes"  # no merges: one token per byte

KINDS = (SESSION, TIKTOKEN, HF, QUICK, UPLOAD, CHAR, TEXT_CHARS, BYTES)
MIN_VOCAB = 256
MAX_QUICK_VOCAB = 5000
MAX_STEP = 1_000_000
_HF_NAME = re.compile(r"[A-Za-z0-9][\w.\-]{0,95}(/[\w.\-]{1,96})?")
_DIGEST = re.compile(r"[0-9a-f]{16}")


@dataclass(frozen=True, slots=True)
class TokenizerSpec:
    """A tokenizer choice: ``kind`` plus the settings that kind needs.

    - SESSION: ``step`` (merges kept; None = the training page's current step)
    - TIKTOKEN, HF: ``name`` (``cl100k_base``, ``openai-community/gpt2``)
    - QUICK: ``corpus``, ``vocab_size``, ``pattern``
    - CHAR: ``corpus``
    - BYTES: ``pattern`` (it only changes where specials/chunks are cut)
    - UPLOAD: ``name``, the files' digest (empty: the files uploaded last)
    - TEXT_CHARS: nothing (the text being tokenized)
    """

    kind: str
    corpus: str = ""
    vocab_size: int = 0
    pattern: str = "gpt2"
    step: int | None = None
    name: str = ""

    @property
    def local(self) -> bool:
        """True for a tokenizer found on this machine (tiktoken's or the hub's cache)."""
        return self.kind in (TIKTOKEN, HF)

    def key(self) -> str:
        """The text form: ``quick:lighthouse-story:500:gpt2``, ``session:50``, ``tiktoken:cl100k_base``..."""
        if self.kind == SESSION:
            return SESSION if self.step is None else f"{SESSION}:{self.step}"
        if self.kind == QUICK:
            return f"{QUICK}:{self.corpus}:{self.vocab_size}:{self.pattern}"
        if self.kind == CHAR:
            return f"{CHAR}:{self.corpus}"
        if self.kind == BYTES:
            return f"{BYTES}:{self.pattern}"
        if self.kind in (TIKTOKEN, HF) or (self.kind == UPLOAD and self.name):
            return f"{self.kind}:{self.name}"
        return self.kind

    def label(self, *, titles: Mapping[str, str] | None = None) -> str:
        """A short human label (``titles`` maps corpus ids to titles)."""
        name = (titles or {}).get(self.corpus, self.corpus)
        if self.kind == SESSION:
            return (
                "Train page (current step)" if self.step is None else f"Train page after {self.step} merges"
            )
        if self.kind == QUICK:
            return f"{name} · vocab {self.vocab_size} · {self.pattern}"
        if self.kind == CHAR:
            return f"characters of {name}"
        if self.kind == TEXT_CHARS:
            return "characters of this text"
        if self.kind == BYTES:
            return "raw bytes (no merges)"
        if self.kind == TIKTOKEN:
            return f"{self.name} (tiktoken)"
        if self.kind == HF:
            return f"{self.name} (Hugging Face)"
        return "uploaded files"

    @classmethod
    def parse(cls, text: str) -> TokenizerSpec:
        """Read :meth:`key`'s form back; anything else is a ValueError naming the problem."""
        kind, _, rest = text.strip().partition(":")
        args = rest.split(":") if rest else []
        if kind not in KINDS:
            raise ValueError(f"unknown tokenizer kind {kind!r} in {text!r}; use one of {list(KINDS)}")
        if kind == SESSION:
            if not args:
                return cls(kind=SESSION)
            step = _whole(args[0], text, what="step")
            if len(args) != 1 or not 0 <= step <= MAX_STEP:
                raise ValueError(f"step {args[0]!r} in {text!r} is out of range; use 0 to {MAX_STEP}")
            return cls(kind=SESSION, step=step)
        if kind == TIKTOKEN:
            if rest not in ENCODINGS:
                raise ValueError(f"{rest!r} in {text!r} is not one of tiktoken's encodings {list(ENCODINGS)}")
            return cls(kind=TIKTOKEN, name=rest)
        if kind == HF:
            if not _HF_NAME.fullmatch(rest):
                raise ValueError(f"{rest!r} in {text!r} is not a Hugging Face model name like org/name")
            return cls(kind=HF, name=rest)
        if kind == QUICK:
            if len(args) != 3:
                raise ValueError(f"{text!r} should read quick:CORPUS:VOCAB_SIZE:PATTERN")
            corpus, size, pattern = args
            vocab = _whole(size, text, what="vocab size")
            if not MIN_VOCAB <= vocab <= MAX_QUICK_VOCAB:
                raise ValueError(
                    f"vocab size {vocab} in {text!r} is out of range; use {MIN_VOCAB} to {MAX_QUICK_VOCAB}"
                )
            return cls(
                kind=QUICK, corpus=_corpus(corpus, text), vocab_size=vocab, pattern=_pattern(pattern, text)
            )
        if kind == CHAR:
            if len(args) != 1:
                raise ValueError(f"{text!r} should read char:CORPUS")
            return cls(kind=CHAR, corpus=_corpus(args[0], text))
        if kind == BYTES:
            return cls(kind=BYTES, pattern=_pattern(args[0], text) if args else "gpt2")
        if kind == UPLOAD and rest:
            if not _DIGEST.fullmatch(rest):
                raise ValueError(f"{rest!r} in {text!r} is not the digest of uploaded files")
            return cls(kind=UPLOAD, name=rest)
        return cls(kind=kind)


def _whole(value: str, text: str, *, what: str) -> int:
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise ValueError(f"{what} {value!r} in {text!r} is not a whole number")
    return int(value)


def _corpus(value: str, text: str) -> str:
    if not value or not all(c.isalnum() or c in "-_." for c in value):
        raise ValueError(f"corpus id {value!r} in {text!r} is not a corpus id")
    return value


def _pattern(value: str, text: str) -> str:
    if value not in PATTERNS:
        raise ValueError(f"pattern {value!r} in {text!r} is unknown; use one of {list(PATTERNS)}")
    return value
