"""What the Tokenize page does differently for each scheme: one record of hooks per scheme (pure).

What is BPE's alone (merges, the encoder table, the encode trace, the files MergeScope writes) the
page gets from ``tok.as_bpe()``; all else that differs is a record in :data:`HOOKS`, looked up by the
tokenizer's ``scheme`` (:func:`hooks_of`), so no other module tests classes or compares scheme names.
A new scheme on this page is one record here.

>>> from bpe_core.wordpiece import WordPieceTokenizer
>>> tok = WordPieceTokenizer(["[UNK]", "hug", "##s"])
>>> hooks = hooks_of(tok)
>>> hooks.name, hooks.pieces is not None, hooks.summary(tok)
('WordPiece', True, 'WordPiece, vocab 3 (1 continuation pieces ##), special tokens [UNK]')
>>> from bpe_core import CharTokenizer
>>> hooks_of(CharTokenizer("ab")).unknown(CharTokenizer("ab"), "abc")
[(2, 'c')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bpe_core import CharTokenizer, PieceBpeTokenizer, PipelineTokenizer, SchemeTokenizer, Tokenizer
from bpe_core.unigram import SPACE, UnigramTokenizer
from bpe_core.wordpiece import WordPieceTokenizer
from mergescope_ui.shared.html.schemes import Cut

from .piece_html import (
    PieceDetail,
    piece_bpe_summary,
    pipeline_detail,
    pipeline_summary,
    unigram_detail,
    unigram_summary,
    wordpiece_detail,
    wordpiece_summary,
)

T = TypeVar("T", bound=SchemeTokenizer)


def char_vocab(tok: CharTokenizer) -> dict[int, bytes]:
    """The baseline's id -> bytes (each character's UTF-8).

    >>> char_vocab(CharTokenizer("hé"))
    {0: b'h', 1: b'\\xc3\\xa9'}
    """
    return {i: c.encode("utf-8", errors="surrogatepass") for i, c in enumerate(tok.chars)}


def bpe_summary(tok: Tokenizer) -> str:
    """What was loaded, in a few words (not escaped: it names the split pattern).

    >>> bpe_summary(Tokenizer({i: bytes([i]) for i in range(256)}, []))
    'vocab 256, 0 merges, 0 special tokens, pattern gpt2'
    """
    return (
        f"vocab {tok.vocab_size:,}, {len(tok.merges):,} merges, "
        f"{len(tok.special_tokens)} special tokens, pattern {tok.pretokenizer.name}"
    )


@dataclass(frozen=True, kw_only=True)  # no slots: a generic class subscripted when called sets __orig_class__
class PieceHooks(Generic[T]):
    """A scheme whose tokens are pieces of a vocabulary of strings, shown from their cuts over the text:
    ``scores``, each id's (Unigram's log probabilities) or None; ``ranked``, how many pieces rank by
    score; ``marks``, ``how_cut``, ``decoder``: what the marks mean, how it cuts a word, how its decoder
    writes ids back as text, in the page's words."""

    detail: Callable[[T, Cut], PieceDetail]
    starts_word: Callable[[T, str], bool]
    scores: Callable[[T], Sequence[float] | None] = lambda tok: None
    ranked: Callable[[T], int] = lambda tok: 0
    marks: str
    how_cut: str
    decoder: str


@dataclass(frozen=True, kw_only=True)  # no slots: a generic class subscripted when called sets __orig_class__
class SchemeHooks(Generic[T]):
    """One scheme on the Tokenize page: ``byte_vocab``, id -> bytes of every id that can appear (empty
    when ids are pieces of text); ``unknown``, ``(position, character)`` of each character it cannot
    encode at all (none but for the baseline: WordPiece and Unigram make an unknown token);
    ``summary``, what was loaded (None: never loaded from files); ``no_files``, why the Files tab has
    none (``""``: BPE's are written); ``pieces``, when its tokens are pieces of text rather than bytes."""

    name: str
    byte_vocab: Callable[[T], Mapping[int, bytes]] = lambda tok: {}
    unknown: Callable[[T, str], list[tuple[int, str]]] = lambda tok, text: []
    summary: Callable[[T], str] | None = None
    no_files: str = ""
    pieces: PieceHooks[T] | None = None


OWN_FILES = (
    "This tokenizer was loaded from its own files (WordPiece, Unigram, SentencePiece or a tokenizer.json "
    "read stage by stage): they are the files to keep. "
    "MergeScope writes files for byte-level BPE tokenizers."
)

HOOKS: dict[str, SchemeHooks[Any]] = {
    "bpe": SchemeHooks[Tokenizer](
        name="byte-level BPE", byte_vocab=lambda tok: tok.vocab, summary=bpe_summary
    ),
    "char": SchemeHooks[CharTokenizer](
        name="characters",
        byte_vocab=char_vocab,
        unknown=lambda tok, text: tok.unknown(text),
        no_files="The character baseline has no file format; pick a BPE tokenizer to download its files.",
    ),
    "wordpiece": SchemeHooks[WordPieceTokenizer](
        name="WordPiece",
        summary=wordpiece_summary,
        no_files=OWN_FILES,
        pieces=PieceHooks[WordPieceTokenizer](
            detail=wordpiece_detail,
            starts_word=lambda tok, label: not label.startswith(tok.prefix),
            marks="## continues a word",
            how_cut="From the word's start it takes the longest piece in the vocabulary, then the longest "
            "## piece from where that ended, and so on; a word it cannot finish is one unknown token.",
            decoder="a ## piece is glued to the one before, others get a space.",
        ),
    ),
    "unigram": SchemeHooks[UnigramTokenizer](
        name="Unigram",
        summary=unigram_summary,
        no_files=OWN_FILES,
        pieces=PieceHooks[UnigramTokenizer](
            detail=unigram_detail,
            starts_word=lambda tok, label: label.startswith(SPACE),
            scores=lambda tok: tok.scores,
            ranked=lambda tok: sum(1 for k in tok.kinds if k == "normal"),
            marks="▁ is a space; its score",
            how_cut="Of every way to cut the text into pieces, the one whose scores (log probabilities) add "
            "up to the most; ▁ stands for a space.",
            decoder="▁ becomes a space (the first one is dropped).",
        ),
    ),
    "piece-bpe": SchemeHooks[PieceBpeTokenizer](
        name="SentencePiece BPE",
        summary=piece_bpe_summary,
        no_files=OWN_FILES,
        pieces=PieceHooks[PieceBpeTokenizer](
            detail=unigram_detail,
            starts_word=lambda tok, label: label.startswith(SPACE),
            scores=lambda tok: tok.scores,
            ranked=lambda tok: sum(1 for k in tok.kinds if k == "normal"),
            marks="▁ is a space; <0xNN> is one byte; its score (higher joins first)",
            how_cut="Each character starts as a symbol; the two neighbours whose join is a piece with the "
            "highest score join, again and again; a character no piece holds becomes its UTF-8 bytes, "
            "one <0xNN> piece each (byte fallback).",
            decoder="▁ becomes a space (the first one is dropped); <0xNN> pieces are joined into their "
            "characters.",
        ),
    ),
    "pipeline": SchemeHooks[PipelineTokenizer](
        name="tokenizer.json pipeline",
        summary=pipeline_summary,
        no_files=OWN_FILES,
        pieces=PieceHooks[PipelineTokenizer](
            detail=pipeline_detail,
            starts_word=lambda tok, label: (
                not label.startswith(getattr(tok.model, "continuing_subword_prefix", None) or "##")
                if tok.family == "wordpiece"
                else label.startswith((SPACE, "Ġ"))
            ),
            marks="the pieces as its vocabulary writes them (##, ▁, Ġ, <0xNN>)",
            how_cut="Its stages in order, as HF's tokenizers runs them: the normalizer makes the text "
            "uniform, the pre-tokenizer cuts it into words, the model cuts each word into pieces "
            "(WordPiece: longest match; Unigram: best total score; BPE: merges by rank).",
            decoder="its decoder stages, in order, turn the pieces back into text.",
        ),
    ),
}


def hooks_named(scheme: str) -> SchemeHooks[Any]:
    """The record of the scheme named ``scheme`` (a ValueError for a scheme this page cannot show).

    >>> hooks_named("unigram").name
    'Unigram'
    """
    hooks = HOOKS.get(scheme)
    if hooks is None:
        raise ValueError(
            f"the Tokenize page cannot show a {scheme} tokenizer; add its record to HOOKS in "
            f"mergescope_ui/tokenize/schemes.py"
        )
    return hooks


def hooks_of(tok: SchemeTokenizer) -> SchemeHooks[Any]:
    """The record of ``tok``'s scheme (see the module)."""
    return hooks_named(tok.scheme)


def shows(tok: SchemeTokenizer) -> bool:
    """Whether the page can show ``tok`` (its scheme has a record)."""
    return tok.scheme in HOOKS
