"""The Train page's settings as one frozen record (its run carries them), and what changed between two.

Special tokens are typed one a line on the Train page and in the lab: :func:`parse_special_tokens`.

>>> s = TrainSettings(merges=10, pattern="gpt2", special_tokens=("<|eot|>",))
>>> s.vocab_size
267
>>> changes(s, TrainSettings(merges=10, pattern="none", special_tokens=("<|eot|>",)))
['pre-tokenization gpt2 → none']
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe_core import PATTERNS

MAX_MERGES = 20_000
PREVIEW_CHARS = 600  # characters of the text shown as tokens: a screenful, cheap to redraw at every step
TOP_K = 20


@dataclass(frozen=True, slots=True)
class TrainSettings:
    """What the Train page passes to ``bpe_core.train_steps`` (besides the text)."""

    merges: int
    pattern: str = "gpt2"  # a name in bpe_core.PATTERNS or a regex
    special_tokens: tuple[str, ...] = ()
    tie_break: str = "lexicographic"
    min_frequency: int = 1
    top_k: int = TOP_K
    preview_chars: int = PREVIEW_CHARS

    @property
    def vocab_size(self) -> int:
        """256 bytes + the special tokens + the merges."""
        return 256 + len(self.special_tokens) + self.merges

    def engine_kwargs(self) -> dict[str, object]:
        """Keyword arguments for ``bpe_core.train_steps``."""
        return {
            "vocab_size": self.vocab_size,
            "pattern": self.pattern,
            "special_tokens": self.special_tokens,
            "tie_break": self.tie_break,
            "min_frequency": self.min_frequency,
            "top_k": self.top_k,
            "preview_chars": self.preview_chars,
        }


def parse_special_tokens(text: str) -> tuple[str, ...]:
    """One special token per line; blank lines ignored, surrounding spaces kept out.

    >>> parse_special_tokens("<|endoftext|>\\n\\n <|pad|> ")
    ('<|endoftext|>', '<|pad|>')
    """
    out: list[str] = []
    for line in text.splitlines():
        token = line.strip()
        if not token:
            continue
        if token in out:
            raise ValueError(f"special token {token!r} is listed twice; list each once")
        out.append(token)
    return tuple(out)


def pattern_label(pattern: str) -> str:
    """Short name of a pattern for messages: the name, or ``custom /regex/``."""
    if pattern in PATTERNS:
        return pattern
    return f"custom /{pattern}/"


def changes(old: TrainSettings, new: TrainSettings) -> list[str]:
    """Human-readable differences from ``old`` to ``new`` (empty when equal)."""
    out: list[str] = []
    if old.merges != new.merges:
        out.append(f"merges {old.merges} → {new.merges}")
    if old.pattern != new.pattern:
        out.append(f"pre-tokenization {pattern_label(old.pattern)} → {pattern_label(new.pattern)}")
    if old.special_tokens != new.special_tokens:
        out.append(f"special tokens {list(old.special_tokens)} → {list(new.special_tokens)}")
    if old.tie_break != new.tie_break:
        out.append(f"tie rule {old.tie_break} → {new.tie_break}")
    if old.min_frequency != new.min_frequency:
        out.append(f"minimum frequency {old.min_frequency} → {new.min_frequency}")
    return out
