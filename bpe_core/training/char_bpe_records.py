"""What a code-point BPE run is asked to do (:class:`CharBpeOptions`), where it starts
(:class:`CharBpeStart`: the alphabet, the characters written as bytes, the word segments) and what each
step says (:class:`CharBpeStep`); the rules are named here (see :mod:`.char_bpe`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .options import MAX_VOCAB_SIZE
from .unigram import text_words

OUTSIDE_RULES: tuple[str, ...] = ("split", "drop")
"""What training does with a character outside the alphabet: ``split`` the word there (nothing joins a
byte piece), or ``drop`` it and join its neighbours (HF's ``BpeTrainer``)."""
UNK_PIECE = "<unk>"
BYTE_PIECES: tuple[str, ...] = tuple(f"<0x{b:02X}>" for b in range(256))
TIE_RULE = "hf: the smaller (left id, right id); characters by code point, merged tokens by when first made"
ALPHABET_RULE = "the limit_alphabet most frequent characters; equal counts at the cut: the smaller code point"
MAX_LENGTH_RULE = "hf: two characters join if 2 <= max_token_length; longer joins must be shorter than it"

Pair = tuple[str, str]
Segment = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CharBpeOptions:
    """The options of a code-point BPE run (each a ValueError that says how to fix it when wrong).

    - ``vocab_size``: every id: ``<unk>``, the 256 byte pieces, the alphabet and the merged tokens;
    - ``limit_alphabet``: keep at most this many characters (:data:`ALPHABET_RULE`), the rest as bytes;
    - ``min_frequency``: stop when the best pair occurs fewer times;
    - ``max_token_length``: the longest token, in characters (:data:`MAX_LENGTH_RULE`);
    - ``outside``: one of :data:`OUTSIDE_RULES`.
    """

    vocab_size: int
    limit_alphabet: int | None = None
    min_frequency: int = 1
    max_token_length: int | None = None
    outside: str = "split"

    def __post_init__(self) -> None:
        if self.outside not in OUTSIDE_RULES:
            raise ValueError(f"outside {self.outside!r} is unknown; use one of {', '.join(OUTSIDE_RULES)}")
        for name, value, low in (
            ("vocab_size", self.vocab_size, 1 + len(BYTE_PIECES) + 1),
            ("limit_alphabet", self.limit_alphabet, 1),
            ("min_frequency", self.min_frequency, 1),
            ("max_token_length", self.max_token_length, 1),
        ):
            if value is None and name in ("limit_alphabet", "max_token_length"):
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                extra = " (<unk>, the 256 byte pieces and a character)" if name == "vocab_size" else ""
                raise ValueError(
                    f"{name} must be a whole number of at least {low}{extra}, not {value!r}; "
                    f"give {name} {low} or more"
                )
        if self.vocab_size > MAX_VOCAB_SIZE:
            raise ValueError(f"vocab_size is {self.vocab_size:,}; ask for at most {MAX_VOCAB_SIZE:,}")

    def replace(self, **changes: Any) -> CharBpeOptions:
        """A copy with some options changed (checked again)."""
        return dataclasses.replace(self, **changes)

    def allows(self, left: str, right: str) -> bool:
        """Whether ``left`` + ``right`` may be a token under :data:`MAX_LENGTH_RULE`.

        >>> o = CharBpeOptions(vocab_size=300, max_token_length=3)
        >>> o.allows("a", "b"), o.allows("ab", "c"), o.allows("ab", "cd")
        (True, False, False)
        """
        cap = self.max_token_length
        if cap is None:
            return True
        n = len(left) + len(right)
        return n <= cap if n == 2 else n < cap


@dataclass(frozen=True, slots=True)
class CharBpeStep:
    """What happened at one merge: the pair ``(left, right)`` occurred ``count`` times (overlaps
    included) and became ``token`` (id ``new_id``; ``added`` is False when an earlier merge had made it);
    ``replaced`` places were merged, left to right.  ``ties`` is how many pairs had that count (decided by
    :data:`TIE_RULE`); ``to_bytes``: the characters written as bytes in this run (outside the alphabet,
    code-point order), the same on every step."""

    index: int  # 1-based merge number
    left: str
    right: str
    token: str
    new_id: int
    added: bool
    count: int
    replaced: int
    ties: int
    to_bytes: tuple[str, ...]

    @property
    def pair(self) -> Pair:
        return (self.left, self.right)


@dataclass(frozen=True, slots=True)
class CharBpeStart:
    """Where a run starts: the alphabet (code-point order), the characters written as bytes (with their
    counts), and the word segments (runs of alphabet characters) with how often each occurs."""

    alphabet: tuple[str, ...]
    to_bytes: tuple[str, ...]
    segments: dict[Segment, int]


def words_of(text: str) -> dict[str, int]:
    """The text's words and counts, as the other piece schemes cut them (kept whole), in first-seen order.

    >>> words_of("the cat\\nthe hat")
    {'▁the': 1, '▁cat': 1, '\\n': 1, 'the': 1, '▁hat': 1}
    """
    if not isinstance(text, str):
        raise ValueError(f"the text to train on must be a string, not {type(text).__name__}")
    return dict(text_words(text, max_word_length=max(len(text) + 1, 32)))


def start(word_counts: Mapping[str, int], options: CharBpeOptions) -> CharBpeStart:
    """The alphabet (:data:`ALPHABET_RULE`) and the words cut at the characters written as bytes.

    >>> s = start({"▁aab": 2, "▁c": 1}, CharBpeOptions(vocab_size=300, limit_alphabet=2))
    >>> s.alphabet, s.to_bytes, s.segments
    (('a', '▁'), ('b', 'c'), {('▁', 'a', 'a'): 2, ('▁',): 1})
    >>> drop = CharBpeOptions(vocab_size=300, limit_alphabet=2, outside="drop")
    >>> start({"▁abac": 2, "▁a": 1}, drop).segments
    {('▁', 'a', 'a'): 2, ('▁', 'a'): 1}
    """
    if not word_counts:
        raise ValueError("the text has no words (it is empty): give code-point BPE a text to learn from")
    chars: Counter[str] = Counter()
    for w, n in word_counts.items():
        for c in w:
            chars[c] += n
    kept = sorted(chars, key=lambda c: (-chars[c], c))[: options.limit_alphabet]
    alphabet = tuple(sorted(kept))
    inside = set(alphabet)
    segments: dict[Segment, int] = {}
    for w, n in word_counts.items():
        run: list[str] = []
        for c in [*w, ""]:
            if c in inside:
                run.append(c)
                continue
            if c and options.outside == "drop":
                continue
            if run:
                segments[tuple(run)] = segments.get(tuple(run), 0) + n
            run = []
    needed = 1 + len(BYTE_PIECES) + len(alphabet)
    if options.vocab_size < needed:
        raise ValueError(
            f"vocab_size is {options.vocab_size}, smaller than <unk> + 256 byte pieces + the "
            f"{len(alphabet)} characters of the alphabet; ask for at least {needed}, or lower limit_alphabet"
        )
    return CharBpeStart(alphabet, tuple(sorted(set(chars) - inside)), segments)
