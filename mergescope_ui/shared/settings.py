"""The training settings the pages share: the engine's one options record, its defaults here, what changed.

The pages train with :class:`bpe_core.TrainOptions` (a run carries it); special
tokens are typed one a line on the Train page and in the lab: :func:`parse_special_tokens`.

>>> s = TrainOptions(vocab_size=267, pattern="gpt2", special_tokens=("<|eot|>",))
>>> s.max_merges
10
>>> changes(s, s.replace(pattern="none"))
['pre-tokenization gpt2 → none']
"""

from __future__ import annotations

from bpe_core import PATTERNS, TrainOptions

from . import hosting

CACHE_SECONDS = hosting.seconds("MERGESCOPE_CACHE_SECONDS")
"""How long a cached result made from one user's text (a decoded upload, a lab run on it) is kept
after its last use: as long as Streamlit keeps a closed browser's session (its default
``server.disconnectedSessionTTL``), so a class's uploads leave the server's memory once the class
has gone.  A host may set ``MERGESCOPE_CACHE_SECONDS``."""
APP_WORKERS = 1
"""The processes the app pre-tokenizes in: this one alone.  A class shares a server of a few cores,
and a 10 MB upload is counted in about a second here, so the app never starts a worker process
(see ``bpe_core.pretokenizer.parallel``) that a session could leave behind."""
MAX_MERGES = 20_000
PREVIEW_CHARS = 600  # characters of the text shown as tokens: a screenful, cheap to redraw at every step
TOP_K = 20


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


def changes(old: TrainOptions, new: TrainOptions) -> list[str]:
    """Human-readable differences from ``old`` to ``new`` (empty when equal)."""
    out: list[str] = []
    if old.max_merges != new.max_merges:
        out.append(f"merges {old.max_merges} → {new.max_merges}")
    if old.pattern != new.pattern:
        out.append(f"pre-tokenization {pattern_label(old.pattern)} → {pattern_label(new.pattern)}")
    if old.special_tokens != new.special_tokens:
        out.append(f"special tokens {list(old.special_tokens)} → {list(new.special_tokens)}")
    if old.tie_break != new.tie_break:
        out.append(f"tie rule {old.tie_break} → {new.tie_break}")
    if old.min_frequency != new.min_frequency:
        out.append(f"minimum frequency {old.min_frequency} → {new.min_frequency}")
    return out
