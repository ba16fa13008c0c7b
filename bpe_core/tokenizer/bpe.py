"""The Tokenizer: encode text with learned merges, decode ids back to text.

Pipeline (HF `tokenizers`' stage names): the *pre-tokenizer* cuts text at
special tokens and splits the rest into chunks; the *model* turns each chunk's
UTF-8 bytes into ids by applying merges, lowest rank first; the *decoder*
joins the tokens' bytes and decodes UTF-8.  :mod:`.textbook` states the same
encoding plainly (read it first); this one gives the same ids, faster.

>>> from bpe_core import train
>>> tok = train("low low low lower lowest", vocab_size=259, pattern="gpt2")
>>> [tok.vocab[i] for i in tok.encode("lowly")]
[b'low', b'l', b'y']
>>> tok.decode(tok.encode("naïve 自然")) == "naïve 自然"
True
>>> [(s.token, s.start, s.end) for s in tok.token_spans("é")]
[(b'\\xc3', 0, 1), (b'\\xa9', 0, 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, pairwise, repeat
from typing import TypeVar

from ..byte_level import to_unicode_string
from ..pretokenizer import PreTokenizer, check_text, excerpt, time_limit
from ..primitives import merge_pair
from .byte_merges import check_vocab, merge_ids
from .notebook_html import tokens_html
from .streaming import BytesDecoder, encode_pieces

_K = TypeVar("_K")
_V = TypeVar("_V")

_CACHE_LIMIT = 200_000  # chunks kept at most, and
_CACHE_BYTES = 1 << 21  # their UTF-8 bytes at most (about 50 MB of Python objects, whatever the input)
_CACHE_LONGEST = 256  # a longer chunk is encoded each time: it seldom repeats and would fill the cache
_NO_RANK = 1 << 62  # above every merge rank


@dataclass(frozen=True, slots=True)
class TokenSpan:
    """One token over the input: its id, bytes, and where it sits.

    ``start``/``end`` are character offsets into the text; a token that
    starts or ends inside a multi-byte character covers that whole
    character (so neighbouring tokens can share one).  ``byte_start`` and
    ``byte_end`` are exact offsets into the text's UTF-8 bytes.
    """

    id: int
    token: bytes
    start: int
    end: int
    byte_start: int
    byte_end: int


class TokenSpans(list[TokenSpan]):
    """A text's tokens as ``token_spans`` gives them: a list, drawn as coloured boxes in a notebook.

    >>> TokenSpans([TokenSpan(104, b"h", 0, 1, 0, 1)])._repr_html_().count("<span")
    1
    """

    def _repr_html_(self) -> str:
        return tokens_html((span.id, span.token) for span in self)


class _ChunkCache(dict[str, list[int]]):
    """chunk -> ids; a miss runs BPE on the chunk (so lookups can be a C-level ``map``).

    Kept across calls and bounded, so that no input can grow it without end: it
    is emptied when it holds _CACHE_LIMIT chunks or _CACHE_BYTES bytes of them,
    and a chunk over _CACHE_LONGEST bytes (a whole text, with pattern ``none``) is not kept.
    """

    def __init__(self, bpe: Callable[[bytes], list[int]]) -> None:
        super().__init__()
        self._bpe = bpe
        self.bytes = 0  # UTF-8 bytes of the chunks held

    def __missing__(self, chunk: str) -> list[int]:
        data = chunk.encode("utf-8")
        ids = self._bpe(data)
        if len(data) > _CACHE_LONGEST:
            return ids
        if len(self) >= _CACHE_LIMIT or self.bytes >= _CACHE_BYTES:
            self.clear()
        self[chunk] = ids
        self.bytes += len(data)
        return ids

    def clear(self) -> None:
        super().clear()
        self.bytes = 0


_SLICE = 1 << 15


def _zip_dict(keys: Sequence[_K], values: Sequence[_V]) -> dict[_K, _V]:
    """``dict(zip(keys, values))`` (the later of equal keys wins), built in slices of 32,768 pairs:
    one C call over a million pairs would keep every other thread of the process (a web server's
    other sessions) waiting until it ends; between slices they run.

    >>> _zip_dict([1, 2, 1], "abc")
    {1: 'c', 2: 'b'}
    """
    out: dict[_K, _V] = {}
    for start in range(0, len(keys), _SLICE):
        out.update(zip(keys[start : start + _SLICE], values[start : start + _SLICE], strict=True))
    return out


class Tokenizer:
    """A byte-level BPE tokenizer: a vocabulary, ordered merges, special tokens and a split pattern.

    ``vocab`` maps id -> bytes and must hold all 256 single bytes.  Merge
    ``i`` joins ``vocab[a] + vocab[b]`` into the token of that value, which must
    be in ``vocab``; lower ``i`` means higher priority when encoding.
    ``special_tokens`` maps each special string to its id (its vocab entry,
    if any, must be its UTF-8 bytes).
    """

    scheme = "bpe"  # the scheme's name (see :mod:`.scheme`)

    def __init__(
        self,
        vocab: Mapping[int, bytes],
        merges: Sequence[tuple[int, int]],
        *,
        special_tokens: Mapping[str, int] | None = None,
        pattern: str = "gpt2",
    ) -> None:
        self.vocab: dict[int, bytes] = dict(vocab)
        self.special_tokens: dict[str, int] = dict(special_tokens or {})
        for s, i in self.special_tokens.items():
            if i in self.vocab and self.vocab[i] != s.encode("utf-8"):
                raise ValueError(
                    f"special token {excerpt(s)} has id {i}, which the vocab already uses for "
                    f"{excerpt(self.vocab[i])}; "
                    "give it a free id"
                )
            self.vocab[i] = s.encode("utf-8")
        special_ids = self._special_ids = frozenset(self.special_tokens.values())
        # token -> id of the ordinary tokens with whole-dict calls; a token twice: one at a time.
        ordinary = (
            self.vocab if not special_ids else {i: t for i, t in self.vocab.items() if i not in special_ids}
        )
        self._id_of: dict[bytes, int] = _zip_dict(list(ordinary.values()), list(ordinary))
        if len(self._id_of) != len(ordinary):
            self._id_of = self._checked_id_of()
        missing = [b for b in range(256) if bytes([b]) not in self._id_of]
        if missing:
            raise ValueError(
                f"the vocab lacks {len(missing)} of the 256 single bytes (first: 0x{missing[0]:02X}); "
                "a byte-level BPE vocab must hold every byte so any text can be encoded"
            )
        self._byte_id = [self._id_of[bytes([b])] for b in range(256)]
        self.merges: list[tuple[int, int]] = [(a, b) for a, b in merges]
        self.merge_ids: list[int] = self._merge_ids()
        self._index(pattern)

    def _index(self, pattern: str) -> None:
        """The pre-tokenizer; the lookups encoding needs are built on first use (:meth:`_ranks`)."""
        self._rank: dict[tuple[int, int], int] | None = None
        self._rank_of_id: dict[int, int] | None = None
        self.pattern = pattern
        self.pretokenizer = PreTokenizer(pattern, special_tokens=list(self.special_tokens))
        self._cache = _ChunkCache(self._bpe)
        self._ordinary: Tokenizer | None = None  # built on first use by without_special_tokens

    @classmethod
    def _from_checked(
        cls,
        vocab: dict[int, bytes],
        merges: list[tuple[int, int]],
        merge_ids: list[int],
        *,
        special_tokens: dict[str, int],
        pattern: str,
    ) -> Tokenizer:
        """A tokenizer from the parts of one this class's constructor already checked, trusted as
        they are: no check is run again, and the dicts and lists given are kept, not copied.

        Only for the parts of a checked tokenizer sent from a worker process (see
        ``mergescope_ui.shared.inputs.tokenizer_files.unpack``): rebuilding a tokenizer of 800,000 tokens
        through :meth:`__init__` checks every merge a second time (a second or more); and for the
        data of a reader that checked it all and made the merges from the tokens themselves
        (``bpe_core.formats.load.tokenizer_from``: a ``.tiktoken`` file).  Never give it anything a
        user wrote as it is: the public constructors check that.

        >>> tok = Tokenizer({i: bytes([i]) for i in range(256)} | {256: b"ab"}, [(97, 98)])
        >>> back = Tokenizer._from_checked(
        ...     dict(tok.vocab), list(tok.merges), list(tok.merge_ids), special_tokens={}, pattern="gpt2"
        ... )
        >>> back.encode("abc"), back.merge_step_of(256)
        ([256, 99], 1)
        """
        tok = cls.__new__(cls)
        tok.vocab, tok.special_tokens = vocab, special_tokens
        special_ids = tok._special_ids = frozenset(special_tokens.values())
        ordinary = vocab if not special_ids else {i: t for i, t in vocab.items() if i not in special_ids}
        tok._id_of = _zip_dict(list(ordinary.values()), list(ordinary))
        tok._byte_id = [tok._id_of[bytes([b])] for b in range(256)]
        tok.merges, tok.merge_ids = merges, merge_ids
        tok._index(pattern)
        return tok

    def _ranks(self) -> dict[tuple[int, int], int]:
        """pair -> the rank of its (first) merge, built on first use: a tokenizer checked in a worker
        process and sent to the server (``mergescope_ui.shared.inputs.tokenizer_files``) never encodes there,
        and for 800,000 merges this is a second of work done once, on the server."""
        rank = self._rank
        if rank is None:  # written last to first, so the first merge of a pair wins
            n = len(self.merges)
            rank = self._rank = _zip_dict(self.merges[::-1], range(n - 1, -1, -1))
        return rank

    def _checked_id_of(self) -> dict[bytes, int]:
        """token -> id for the ordinary tokens, one at a time: a token twice is a ValueError."""
        id_of: dict[bytes, int] = {}
        for i, token in self.vocab.items():
            if i in self._special_ids:
                continue
            if token in id_of:
                raise ValueError(
                    f"token {excerpt(token)} appears twice in the vocab (ids {id_of[token]} and "
                    f"{i}); each "
                    "token needs one id"
                )
            id_of[token] = i
        return id_of

    def _merge_ids(self) -> list[int]:
        """The id each merge makes, with whole-list calls (a second less for 900,000 merges than one
        at a time); at any doubt :meth:`_checked_merge_ids` finds the first bad merge."""
        vocab, id_of = self.vocab, self._id_of
        made: list[int | None] = []
        try:
            for start in range(0, len(self.merges), _SLICE):
                made += map(id_of.get, [vocab[a] + vocab[b] for a, b in self.merges[start : start + _SLICE]])
        except (KeyError, TypeError):
            made = [None]
        if None in made:
            return self._checked_merge_ids()
        return made  # type: ignore[return-value]  # None is not in it

    def _checked_merge_ids(self) -> list[int]:
        """The id each merge makes, one merge at a time: the first bad merge is a ValueError."""
        merge_ids: list[int] = []
        for rank, (a, b) in enumerate(self.merges):
            if a not in self.vocab or b not in self.vocab:
                raise ValueError(
                    f"merge {rank + 1} ({a}, {b}) uses an id not in the vocab (vocab size {len(self.vocab)})"
                )
            new_id = self._id_of.get(self.vocab[a] + self.vocab[b])
            if new_id is None:
                raise ValueError(
                    f"merge {rank + 1} makes {excerpt(self.vocab[a] + self.vocab[b])}, which is not in "
                    "the vocab; "
                    "add it"
                )
            merge_ids.append(new_id)
        return merge_ids

    # ----- facts -----
    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def __repr__(self) -> str:
        return (
            f"Tokenizer(vocab_size={self.vocab_size}, merges={len(self.merges)}, "
            f"special_tokens={list(self.special_tokens)}, pattern={self.pretokenizer.name!r})"
        )

    @property
    def special_ids(self) -> frozenset[int]:
        """The ids of the special tokens (see :mod:`.scheme`).

        >>> Tokenizer({i: bytes([i]) for i in range(256)}, [], special_tokens={"<|x|>": 256}).special_ids
        frozenset({256})
        """
        return self._special_ids

    def as_bpe(self) -> Tokenizer:
        """This tokenizer, as byte-level BPE is (see :mod:`.scheme`): its merges, byte vocabulary and
        special tokens that a text can hold or not.

        >>> tok = Tokenizer({i: bytes([i]) for i in range(256)}, [])
        >>> tok.as_bpe() is tok
        True
        """
        return self

    def merge_step_of(self, token_id: int) -> int | None:
        """The 1-based merge step that created ``token_id`` (None for bytes and special tokens)."""
        if self._rank_of_id is None:
            self._rank_of_id = _zip_dict(self.merge_ids, range(len(self.merge_ids)))
        rank = self._rank_of_id.get(token_id)
        return None if rank is None else rank + 1

    def piece(self, token_id: int) -> str:
        """The token as GPT-2's vocab.json writes it (``Ġ`` for a space), special tokens as themselves."""
        for special, sid in self.special_tokens.items():
            if sid == token_id:
                return special
        if token_id not in self.vocab:
            raise ValueError(f"id {token_id} is not in this tokenizer's vocabulary of {self.vocab_size}")
        return to_unicode_string(self.vocab[token_id])

    def merge_ranks(self) -> Mapping[tuple[int, int], int]:
        """pair -> the rank of its merge (the first, where a pair is listed twice); not a copy: read only.

        >>> Tokenizer({i: bytes([i]) for i in range(256)} | {256: b"ab"}, [(97, 98)]).merge_ranks()
        {(97, 98): 0}
        """
        return self._ranks()

    def id_of(self, token: bytes) -> int | None:
        """The id of an ordinary (non-special) token, or None."""
        return self._id_of.get(token)

    def byte_ids(self) -> list[int]:
        """The id of each byte value, 0 to 255 (a byte-level vocab holds them all; a file's
        vocab may number them in its own order).

        >>> Tokenizer({i: bytes([255 - i]) for i in range(256)}, []).byte_ids()[:2]
        [255, 254]
        """
        return list(self._byte_id)

    # ----- model: bytes -> ids -----
    def _bpe(self, data: bytes) -> list[int]:
        """One chunk's ids: apply the lowest-rank merge present, everywhere, until none is.

        The ranks of the adjacent pairs are looked up once, in one C-level
        ``map``.  Most rounds merge one occurrence, in place; then only the two
        pairs beside it have new ranks.  A round that merges several (or
        overlapping, as in ``aaa``) merges them left to right and looks the ranks up again.

        >>> tok = Tokenizer({i: bytes([i]) for i in range(256)} | {256: b"aa"}, [(97, 97)])
        >>> tok._bpe(b"aaa"), tok._bpe(b"aaaa"), tok._bpe(b"bab")
        ([256, 97], [256, 256], [98, 97, 98])
        """
        ids = list(map(self._byte_id.__getitem__, data))
        get, new_ids, no = self._ranks().get, self.merge_ids, _NO_RANK
        n = len(ids)
        if n < 3:
            if n < 2:
                return ids
            r = get((ids[0], ids[1]))
            return ids if r is None else [new_ids[r]]
        ranks = list(map(get, pairwise(ids), repeat(no)))  # ranks[i]: the pair ids[i], ids[i + 1]
        while True:
            best = min(ranks)
            if best == no:
                return ids
            new = new_ids[best]
            if ranks.count(best) > 1:  # several, or overlapping (aaa): left to right, without overlap
                i = ranks.index(best)
                ids = merge_pair(ids, (ids[i], ids[i + 1]), new)
                n = len(ids)
                if n < 2:
                    return ids
                ranks = list(map(get, pairwise(ids), repeat(no)))
                continue
            i = ranks.index(best)
            n -= 1  # ids' length after this merge, and ranks' now
            if n == 1:
                return [new]
            if i < n - 1:  # the pair to the right: (new, ids[i + 2]) takes the place of ranks[i + 1]
                ranks[i + 1] = get((new, ids[i + 2]), no)
            if i:  # the pair to the left
                ranks[i - 1] = get((ids[i - 1], new), no)
            del ranks[i]
            ids[i] = new
            del ids[i + 1]

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text``; special tokens become their one id.

        A lone surrogate (not valid Unicode) is a ValueError naming its place; a
        custom split pattern that runs past its time limit is one too.
        """
        check_text(text)
        out: list[int] = []
        lookup = self._cache.__getitem__  # computes and stores a chunk on a miss
        with time_limit(len(text)):  # one limit for a custom pattern over all the segments
            for segment, special in self.pretokenizer.segments(text):
                if special:
                    out.append(self.special_tokens[segment])
                else:
                    out.extend(chain.from_iterable(map(lookup, self.pretokenizer.split(segment))))
        return out

    def encode_ordinary(self, text: str) -> list[int]:
        """Like :meth:`encode` but special-token strings are encoded as plain text."""
        return self.without_special_tokens().encode(text)

    def without_special_tokens(self) -> Tokenizer:
        """This tokenizer minus its special tokens (built once, then reused with its chunk cache)."""
        if not self.special_tokens:
            return self
        if self._ordinary is None:
            ordinary = {i: t for i, t in self.vocab.items() if i not in self._special_ids}
            self._ordinary = Tokenizer(ordinary, self.merges, pattern=self.pattern)
        return self._ordinary

    def encode_iterable(self, iterable: Iterable[str]) -> Iterator[int]:
        """The ids of ``encode("".join(iterable))``, yielded lazily: memory holds a buffer of
        about 64K characters plus the longest stretch without a safe cut, not the input.

        Pass a file opened as text, a list of lines, any iterable of strings; see
        :mod:`.streaming` and :mod:`bpe_core.pretokenizer.cuts`.
        """
        return encode_pieces(iterable, self.pretokenizer, self.encode)

    # ----- decoder: ids -> bytes -> text -----
    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The exact bytes of ``ids``; an unknown id is a ValueError naming it."""
        vocab = self.vocab
        try:
            return b"".join([vocab[i] for i in ids])
        except (KeyError, TypeError):
            for i in ids:
                if isinstance(i, bool) or not isinstance(i, int) or i not in vocab:
                    raise ValueError(
                        f"token id {excerpt(i)} is not in the vocabulary (vocab size {len(vocab)}, "
                        f"ids {min(vocab)}..{max(vocab)}); check the ids come from this tokenizer"
                    ) from None
            raise

    def decode(self, ids: Iterable[int]) -> str:
        """Text of ``ids``: bytes joined, then UTF-8 with U+FFFD for invalid sequences."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")

    def incremental_decoder(self) -> BytesDecoder:
        """A decoder of ids given in blocks, whose texts joined are :meth:`decode` of them all (see
        :mod:`.streaming`)."""
        return BytesDecoder(self.decode_bytes)

    # ----- spans for highlighting -----
    def token_spans(self, text: str) -> TokenSpans:
        """Each token of ``text`` with its character and byte offsets (see :class:`TokenSpan`)."""
        ids = self.encode(text)
        # byte offset -> character offset; a byte inside a character maps to that character
        char_of_byte: list[int] = []
        for ci, ch in enumerate(text):
            char_of_byte.extend([ci] * len(ch.encode("utf-8")))
        char_of_byte.append(len(text))
        spans = TokenSpans()
        pos = 0
        for i in ids:
            token = self.vocab[i]
            end = pos + len(token)
            spans.append(
                TokenSpan(
                    i,
                    token,
                    char_of_byte[pos],
                    char_of_byte[end - 1] + 1 if end > pos else char_of_byte[pos],
                    pos,
                    end,
                )
            )
            pos = end
        return spans

    # ----- the shapes other libraries use: bytes -> bytes -----
    @classmethod
    def from_merges(
        cls,
        vocab: Mapping[int, bytes],
        merges: Iterable[tuple[bytes, bytes]],
        special_tokens: Iterable[str] = (),
        *,
        pattern: str = "gpt2",
    ) -> Tokenizer:
        """A tokenizer from ``vocab: dict[int, bytes]`` (ids 0..n-1) and ``merges: list[tuple[bytes,
        bytes]]`` in merge order, as the CS336 assignment and other libraries give them.

        A special token whose bytes are in ``vocab`` keeps that id; one that is
        not gets the next free id.  A merge whose parts or result are not in the
        vocab, two ids with the same bytes, or ids with gaps are ValueErrors
        that say which.  :meth:`vocab_bytes` and :meth:`merges_bytes` give them back.

        >>> vocab = {i: bytes([i]) for i in range(256)} | {256: b"ab"}
        >>> tok = Tokenizer.from_merges(vocab, [(b"a", b"b")], ["<|eot|>"])
        >>> tok.encode("abc<|eot|>"), tok.merges_bytes()
        ([256, 99, 257], [(b'a', b'b')])
        """
        if isinstance(special_tokens, str):
            raise ValueError(
                "special_tokens must be a list of strings, e.g. ['<|endoftext|>'], not one string"
            )
        id_of = check_vocab(vocab)
        pairs = merge_ids(vocab, merges)
        specials: dict[str, int] = {}
        next_id = len(vocab)
        for token in special_tokens:
            if not isinstance(token, str):
                raise ValueError(f"special token {token!r} must be a str")
            known = id_of.get(token.encode("utf-8"))
            specials[token] = next_id if known is None else known
            next_id += known is None
        return cls(vocab, pairs, special_tokens=specials, pattern=pattern)

    def vocab_bytes(self) -> dict[int, bytes]:
        """``id -> bytes`` for every token, special tokens included (a copy)."""
        return dict(self.vocab)

    def merges_bytes(self) -> list[tuple[bytes, bytes]]:
        """The merges in order as the byte strings of the two tokens each one joins."""
        vocab = self.vocab
        return [(vocab[a], vocab[b]) for a, b in self.merges]

    # ----- derived tokenizers -----
    def with_merges(self, k: int) -> Tokenizer:
        """The same tokenizer cut to its first ``k`` merges (ids unchanged)."""
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(self.merges):
            raise ValueError(
                f"k must be a whole number from 0 to {len(self.merges)} (the number of merges), not "
                f"{excerpt(k)}"
            )
        dropped = set(self.merge_ids[k:])
        vocab = {i: t for i, t in self.vocab.items() if i not in dropped}
        return Tokenizer(vocab, self.merges[:k], special_tokens=self.special_tokens, pattern=self.pattern)
