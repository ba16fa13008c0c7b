"""Code-point BPE with byte fallback (``bpe-char``): BPE whose base units are characters, as SentencePiece's
BPE and Llama-2 use, trained with HF ``tokenizers``' ``BpeTrainer`` rules.

The text is cut into words as the repo's other piece schemes cut it (:func:`~.unigram.text_words`: spaces
become ``▁``, each word starts with its ``▁``), words kept whole.  The alphabet is the words' characters;
with ``limit_alphabet`` only the most frequent ones are kept (HF's rule; equal counts at the cut: the
smaller code point is kept, where HF's choice is unspecified).  A character outside the alphabet is
*written as bytes*: its UTF-8 bytes, one ``<0xNN>`` piece each.  Byte pieces join nothing, so by default
(``outside="split"``) a word is cut at such a character and no pair crosses it.  HF's trainer instead
drops the character and joins its neighbours, a pair its encoder can never make there;
``outside="drop"`` does the same, for merges equal to HF's (:data:`OUTSIDE_RULES`).

Each step merges the most frequent adjacent pair (overlaps counted: ``aaa`` holds ``(a, a)`` twice),
left to right in every word.  Rules, each HF's:

- :data:`TIE_RULE`: equal counts go to the pair of smaller ids: the left token's id, then the right's;
  characters' ids are in code-point order, a merged token's id is when it was first made;
- :data:`MAX_LENGTH_RULE`: with ``max_token_length`` L, a pair of two characters may join when
  ``2 <= L``, a longer join only when it is *shorter* than L characters (HF's ``Word::merge`` checks
  ``len < max_length``);
- training stops at ``vocab_size`` ids, or when the best count is below ``min_frequency`` or 0.

The ids: ``<unk>`` (0), the 256 byte pieces ``<0x00>``..``<0xFF>`` (1..256), the alphabet in code-point
order, then the merged tokens; ``vocab_size`` counts them all (a token made twice keeps its first id).

>>> trainer = char_bpe_steps("low low low lower lowest", vocab_size=268)  # 265 = <unk>, bytes, 8 characters
>>> [(s.left, s.right, s.count) for s in trainer]  # ▁ (U+2581) comes after the letters: a tie goes to lo
[('l', 'o', 5), ('▁', 'lo', 5), ('▁lo', 'w', 5)]
>>> tok = trainer.tokenizer()
>>> tok.encode_pieces("lowest €")
['▁low', 'e', 's', 't', '▁', '<0xE2>', '<0x82>', '<0xAC>']
>>> tok.decode(tok.encode("lowest €"))
'lowest €'
>>> char_bpe_steps("ab", vocab_size=266, limit_alphabet=0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: limit_alphabet must be a whole number of at least 1, not 0; ...
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping
from itertools import pairwise
from typing import Literal

from ..tokenizer.piece_bpe import PieceBpeTokenizer
from .char_bpe_fast import fast_char_bpe_steps
from .char_bpe_records import (
    ALPHABET_RULE,
    BYTE_PIECES,
    MAX_LENGTH_RULE,
    OUTSIDE_RULES,
    TIE_RULE,
    UNK_PIECE,
    CharBpeOptions,
    CharBpeStart,
    CharBpeStep,
    Pair,
    start,
    words_of,
)
from .records import STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_VOCAB_SIZE
from .unigram import TRAIN_NORMALIZER

__all__ = [
    "ALPHABET_RULE",
    "BYTE_PIECES",
    "CHAR_BPE_METHODS",
    "MAX_LENGTH_RULE",
    "OUTSIDE_RULES",
    "TIE_RULE",
    "UNK_PIECE",
    "CharBpeOptions",
    "CharBpeStart",
    "CharBpeStep",
    "CharBpeTrainer",
    "char_bpe_steps",
    "start",
    "textbook_char_bpe_steps",
    "train_char_bpe",
    "words_of",
]

Method = Literal["fast", "textbook"]
CHAR_BPE_METHODS: tuple[Method, ...] = ("fast", "textbook")


def textbook_char_bpe_steps(
    word_counts: Mapping[str, int], options: CharBpeOptions
) -> Generator[CharBpeStep, None, str]:
    """One :class:`CharBpeStep` per merge, recounting every pair at every step; returns why it stopped."""
    s = start(word_counts, options)
    ids = {t: 1 + len(BYTE_PIECES) + k for k, t in enumerate(s.alphabet)}
    size = len(ids) + 1 + len(BYTE_PIECES)
    words = [(list(seg), n) for seg, n in s.segments.items()]
    step = 0
    while size < options.vocab_size:
        # 1. Count every adjacent pair that may join, each segment weighted by how often it occurs.
        counts: dict[Pair, int] = {}
        for seg, n in words:
            for pair in pairwise(seg):
                if options.allows(*pair):
                    counts[pair] = counts.get(pair, 0) + n
        if not counts:
            return STOP_NO_PAIRS
        # 2. The most frequent pair; equal counts: the smaller ids (TIE_RULE).
        best = min(counts, key=lambda p: (-counts[p], ids[p[0]], ids[p[1]]))
        if counts[best] < options.min_frequency:
            return STOP_MIN_FREQUENCY
        left, right = best
        token = left + right
        added = token not in ids
        if added:
            ids[token] = size
            size += 1
        # 3. Merge it in every segment, left to right.
        replaced = 0
        for seg, n in words:
            k = 0
            while k < len(seg) - 1:
                if seg[k] == left and seg[k + 1] == right:
                    seg[k : k + 2] = [token]
                    replaced += n
                k += 1
        step += 1
        yield CharBpeStep(
            index=step,
            left=left,
            right=right,
            token=token,
            new_id=ids[token],
            added=added,
            count=counts[best],
            replaced=replaced,
            ties=sum(1 for c in counts.values() if c == counts[best]),
            to_bytes=s.to_bytes,
        )
    return STOP_VOCAB_SIZE


class CharBpeTrainer(Iterator[CharBpeStep]):
    """One code-point BPE run: iterate it for its :class:`CharBpeStep` records.  ``alphabet`` and
    ``to_bytes`` say where it starts, ``merges`` the pairs merged so far, ``stop_reason`` why it stopped
    (None while it can go on), :meth:`tokenizer` the result.  ``text`` may be its word counts already."""

    def __init__(
        self, text: str | Mapping[str, int], options: CharBpeOptions, *, method: Method = "fast"
    ) -> None:
        if method not in CHAR_BPE_METHODS:
            raise ValueError(f"method {method!r} is unknown; use one of {', '.join(CHAR_BPE_METHODS)}")
        counts = words_of(text) if isinstance(text, str) else dict(text)
        s = start(counts, options)
        self.options, self.method, self.word_counts = options, method, counts
        self.alphabet, self.to_bytes = s.alphabet, s.to_bytes
        self.tokens: list[str] = list(s.alphabet)  # the alphabet, then each merged token once
        self.merges: list[Pair] = []
        self.stop_reason: str | None = None
        if method == "textbook":
            self._steps = textbook_char_bpe_steps(counts, options)
        else:
            self._steps = fast_char_bpe_steps(counts, options)

    def __iter__(self) -> CharBpeTrainer:
        return self

    def __next__(self) -> CharBpeStep:
        if self.stop_reason is not None:
            raise StopIteration
        try:
            step = next(self._steps)
        except StopIteration as end:
            self.stop_reason = end.value
            raise StopIteration from None
        if step.added:
            self.tokens.append(step.token)
        self.merges.append(step.pair)
        return step

    def run(self) -> CharBpeTrainer:
        """Consume every remaining step; returns self."""
        for _ in self:
            pass
        return self

    @property
    def vocab(self) -> list[str]:
        """Every piece in id order: ``<unk>``, the byte pieces, the alphabet, the merged tokens."""
        return [UNK_PIECE, *BYTE_PIECES, *self.tokens]

    def tokenizer(self) -> PieceBpeTokenizer:
        """A :class:`~bpe_core.tokenizer.piece_bpe.PieceBpeTokenizer` with byte fallback: a merged token's
        score is minus its rank (the first merge joins first), a character's and a byte's score 0."""
        first = len(self.alphabet)
        pieces = [(UNK_PIECE, 0.0), *((b, 0.0) for b in BYTE_PIECES)]
        pieces += [(t, 0.0 if k < first else float(first - k - 1)) for k, t in enumerate(self.tokens)]
        kinds = ["unknown", *(["byte"] * len(BYTE_PIECES)), *(["normal"] * len(self.tokens))]
        return PieceBpeTokenizer(
            pieces, unk_id=0, kinds=kinds, normalizer=TRAIN_NORMALIZER, byte_fallback=True
        )


def char_bpe_steps(
    text: str,
    *,
    vocab_size: int,
    limit_alphabet: int | None = None,
    min_frequency: int = 1,
    max_token_length: int | None = None,
    outside: str = "split",
    method: Method = "fast",
) -> CharBpeTrainer:
    """Train code-point BPE on ``text``, one :class:`CharBpeStep` per ``next()`` (options:
    :class:`CharBpeOptions`)."""
    if isinstance(text, str) and not text:
        raise ValueError("the text is empty; give code-point BPE a text to learn from")
    options = CharBpeOptions(
        vocab_size=vocab_size,
        limit_alphabet=limit_alphabet,
        min_frequency=min_frequency,
        max_token_length=max_token_length,
        outside=outside,
    )
    return CharBpeTrainer(text, options, method=method)


def train_char_bpe(
    text: str,
    *,
    vocab_size: int,
    limit_alphabet: int | None = None,
    min_frequency: int = 1,
    max_token_length: int | None = None,
    outside: str = "split",
) -> PieceBpeTokenizer:
    """Train code-point BPE on ``text`` and return the tokenizer.

    >>> tok = train_char_bpe("hug pug pun bun hugs " * 3, vocab_size=275)
    >>> tok.encode_pieces("hugs")
    ['▁hugs']
    """
    trainer = char_bpe_steps(
        text,
        vocab_size=vocab_size,
        limit_alphabet=limit_alphabet,
        min_frequency=min_frequency,
        max_token_length=max_token_length,
        outside=outside,
    )
    return trainer.run().tokenizer()
