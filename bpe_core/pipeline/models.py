"""Models, the third stage: each word cut into pieces of the vocabulary (HF's ``models``).

Each model has ``tokenize(word) -> list[(id, start, end)]`` (character offsets in the word), ``vocab``
(piece -> id) and ``pieces`` (id -> piece).

- :class:`WordPieceModel`: the longest piece that starts the word, then the longest ``##`` piece that
  goes on, and so on; a word that cannot be cut (or is longer than ``max_input_chars_per_word``) is one
  ``[UNK]``;
- :class:`UnigramModel`: Viterbi, the cut with the highest sum of scores; a character no piece covers is
  ``<unk>`` (scored the lowest score minus 10), a run of them one, or its bytes with ``byte_fallback``;
- :class:`BpeModel`: BPE over characters (Llama-2's ``tokenizer.json``): each character a symbol (its
  ``<0xNN>`` bytes with ``byte_fallback`` when it is no piece, else ``unk_token``), then merges by rank
  (:func:`~bpe_core.tokenizer.piece_bpe.merge_fast`, or the textbook rule with ``textbook=True``).

>>> WordPieceModel({"[UNK]": 0, "hug": 1, "##s": 2}).tokenize("hugs")
[(1, 0, 3), (2, 3, 4)]
>>> m = BpeModel({"a": 0, "b": 1, "ab": 2, "<unk>": 3}, [("a", "b")], unk_token="<unk>")
>>> m.tokenize("abc")
[(2, 0, 2), (3, 2, 3)]
>>> UnigramModel([("<unk>", 0.0), ("ab", -1.0), ("a", -2.0), ("b", -2.0)], unk_id=0).tokenize("abab")
[(1, 0, 2), (1, 2, 4)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from ..tokenizer.piece_bpe import merge_fast, merge_textbook

UNK_PENALTY = 10.0  # HF's K_UNK_PENALTY, SentencePiece's kUnkPenalty
_CACHE_LIMIT = 50_000
_CACHED_WORD = 256  # longer words are cut again each time (rare, and they would fill the cache)


def _cached(
    cache: dict[str, list[tuple[int, int, int]]],
    word: str,
    tokenize: Callable[[str], list[tuple[int, int, int]]],
) -> list[tuple[int, int, int]]:
    """A model's cut of ``word`` (id, start, end per token), from ``cache`` or made and kept there."""
    hit = cache.get(word)
    if hit is None:
        hit = tokenize(word)
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        if len(word) <= _CACHED_WORD:
            cache[word] = hit
    return hit


class Model(Protocol):
    """What every model offers."""

    kind: ClassVar[str]

    @property
    def vocab(self) -> Mapping[str, int]: ...

    @property
    def pieces(self) -> Mapping[int, str]: ...

    def tokenize(self, word: str) -> list[tuple[int, int, int]]: ...


def _check_ids(vocab: Mapping[str, int]) -> dict[int, str]:
    pieces: dict[int, str] = {}
    for piece, i in vocab.items():
        if isinstance(i, bool) or not isinstance(i, int) or i < 0:
            raise ValueError(f"piece {piece!r} has id {i!r}; ids are whole numbers from 0")
        if i in pieces:
            raise ValueError(f"pieces {pieces[i]!r} and {piece!r} share id {i}; give each its own")
        pieces[i] = piece
    return pieces


def byte_piece(b: int) -> str:
    """The piece that stands for byte ``b`` with byte fallback: ``<0xE6>``."""
    return f"<0x{b:02X}>"


@dataclass(frozen=True, slots=True)
class WordPieceModel:
    """BERT's WordPiece: greedy longest match, ``continuing_subword_prefix`` (``##``) on every piece but the
    first, a word that cannot be cut one ``unk_token``."""

    vocab: Mapping[str, int]
    unk_token: str = "[UNK]"
    continuing_subword_prefix: str = "##"
    max_input_chars_per_word: int = 100
    kind: ClassVar[str] = "WordPiece"
    pieces: dict[int, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", _check_ids(self.vocab))
        if self.unk_token not in self.vocab:
            raise ValueError(f"the unknown token {self.unk_token!r} is not in the vocab; add it")

    def tokenize(self, word: str) -> list[tuple[int, int, int]]:
        unk = [(self.vocab[self.unk_token], 0, len(word))]
        if len(word) > self.max_input_chars_per_word:
            return unk
        out: list[tuple[int, int, int]] = []
        start = 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else self.continuing_subword_prefix + word[start:end]
                i = self.vocab.get(piece)
                if i is not None:
                    out.append((i, start, end))
                    break
                end -= 1
            else:
                return unk
            start = end
        return out


@dataclass(frozen=True, slots=True)
class UnigramModel:
    """HF's Unigram: ``pieces`` as (piece, score) in id order; every piece can cut the word (HF matches them
    all, byte pieces and the unknown one included); ``unk_id``; ``byte_fallback``."""

    vocab_scores: Sequence[tuple[str, float]]
    unk_id: int
    byte_fallback: bool = False
    kind: ClassVar[str] = "Unigram"
    vocab: dict[str, int] = field(init=False, repr=False, compare=False)
    pieces: dict[int, str] = field(init=False, repr=False, compare=False)
    _scores: dict[str, tuple[int, float]] = field(init=False, repr=False, compare=False)
    _longest: int = field(init=False, repr=False, compare=False)
    _unk_score: float = field(init=False, repr=False, compare=False)
    _cache: dict[str, list[tuple[int, int, int]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0 <= self.unk_id < len(self.vocab_scores):
            raise ValueError(f"unk_id {self.unk_id} is not an id of the {len(self.vocab_scores)} pieces")
        vocab = {p: i for i, (p, _) in enumerate(self.vocab_scores)}
        if len(vocab) != len(self.vocab_scores):
            raise ValueError("a piece is listed twice in the Unigram vocab; keep one")
        object.__setattr__(self, "vocab", vocab)
        object.__setattr__(self, "pieces", {i: p for p, i in vocab.items()})
        object.__setattr__(self, "_scores", {p: (i, float(s)) for i, (p, s) in enumerate(self.vocab_scores)})
        object.__setattr__(self, "_longest", max(len(p) for p, _ in self.vocab_scores))
        low = min(float(s) for _, s in self.vocab_scores)
        object.__setattr__(self, "_unk_score", low - UNK_PENALTY)
        object.__setattr__(self, "_cache", {})

    def tokenize(self, word: str) -> list[tuple[int, int, int]]:
        return _cached(self._cache, word, self._tokenize)

    def _tokenize(self, s: str) -> list[tuple[int, int, int]]:
        n = len(s)
        best: list[float | None] = [0.0] + [None] * n
        back: list[tuple[int, int]] = [(0, 0)] * (n + 1)
        for start in range(n):
            here = best[start]
            assert here is not None  # each place is reached from the one before, by <unk> at worst
            single = False
            for end in range(start + 1, min(n, start + self._longest) + 1):
                hit = self._scores.get(s[start:end])
                if hit is not None:
                    total = here + hit[1]
                    known = best[end]
                    if known is None or total > known:
                        best[end], back[end] = total, (hit[0], start)
                    single = single or end == start + 1
            if not single:
                total = here + self._unk_score
                known = best[start + 1]
                if known is None or total > known:
                    best[start + 1], back[start + 1] = total, (self.unk_id, start)
        path: list[tuple[int, int, int]] = []
        end = n
        while end > 0:
            t, start = back[end]
            if t == self.unk_id and path and path[-1][0] == self.unk_id:  # a run of unknowns is one
                path[-1] = (t, start, path[-1][2])
            else:
                path.append((t, start, end))
            end = start
        path.reverse()
        if not self.byte_fallback:
            return path
        out: list[tuple[int, int, int]] = []
        for t, i, j in path:
            if t == self.unk_id and s[i:j] not in self.vocab:
                ids = [self.vocab.get(byte_piece(b)) for b in s[i:j].encode("utf-8", "surrogatepass")]
                if all(k is not None for k in ids):
                    out.extend((k, i, j) for k in ids if k is not None)
                    continue
            out.append((t, i, j))
        return out


@dataclass(frozen=True, slots=True)
class BpeModel:
    """HF's BPE model over characters (not bytes): ``vocab``, ``merges`` in rank order as piece pairs, and
    HF's options: ``unk_token``, ``continuing_subword_prefix``, ``end_of_word_suffix``, ``byte_fallback``,
    ``fuse_unk``, ``ignore_merges`` (a word that is a piece stays whole)."""

    vocab: Mapping[str, int]
    merges: Sequence[tuple[str, str]]
    unk_token: str | None = None
    continuing_subword_prefix: str | None = None
    end_of_word_suffix: str | None = None
    byte_fallback: bool = False
    fuse_unk: bool = False
    ignore_merges: bool = False
    textbook: bool = False
    kind: ClassVar[str] = "BPE"
    pieces: dict[int, str] = field(init=False, repr=False, compare=False)
    _ranks: dict[tuple[int, int], tuple[int, int]] = field(init=False, repr=False, compare=False)
    _cache: dict[str, list[tuple[int, int, int]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", _check_ids(self.vocab))
        if self.unk_token is not None and self.unk_token not in self.vocab:
            raise ValueError(
                f"the unknown token {self.unk_token!r} is not in the vocab; add it or set it null"
            )
        cut = len(self.continuing_subword_prefix or "")
        ranks: dict[tuple[int, int], tuple[int, int]] = {}
        for rank, (a, b) in enumerate(self.merges):
            joined = a + b[cut:]
            for part in (a, b, joined):
                if part not in self.vocab:
                    raise ValueError(
                        f"merge {rank + 1} ({a!r} {b!r}) uses {part!r}, which is not in the vocab"
                    )
            ranks.setdefault((self.vocab[a], self.vocab[b]), (rank, self.vocab[joined]))
        object.__setattr__(self, "_ranks", ranks)
        object.__setattr__(self, "_cache", {})

    def _rule(
        self, a: tuple[int, int, int], b: tuple[int, int, int]
    ) -> tuple[float, tuple[int, int, int]] | None:
        hit = self._ranks.get((a[0], b[0]))
        return None if hit is None else (hit[0], (hit[1], a[1], b[2]))

    def tokenize(self, word: str) -> list[tuple[int, int, int]]:
        return _cached(self._cache, word, self._tokenize)

    def _tokenize(self, word: str) -> list[tuple[int, int, int]]:
        if not word:
            return []
        if self.ignore_merges and word in self.vocab:
            return [(self.vocab[word], 0, len(word))]
        symbols: list[tuple[int, int, int]] = []
        unk: tuple[int, int, int] | None = None
        for k, c in enumerate(word):
            s = c
            if k > 0 and self.continuing_subword_prefix is not None:
                s = self.continuing_subword_prefix + s
            if k == len(word) - 1 and self.end_of_word_suffix is not None:
                s = s + self.end_of_word_suffix
            i = self.vocab.get(s)
            if i is not None:
                if unk is not None:
                    symbols.append(unk)
                    unk = None
                symbols.append((i, k, k + 1))
                continue
            if self.byte_fallback:
                ids = [self.vocab.get(byte_piece(b)) for b in s.encode("utf-8", "surrogatepass")]
                if all(b is not None for b in ids):
                    symbols.extend((b, k, k + 1) for b in ids if b is not None)
                    continue
            if self.unk_token is not None:
                unk_id = self.vocab[self.unk_token]
                if unk is not None and self.fuse_unk:
                    unk = (unk_id, unk[1], k + 1)
                else:
                    if unk is not None:
                        symbols.append(unk)
                    unk = (unk_id, k, k + 1)
        if unk is not None:
            symbols.append(unk)
        merge = merge_textbook if self.textbook else merge_fast
        return [s for s, _ in merge(symbols, self._rule)]
