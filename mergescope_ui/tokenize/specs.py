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
>>> TokenizerSpec.parse("quick:x:9:gpt2")
Traceback (most recent call last):
...
ValueError: vocab size 9 in 'quick:x:9:gpt2' is out of range; use 256 to 5000
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bpe_core import PATTERNS

SESSION = "session"  # the training page's run, at its current step or at step k
QUICK = "quick"  # trained here on a built-in corpus
UPLOAD = "upload"  # loaded from the user's files
CHAR = "char"  # the character-level baseline built from a corpus
BYTES = "bytes"  # no merges: one token per byte

KINDS = (SESSION, QUICK, UPLOAD, CHAR, BYTES)
KIND_LABELS = {
    SESSION: "Trained on the Train page",
    QUICK: "Quick-train on a built-in text",
    UPLOAD: "Load tokenizer files",
    CHAR: "Character baseline",
    BYTES: "Raw bytes (no merges)",
}
MIN_VOCAB = 256
MAX_QUICK_VOCAB = 5000
MAX_STEP = 1_000_000


@dataclass(frozen=True, slots=True)
class TokenizerSpec:
    """A tokenizer choice: ``kind`` plus the settings that kind needs.

    - SESSION: ``step`` (merges kept; None = the training page's current step)
    - QUICK: ``corpus``, ``vocab_size``, ``pattern``
    - CHAR: ``corpus``
    - BYTES: ``pattern`` (it only changes where specials/chunks are cut)
    - UPLOAD: nothing (the session's loaded files)
    """

    kind: str
    corpus: str = ""
    vocab_size: int = 0
    pattern: str = "gpt2"
    step: int | None = None

    def key(self) -> str:
        """The text form, e.g. ``quick:lighthouse-story:500:gpt2`` or ``session:50``."""
        if self.kind == SESSION:
            return SESSION if self.step is None else f"{SESSION}:{self.step}"
        if self.kind == QUICK:
            return f"{QUICK}:{self.corpus}:{self.vocab_size}:{self.pattern}"
        if self.kind == CHAR:
            return f"{CHAR}:{self.corpus}"
        if self.kind == BYTES:
            return f"{BYTES}:{self.pattern}"
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
        if self.kind == BYTES:
            return "raw bytes (no merges)"
        return "uploaded files"

    @classmethod
    def parse(cls, text: str) -> TokenizerSpec:
        """Read :meth:`key`'s form back; anything else is a ValueError naming the problem."""
        parts = text.strip().split(":")
        kind, args = parts[0], parts[1:]
        if kind not in KINDS:
            raise ValueError(f"unknown tokenizer kind {kind!r} in {text!r}; use one of {list(KINDS)}")
        if kind == SESSION:
            if not args:
                return cls(kind=SESSION)
            step = _whole(args[0], text, what="step")
            if len(args) != 1 or not 0 <= step <= MAX_STEP:
                raise ValueError(f"step {args[0]!r} in {text!r} is out of range; use 0 to {MAX_STEP}")
            return cls(kind=SESSION, step=step)
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
        return cls(kind=UPLOAD)


def _whole(value: str, text: str, *, what: str) -> int:
    if not value.isdigit() or len(value) > 9:
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
