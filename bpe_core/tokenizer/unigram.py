"""The Unigram tokenizer (SentencePiece's model): pieces with log probabilities, text cut by Viterbi.

Encoding normalizes the text (:mod:`.unigram_normalizer`: SentencePiece's rules, spaces become ``▁``), then
takes the segmentation with the highest total score (ties by
:data:`~.unigram_lattice.TIE_RULE`). A character no piece covers becomes the unknown piece (score: the
lowest score minus 10, as SentencePiece and HF do); a run of them is one ``<unk>`` token, or, with
``byte_fallback``, one ``<0xNN>`` token per UTF-8 byte.

Two ways to sum scores, both as their libraries do: ``float32=True`` (a SentencePiece ``.model``) adds in
32-bit floats over the whole normalized text, exactly as ``sentencepiece`` does; otherwise (our own models,
HF ``tokenizer.json``) 64-bit floats, word by word (each word starts at a ``▁``, HF's ``Metaspace`` split),
which lets a word's cut be cached.

What the round trip loses (:meth:`UnigramTokenizer.lost`, a :class:`~.scheme.Loss`): what normalization
changes (spaces at the ends, runs of spaces, NFKC for ``nmt_nfkc``) and unknown characters (decoded as
``unk_surface``, `` ⁇ ``).

>>> tok = UnigramTokenizer([("<unk>", 0.0), ("▁", -2.0), ("▁the", -1.0), ("t", -3.0), ("h", -3.0),
...                         ("e", -3.0), ("▁a", -2.5), ("a", -3.0), ("n", -3.0)])
>>> tok.encode_pieces("the ant")
['▁the', '▁a', 'n', 't']
>>> tok.decode(tok.encode("the ant"))
'the ant'
>>> tok.encode_pieces("the  cat")  # two spaces become one; c is unknown
['▁the', '▁', 'c', 'a', 't']
>>> tok.piece(tok.encode("the  cat")[2])
'<unk>'
>>> tok.decode(tok.encode("the  cat"))
'the  ⁇ at'
>>> [(s.start, s.end, s.token) for s in tok.token_spans("the  cat")][1:3]
[(3, 5, b'  '), (5, 6, b'c')]
"""

from __future__ import annotations

import codecs
import dataclasses
import struct
from collections.abc import Iterable, Sequence

from .bpe import Tokenizer, TokenSpan, TokenSpans
from .scheme import Loss
from .unigram_lattice import Lattice, lattice
from .unigram_normalizer import SPACE, Normalized, SentencePieceNormalizer

UNK_PENALTY = 10.0
UNK_SURFACE = " \u2047 "  # SentencePiece's default surface of <unk> when decoding
KINDS = ("normal", "unknown", "control", "user_defined", "unused", "byte")
_F32 = struct.Struct("<f")
_FLT_MIN = 1.1754943508222875e-38  # SentencePiece starts its max_score at FLT_MIN


def f32(x: float) -> float:
    """``x`` rounded to a 32-bit float (SentencePiece keeps scores and sums as C ``float``)."""
    rounded: float = _F32.unpack(_F32.pack(x))[0]
    return rounded


class UnigramTokenizer:
    """A Unigram model: ``pieces`` (piece, score) in id order, one of them the unknown piece (``unk_id``).

    ``kinds`` gives each piece's SentencePiece type (:data:`KINDS`; default: ``normal``, ``unknown`` at
    ``unk_id``); only ``normal`` and ``user_defined`` pieces cut text. See the module's docstring for
    ``normalizer``, ``byte_fallback``, ``float32`` and ``unk_surface``.
    """

    scheme = "unigram"

    def __init__(
        self,
        pieces: Sequence[tuple[str, float]],
        *,
        unk_id: int = 0,
        kinds: Sequence[str] | None = None,
        normalizer: SentencePieceNormalizer | None = None,
        byte_fallback: bool = False,
        float32: bool = False,
        unk_surface: str = UNK_SURFACE,
    ) -> None:
        pieces = [(str(p), float(s)) for p, s in pieces]
        if not pieces:
            raise ValueError(
                "a Unigram model needs at least its unknown piece; give pieces as (piece, score)"
            )
        if isinstance(unk_id, bool) or not isinstance(unk_id, int) or not 0 <= unk_id < len(pieces):
            raise ValueError(
                f"unk_id {unk_id!r} is not an id of the {len(pieces)} pieces; use 0..{len(pieces) - 1}"
            )
        kinds = list(kinds) if kinds is not None else ["normal"] * len(pieces)
        if kinds is not None and len(kinds) != len(pieces):
            raise ValueError(f"{len(kinds)} kinds for {len(pieces)} pieces; give one kind per piece")
        kinds[unk_id] = "unknown"
        for i, kind in enumerate(kinds):
            if kind not in KINDS:
                raise ValueError(f"piece {i} has kind {kind!r}; use one of {', '.join(KINDS)}")
            if kind == "unknown" and i != unk_id:
                raise ValueError(f"piece {i} is a second unknown piece; a model has one (unk_id={unk_id})")
        self.pieces: list[str] = [p for p, _ in pieces]
        self.scores: list[float] = [s for _, s in pieces]
        self.kinds: list[str] = kinds
        self.unk_id = unk_id
        self.normalizer = normalizer or SentencePieceNormalizer()
        self.byte_fallback = byte_fallback
        self.float32 = float32
        self.unk_surface = unk_surface
        self._id: dict[str, int] = {}
        for i, p in enumerate(self.pieces):
            if not p:
                raise ValueError(f"piece {i} is empty; every piece needs at least one character")
            if p in self._id:
                raise ValueError(f"piece {p!r} is listed twice (ids {self._id[p]} and {i}); keep one")
            self._id[p] = i
        normal = [s for s, k in zip(self.scores, kinds) if k == "normal"]
        self.min_score = min(normal, default=0.0)
        max_score = max(normal, default=_FLT_MIN) if not float32 else max([_FLT_MIN, *normal])
        self.unk_score = f32(self.min_score - UNK_PENALTY) if float32 else self.min_score - UNK_PENALTY
        # piece -> (id, score) for the pieces that cut text; user-defined ones always win (SentencePiece)
        self._match: dict[str, tuple[int, float]] = {}
        for i, (p, s, k) in enumerate(zip(self.pieces, self.scores, kinds)):
            if k == "normal":
                self._match[p] = (i, s)
            elif k == "user_defined":
                nbytes = len(p.encode("utf-8"))
                self._match[p] = (i, f32(nbytes * max_score) - 0.1 if float32 else nbytes * max_score - 0.1)
        self._longest = max(map(len, self._match), default=1)
        self._bytes: dict[int, int] = {}
        if byte_fallback:
            for i, (p, k) in enumerate(zip(self.pieces, kinds)):
                if k == "byte":
                    self._bytes[_byte_of(p, i)] = i
            if len(self._bytes) != 256:
                raise ValueError(
                    f"byte_fallback needs the 256 pieces <0x00>..<0xFF>, {len(self._bytes)} are there; "
                    "add them or turn byte_fallback off"
                )
        self._cache: dict[str, list[tuple[int, int]]] = {}
        self._no_prefix = dataclasses.replace(self.normalizer, add_dummy_prefix=False)

    # -- the SchemeTokenizer interface ------------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        return len(self.pieces)

    def piece(self, token_id: int) -> str:
        """The piece as the vocabulary writes it (``▁the``)."""
        self._check_id(token_id)
        return self.pieces[token_id]

    @property
    def special_ids(self) -> frozenset[int]:
        """None: a control piece (``<s>``) never comes from a text, and a user-defined piece is a piece
        that always cuts as itself (see :mod:`.scheme`).

        >>> UnigramTokenizer([("<unk>", 0.0), ("<s>", 0.0)], kinds=["unknown", "control"]).special_ids
        frozenset()
        """
        return frozenset()

    def as_bpe(self) -> Tokenizer | None:
        """None: Unigram cuts text by the pieces' scores, with no merges (see :mod:`.scheme`).

        >>> UnigramTokenizer([("<unk>", 0.0)]).as_bpe() is None
        True
        """
        return None

    def score(self, token_id: int) -> float:
        """The piece's score, its log probability."""
        self._check_id(token_id)
        return self.scores[token_id]

    def encode(self, text: str) -> list[int]:
        return [t for t, _, _ in self._tokens(text)[0]]

    def encode_pieces(self, text: str) -> list[str]:
        """The pieces of ``text`` as ``sentencepiece`` lists them: a run of unknown characters is one token,
        shown as the (normalized) characters it covers."""
        tokens, norm = self._tokens(text)
        return [norm.text[i:j] if t == self.unk_id else self.pieces[t] for t, i, j in tokens]

    def token_spans(self, text: str) -> TokenSpans:
        tokens, norm = self._tokens(text)
        starts = [0]
        for c in text:
            starts.append(starts[-1] + len(c.encode("utf-8", "surrogatepass")))
        data = text.encode("utf-8", "surrogatepass")
        out = TokenSpans()
        k = 0
        while k < len(tokens):
            t, i, j = tokens[k]
            a, b = norm.offsets[i], norm.offsets[j]
            if self.byte_fallback and self.kinds[t] == "byte":  # one char as bytes: share its span
                run = k
                while run < len(tokens) and tokens[run][1:] == (i, j):
                    run += 1
                for m in range(k, run):
                    lo = min(starts[a] + m - k, starts[b])
                    hi = min(lo + 1, starts[b]) if m < run - 1 else starts[b]
                    out.append(TokenSpan(tokens[m][0], data[lo:hi], a, b, lo, hi))
                k = run
                continue
            out.append(TokenSpan(t, data[starts[a] : starts[b]], a, b, starts[a], starts[b]))
            k += 1
        return out

    def decode(self, ids: Iterable[int]) -> str:
        """The text of ``ids`` as SentencePiece decodes it: ``▁`` is a space, the first one dropped."""
        return self.incremental_decoder().decode(ids, final=True)

    def incremental_decoder(self) -> UnigramDecoder:
        """A decoder of ids given in blocks, whose texts joined are :meth:`decode` of them all (see
        :mod:`.streaming`)."""
        return UnigramDecoder(self)

    # -- what the UI shows ------------------------------------------------------------------------------

    def lattice(self, word: str) -> Lattice:
        """Every segmentation of ``word`` (normalized first, so ``hug`` is ``▁hug``) and the best one."""
        norm = self.normalizer.normalize(word).text
        scores = {p: s for p, (_, s) in self._match.items()}
        return lattice(norm, scores, max_piece_length=self._longest)

    def lost(self, text: str) -> Loss:
        """What ``decode(encode(text))`` loses of ``text`` (:class:`~.scheme.Loss`).

        ``unknown``: the spans of the text cut as ``<unk>`` (a run of unknown characters is one span; with
        ``byte_fallback`` nothing is unknown); ``spacing``: runs of spaces normalization removed (at the ends,
        or squeezed to one); ``changed``: other characters normalization changed (NFKC: ``ﬁ`` is ``fi``).
        """
        tokens, norm = self._tokens(text)
        unknown = tuple((norm.offsets[i], norm.offsets[j]) for t, i, j in tokens if t == self.unk_id)
        plain = self._no_prefix.normalize(text)
        space = SPACE if self.normalizer.escape_whitespaces else " "
        became = [""] * len(text)
        for c, k in zip(plain.text, plain.offsets):
            became[k] += " " if c == space else c
        spacing = changed = 0
        for k, c in enumerate(text):
            if c == " " and not became[k]:
                spacing += k == 0 or text[k - 1] != " " or bool(became[k - 1])
            elif became[k] != c:
                changed += 1
        decoded = self.decode(t for t, _, _ in tokens)
        return Loss(decoded == text, decoded, unknown, spacing, changed)

    # -- the work -------------------------------------------------------------------------------------------

    def _check_id(self, token_id: object) -> None:
        if (
            isinstance(token_id, bool)
            or not isinstance(token_id, int)
            or not 0 <= token_id < len(self.pieces)
        ):
            raise ValueError(
                f"token id {token_id!r} is not in the vocabulary (vocab size {len(self.pieces)}, ids "
                f"0..{len(self.pieces) - 1})"
            )

    def _tokens(self, text: str) -> tuple[list[tuple[int, int, int]], Normalized]:
        """(id, start, end) over the normalized text, unknown runs fused or cut into bytes; and the text."""
        if not isinstance(text, str):
            raise ValueError(f"the text to encode must be a string, not {type(text).__name__}")
        norm = self.normalizer.normalize(text)
        if self.float32:
            path = self._viterbi32(norm.text)
        else:
            path = []
            s = norm.text
            cuts = [i for i, c in enumerate(s) if c == SPACE and i > 0] if SPACE in s else []
            begin = 0
            for end in [*cuts, len(s)]:
                word = s[begin:end]
                cached = self._cache.get(word)
                if cached is None:
                    cached = self._viterbi64(word)
                    if len(self._cache) > 100_000:
                        self._cache.clear()
                    if len(word) <= 64:
                        self._cache[word] = cached
                path += [(t, i + begin) for t, i in cached]
                begin = end
        out: list[tuple[int, int, int]] = []
        ends = [i for _, i in path[1:]] + [len(norm.text)]
        for (t, i), j in zip(path, ends):
            if t == self.unk_id:
                if self.byte_fallback:
                    for b in norm.text[i:j].encode("utf-8"):
                        out.append((self._bytes[b], i, j))
                    continue
                if out and out[-1][0] == self.unk_id:
                    out[-1] = (t, out[-1][1], j)
                    continue
            out.append((t, i, j))
        return out, norm

    def _viterbi64(self, s: str) -> list[tuple[int, int]]:
        """The best path over ``s`` as (id, start) pairs, scores added in 64-bit floats."""
        n = len(s)
        match = self._match
        longest = self._longest
        best: list[float | None] = [0.0] + [None] * n
        back: list[tuple[int, int]] = [(0, 0)] * (n + 1)
        for start in range(n):
            here = best[start]
            if here is None:  # never: each position is reached from the one before (by <unk> at worst)
                continue
            single = False
            for end in range(start + 1, min(n, start + longest) + 1):
                hit = match.get(s[start:end])
                if hit is not None:
                    total = here + hit[1]
                    known = best[end]
                    if known is None or total > known:
                        best[end] = total
                        back[end] = (hit[0], start)
                    if end == start + 1:
                        single = True
            if not single:
                total = here + self.unk_score
                known = best[start + 1]
                if known is None or total > known:
                    best[start + 1] = total
                    back[start + 1] = (self.unk_id, start)
        return _backtrack(back, n)

    def _viterbi32(self, s: str) -> list[tuple[int, int]]:
        """The best path as ``sentencepiece`` finds it (EncodeOptimized): 32-bit float sums."""
        n = len(s)
        match = self._match
        longest = self._longest
        pack, unpack = _F32.pack, _F32.unpack
        best: list[float | None] = [0.0] + [None] * n
        back: list[tuple[int, int]] = [(0, 0)] * (n + 1)
        for start in range(n):
            here = best[start]
            if here is None:  # never: each position is reached from the one before (by <unk> at worst)
                continue
            single = False
            for end in range(start + 1, min(n, start + longest) + 1):
                hit = match.get(s[start:end])
                if hit is not None:
                    total = here + hit[1]
                    if self.kinds[hit[0]] != "user_defined":
                        total = unpack(pack(total))[0]
                    known = best[end]
                    if known is None or total > known:
                        best[end] = unpack(pack(total))[0]
                        back[end] = (hit[0], start)
                    if end == start + 1:
                        single = True
            if not single:
                total = unpack(pack(here + self.unk_score))[0]
                known = best[start + 1]
                if known is None or total > known:
                    best[start + 1] = total
                    back[start + 1] = (self.unk_id, start)
        return _backtrack(back, n)


def _backtrack(back: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    path = []
    end = n
    while end > 0:
        t, start = back[end]
        path.append((t, start))
        end = start
    path.reverse()
    return path


def _byte_of(piece: str, i: int) -> int:
    """The byte a ``<0xNN>`` piece stands for."""
    if len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">"):
        try:
            return int(piece[3:5], 16)
        except ValueError:
            pass
    raise ValueError(f"byte piece {i} is {piece!r}; byte pieces are written <0x00>..<0xFF>")


class UnigramDecoder:
    """:meth:`UnigramTokenizer.decode` a block of ids at a time.  A run of byte pieces (``<0xE7>``) is
    UTF-8 with U+FFFD for an invalid sequence, decoded as it comes (a run that goes on into the next
    block waits for it); the first piece loses its ``▁``, as SentencePiece's decoder does.

    >>> tok = UnigramTokenizer([("<unk>", 0.0), ("▁hi", -1.0), ("<0xE7>", -2.0), ("<0x81>", -2.0),
    ...                         ("<0xAF>", -2.0)], kinds=["unknown", "normal", "byte", "byte", "byte"])
    >>> decoder = tok.incremental_decoder()
    >>> [decoder.decode([1, 2, 3]), decoder.decode([4, 1], final=True)]
    ['hi', '灯 hi']
    """

    def __init__(self, tok: UnigramTokenizer) -> None:
        self.tok = tok
        self.utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self.in_bytes = False  # the last id was a byte piece: its run may go on
        self.text_empty = True
        self.bos = True
        self.bos_seen = False

    def decode(self, ids: Iterable[int], final: bool = False) -> str:
        tok = self.tok
        norm = tok.normalizer
        out: list[str] = []
        run = bytearray()  # this block's bytes of the run of byte pieces
        in_bytes, text_empty, bos, bos_seen = self.in_bytes, self.text_empty, self.bos, self.bos_seen
        for i in ids:
            tok._check_id(i)
            kind = tok.kinds[i]
            if kind == "byte":
                run.append(_byte_of(tok.pieces[i], i))
                in_bytes = True
                continue
            if in_bytes:
                out.append(self.utf8.decode(bytes(run), final=True))
                text_empty = in_bytes = False
                run.clear()
            if bos_seen or not text_empty:
                bos = False
            bos_seen = False
            if kind == "control":
                continue
            if kind == "unknown":
                out.append(tok.unk_surface)
                text_empty = text_empty and not tok.unk_surface
                continue
            piece = tok.pieces[i]
            if bos and (norm.add_dummy_prefix or norm.remove_extra_whitespaces) and piece.startswith(SPACE):
                piece = piece[1:]
                bos_seen = not norm.remove_extra_whitespaces
            decoded = piece.replace(SPACE, " ")
            out.append(decoded)
            text_empty = text_empty and not decoded
        if in_bytes:
            out.append(self.utf8.decode(bytes(run), final=final))
        self.in_bytes, self.text_empty, self.bos, self.bos_seen = (
            in_bytes and not final,
            text_empty,
            bos,
            bos_seen,
        )
        return "".join(out)
