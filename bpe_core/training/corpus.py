"""A training text as BPE sees it: its distinct chunks with their counts.

Pre-tokenization runs once.  BPE never merges across a chunk boundary, so a
chunk that occurs a thousand times is trained on once, with weight 1000.

>>> from bpe_core.pretokenizer import PreTokenizer
>>> corpus = Corpus.count("the cat<|eot|>the hat", PreTokenizer("gpt2", special_tokens=["<|eot|>"]))
>>> dict(corpus.chunk_counts), corpus.special_counts
({'the': 2, ' cat': 1, ' hat': 1}, {'<|eot|>': 1})
>>> corpus.bytes, corpus.initial_tokens  # 21 bytes, of which the 7 of <|eot|> are one token
(21, 15)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..pretokenizer import PreTokenizer, check_text


@dataclass(frozen=True, slots=True)
class Corpus:
    """``chunk_counts``: distinct chunks in first-occurrence order, each with how often it occurs;
    ``special_counts``: the same for special tokens; ``bytes``: the text's UTF-8 length."""

    chunk_counts: dict[str, int]
    special_counts: dict[str, int]
    bytes: int

    @property
    def initial_tokens(self) -> int:
        """Tokens before any merge: one per byte, and one per special token."""
        special_bytes = sum(len(s.encode("utf-8")) * c for s, c in self.special_counts.items())
        return self.bytes - special_bytes + sum(self.special_counts.values())

    @classmethod
    def count(cls, text: str, pretokenizer: PreTokenizer, *, workers: int | None = None) -> Corpus:
        """Pre-tokenize ``text`` and count its chunks (long texts in ``workers`` processes)."""
        data = check_text(text)
        chunks, specials = pretokenizer.count_chunks(text, workers=workers)
        return cls(chunks, dict(specials), len(data))
