"""A tokenizer's health: the vocabulary entries that no text makes, that a text never uses, and more.

:func:`check_health` looks at every entry of any scheme's vocabulary (byte-level BPE, GPT-2's and tiktoken's
files included, WordPiece, Unigram) and returns a :class:`Health`: for each kind of finding
(:data:`FINDINGS`) a tuple of :class:`Finding` records, each with the token's id, its bytes (what it
stands for in a text: WordPiece's ``##ing`` is ``ing``, Unigram's ``▁the`` is `` the``) and why.

- **unreachable**: no text encodes to the token (the glitch tokens' home). Byte-level BPE: the
  token's text encodes otherwise (``encode(decode(t)) != [t]``): an earlier merge takes some of its
  bytes first (the finding names it), or the split pattern cuts its text apart, or (a token that is
  not whole characters) its bytes encode otherwise, or it is a byte UTF-8 never uses (0xC0, 0xC1,
  0xF5-0xFF). WordPiece: a piece the greedy longest match never picks (its text holds punctuation or
  white space, which the pre-tokenizer cuts off; a ``##`` piece no first piece can end before).
  Unigram: a piece whose own text Viterbi cuts otherwise, as ``sentencepiece`` does when it encodes
  the piece (with no ``▁`` added in front).
- **unused**: not in the encoding of a reference text (the training text, or one given).
- **partial_utf8**: tokens that are not whole UTF-8 characters (byte-level BPE, Unigram's ``<0xE7>``).
- **longest**: the :data:`LONGEST` longest tokens, in bytes.
- **special_from_text**: special tokens that a plain text holding their string encodes to
  (``<|endoftext|>`` typed by a user; use ``encode_ordinary`` to keep it text).
- **duplicates**: tokens whose text :data:`NORMALIZATION` makes equal to another token's (``ﬁ``
  and ``fi``).

>>> from bpe_core.tokenizer import Tokenizer
>>> vocab = {i: bytes([i]) for i in range(256)} | {256: b"bc", 257: b"ab", 258: b"abc"}
>>> tok = Tokenizer(vocab, [(98, 99), (97, 98), (257, 99)])
>>> report = check_health(tok, text="abc ab")
>>> [(f.id, f.token) for f in report.unreachable if f.id > 255]
[(258, b'abc')]
>>> print(report.unreachable[-1].why)
its bytes encode as 'a' 'bc': merge 1 ('b' + 'c') takes 'bc' before merge 3 ('ab' + 'c') can make it
>>> report.ids()["unused"][-3:]
[254, 255, 258]
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections import defaultdict
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Final, Literal

from ..pretokenizer import excerpt
from ..tokenizer import SchemeTokenizer, Tokenizer, UnigramTokenizer, WordPieceTokenizer
from ..tokenizer.unigram_normalizer import SPACE
from ..tokenizer.wordpiece_words import words

FINDINGS = ("unreachable", "unused", "partial_utf8", "longest", "special_from_text", "duplicates")
"""The kinds of finding, in the order a report lists them."""
LONGEST = 20
"""How many of the longest tokens a report lists."""
NORMALIZATION: Final[Literal["NFKC"]] = "NFKC"
"""The Unicode normalization that makes two tokens duplicates (NFKC: ``ﬁ`` is ``fi``, ``Ａ`` is ``A``)."""
NEVER_UTF8 = frozenset([0xC0, 0xC1, *range(0xF5, 0x100)])
"""The bytes that no UTF-8 text holds."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One vocabulary entry found: its ``id``, ``piece`` (as its vocabulary writes it), ``token`` (the
    bytes it stands for in a text) and ``why``, in words."""

    kind: str
    id: int
    piece: str
    token: bytes
    why: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Health:
    """What :func:`check_health` found, by kind (:data:`FINDINGS`); ``reference_tokens`` is the length of
    the reference text's encoding (None: no text was given, and ``unused`` is empty)."""

    scheme: str
    vocab_size: int
    reference_tokens: int | None
    unreachable: tuple[Finding, ...] = ()
    unused: tuple[Finding, ...] = ()
    partial_utf8: tuple[Finding, ...] = ()
    longest: tuple[Finding, ...] = ()
    special_from_text: tuple[Finding, ...] = ()
    duplicates: tuple[Finding, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def of(self, kind: str) -> tuple[Finding, ...]:
        """The findings of one kind (one of :data:`FINDINGS`)."""
        if kind not in FINDINGS:
            raise ValueError(f"{kind!r} is not a kind of finding; use one of {', '.join(FINDINGS)}")
        found: tuple[Finding, ...] = getattr(self, kind)
        return found

    def ids(self) -> dict[str, list[int]]:
        """Each kind's ids, in the order found (the CLI's JSON)."""
        return {kind: [f.id for f in self.of(kind)] for kind in FINDINGS}

    def findings(self) -> Iterator[Finding]:
        """Every finding, kind by kind."""
        for kind in FINDINGS:
            yield from self.of(kind)


def check_health(tok: SchemeTokenizer, *, text: str | None = None, longest: int = LONGEST) -> Health:
    """The findings of every kind for ``tok`` (see the module docstring); ``text`` is the reference
    text for ``unused``, ``longest`` how many of the longest tokens to list."""
    if isinstance(longest, bool) or not isinstance(longest, int) or longest < 0:
        raise ValueError(f"longest must be a whole number of at least 0, not {longest!r}")
    if text is not None and not isinstance(text, str):
        raise ValueError(f"the reference text must be a string, not {type(text).__name__}")
    entries = _entries(tok)
    special = tok.special_ids
    unreachable = tuple(_unreachable(tok))
    unused: tuple[Finding, ...] = ()
    reference_tokens = None
    if text is not None:
        ids = tok.encode(text)
        reference_tokens = len(ids)
        unused = unused_tokens(tok, ids, unreachable=[f.id for f in unreachable], entries=entries)
    by_length = sorted(((i, d) for i, d in entries if i not in special), key=lambda e: (-len(e[1]), e[0]))
    return Health(
        scheme=tok.scheme,
        vocab_size=tok.vocab_size,
        reference_tokens=reference_tokens,
        unreachable=unreachable,
        unused=unused,
        partial_utf8=tuple(_partial(tok, entries)),
        longest=tuple(_finding("longest", tok, i, d, _length_why(d)) for i, d in by_length[:longest]),
        special_from_text=tuple(_special_from_text(tok)),
        duplicates=tuple(_duplicates(tok, entries)),
    )


def unused_tokens(
    tok: SchemeTokenizer,
    ids: Sequence[int],
    *,
    unreachable: Collection[int] = (),
    entries: list[tuple[int, bytes]] | None = None,
) -> tuple[Finding, ...]:
    """The tokens (special ones aside) that are not among ``ids``, a reference text's encoding; the
    ``unreachable`` ids say so in their reason (a page that has the text's ids and :func:`check_health`'s
    findings already asks only this).

    >>> from bpe_core.tokenizer import Tokenizer
    >>> tok = Tokenizer({i: bytes([i]) for i in range(256)} | {256: b"ab"}, [(97, 98)])
    >>> for f in unused_tokens(tok, tok.encode("xyz"), unreachable=[255])[-2:]:
    ...     print(f.id, f.why)
    255 not among the 3 tokens of the reference text; no text makes it (unreachable)
    256 not among the 3 tokens of the reference text
    """
    special, used, cannot = tok.special_ids, set(ids), set(unreachable)
    why = f"not among the {len(ids):,} tokens of the reference text"
    return tuple(
        _finding("unused", tok, i, data, why + ("; no text makes it (unreachable)" if i in cannot else ""))
        for i, data in (_entries(tok) if entries is None else entries)
        if i not in used and i not in special
    )


# -- what each entry stands for -------------------------------------------------------------------------


def _entries(tok: SchemeTokenizer) -> list[tuple[int, bytes]]:
    """(id, the bytes it stands for in a text), in id order."""
    bpe = tok.as_bpe()
    if bpe is not None:
        return sorted(bpe.vocab.items())
    if isinstance(tok, WordPieceTokenizer):
        return [(i, _wordpiece_text(tok, p).encode("utf-8")) for i, p in sorted(tok.tokens.items())]
    if isinstance(tok, UnigramTokenizer):
        return [(i, _unigram_bytes(tok, i)) for i in range(tok.vocab_size)]
    return [(i, tok.piece(i).encode("utf-8", "surrogatepass")) for i in range(tok.vocab_size)]


def _wordpiece_text(tok: WordPieceTokenizer, piece: str) -> str:
    if piece.startswith(tok.prefix) and piece != tok.prefix and piece not in tok.special_tokens:
        return piece[len(tok.prefix) :]
    return piece


def _unigram_bytes(tok: UnigramTokenizer, i: int) -> bytes:
    piece = tok.pieces[i]
    if tok.kinds[i] == "byte":
        return bytes([int(piece[3:5], 16)])
    return piece.replace(SPACE, " ").encode("utf-8")


def _finding(kind: str, tok: SchemeTokenizer, i: int, data: bytes, why: str) -> Finding:
    return Finding(kind=kind, id=i, piece=tok.piece(i), token=data, why=why)


def _show(data: bytes) -> str:
    """A token's bytes in quotes, bytes that are not whole characters as escapes."""
    return repr(data.decode("utf-8", "backslashreplace"))


def _length_why(data: bytes) -> str:
    chars = len(data.decode("utf-8", "replace"))
    return f"{len(data)} bytes" + (f", {chars} characters" if _whole(data) else ", not whole characters")


def _whole(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# -- unreachable ----------------------------------------------------------------------------------------


def _unreachable(tok: SchemeTokenizer) -> Iterator[Finding]:
    bpe = tok.as_bpe()
    if bpe is not None:
        yield from _bpe_unreachable(bpe)
    elif isinstance(tok, WordPieceTokenizer):
        yield from _wordpiece_unreachable(tok)
    elif isinstance(tok, UnigramTokenizer):
        yield from _unigram_unreachable(tok)
    else:  # the character scheme: each character encodes as itself
        for i in range(tok.vocab_size):
            piece = tok.piece(i)
            if i not in tok.special_ids and tok.encode(piece) != [i] and len(piece) == 1:
                yield _finding(
                    "unreachable", tok, i, piece.encode("utf-8"), "its character encodes otherwise"
                )


def _bpe_unreachable(tok: Tokenizer) -> Iterator[Finding]:
    special = tok.special_ids
    plain = tok.without_special_tokens()
    split = plain.pretokenizer.split
    bpe = tok._bpe  # one chunk's bytes to ids: the encoder's own, without the text around it
    for i, data in sorted(tok.vocab.items()):
        if i in special:
            continue
        if len(data) == 1:
            if data[0] in NEVER_UTF8:
                yield _finding("unreachable", tok, i, data, f"byte 0x{data[0]:02X} is in no UTF-8 text")
            continue
        ids = bpe(data)
        if ids != [i]:
            yield _finding("unreachable", tok, i, data, _swallowed(tok, i, ids))
            continue
        if _whole(data):
            chunks = split(data.decode("utf-8"))
            if len(chunks) != 1:
                yield _finding(
                    "unreachable",
                    tok,
                    i,
                    data,
                    "the split pattern cuts its text into " + " ".join(repr(c) for c in chunks),
                )


def _swallowed(tok: Tokenizer, token_id: int, ids: list[int]) -> str:
    """Why ``token_id``'s bytes encode as ``ids``: the first merge, replayed on its bytes, that makes a
    token its own merges do not (it takes bytes the token needs)."""
    vocab = tok.vocab
    got = "its bytes encode as " + " ".join(_show(vocab[j]) for j in ids)
    recipe: set[tuple[int, int]] = set()  # (start, id) of each token its merges make, inside it
    stack = [(token_id, 0)]
    while stack:
        j, start = stack.pop()
        step = tok.merge_step_of(j)
        if step is None:
            continue
        recipe.add((start, j))
        a, b = tok.merges[step - 1]
        stack += [(a, start), (b, start + len(vocab[a]))]
    own = tok.merge_step_of(token_id)
    if own is None:
        return f"{got}: no merge makes it"
    ranks = tok.merge_ranks()
    parts = [(tok.byte_ids()[byte], k) for k, byte in enumerate(vocab[token_id])]  # (id, start)
    while len(parts) > 1:
        found = [(ranks.get((x[0], y[0])), k) for k, (x, y) in enumerate(pairwise(parts))]
        rank = min((r for r, _ in found if r is not None), default=None)
        if rank is None:
            break
        made = tok.merge_ids[rank]
        k = next(k for r, k in found if r == rank)
        if (parts[k][1], made) not in recipe:
            a, b = tok.merges[rank]
            x, y = tok.merges[own - 1]
            return (
                f"{got}: merge {rank + 1} ({_show(vocab[a])} + {_show(vocab[b])}) takes "
                f"{_show(vocab[made])} before merge {own} ({_show(vocab[x])} + {_show(vocab[y])}) can make it"
            )
        parts[k : k + 2] = [(made, parts[k][1])]
    return got


def _wordpiece_unreachable(tok: WordPieceTokenizer) -> Iterator[Finding]:
    special = tok.special_ids
    starts = sorted(
        (p for p in tok.vocab if not p.startswith(tok.prefix) and tok.vocab[p] not in special),
        key=lambda p: (len(p), p),
    )
    for i, piece in sorted(tok.tokens.items()):
        if i in special or i == tok.unk_id:
            continue
        data = _wordpiece_text(tok, piece).encode("utf-8")
        why = _wordpiece_why(tok, i, piece, starts)
        if why is not None:
            yield _finding("unreachable", tok, i, data, why)


def _wordpiece_why(tok: WordPieceTokenizer, i: int, piece: str, starts: list[str]) -> str | None:
    """Why no word is cut with ``piece`` (None: some word is)."""
    prefix = tok.prefix
    continues = piece.startswith(prefix) and piece != prefix
    rest = piece[len(prefix) :] if continues else piece
    cut = [w.text for w in words("a" + rest if continues else rest, special_tokens=tok.special_tokens)]
    if len(cut) != 1:
        return "the pre-tokenizer cuts its text into the words " + " ".join(
            repr(w) for w in (cut[1:] if continues and cut[0] == "a" else cut)
        )
    if continues:
        if len(rest) + 1 > tok.max_word_chars:
            return f"a word holding it is longer than max_word_chars ({tok.max_word_chars}): [UNK]"
        for start in starts:  # a first piece that the greedy match ends just before it
            if len(start) + len(rest) <= tok.max_word_chars and tok.word_ids(start + rest) == [
                tok.vocab[start],
                i,
            ]:
                return None
        return "no first piece ends where it starts: a longer piece always takes its first characters"
    if len(piece) > tok.max_word_chars:
        return f"longer than max_word_chars ({tok.max_word_chars}): [UNK]"
    ids = tok.encode(piece)
    if ids == [i]:
        return None
    return "its text is cut as " + " ".join(repr(tok.piece(j)) for j in ids)


def _unigram_unreachable(tok: UnigramTokenizer) -> Iterator[Finding]:
    """A normal piece whose own text (no ``▁`` added in front) Viterbi cuts otherwise; an unused one."""
    bare = UnigramTokenizer(
        list(zip(tok.pieces, tok.scores)),
        unk_id=tok.unk_id,
        kinds=tok.kinds,
        normalizer=dataclasses.replace(
            tok.normalizer, add_dummy_prefix=False, remove_extra_whitespaces=False
        ),
        byte_fallback=tok.byte_fallback,
        float32=tok.float32,
        unk_surface=tok.unk_surface,
    )
    for i, (piece, kind) in enumerate(zip(tok.pieces, tok.kinds)):
        if kind == "unused":
            yield _finding(
                "unreachable", tok, i, _unigram_bytes(tok, i), "its kind is unused: it cuts no text"
            )
        if kind != "normal":
            continue
        ids = bare.encode(piece)
        if ids == [i]:
            continue
        normal = bare.normalizer.normalize(piece).text
        if normal != piece:
            why = f"normalization makes its text {normal!r}"
        else:
            total = sum(bare.unk_score if j == tok.unk_id else tok.scores[j] for j in ids)
            why = (
                f"Viterbi cuts its text as {' '.join(repr(tok.pieces[j]) for j in ids)} "
                f"(score {total:.3f} against its own {tok.scores[i]:.3f})"
            )
        yield _finding("unreachable", tok, i, _unigram_bytes(tok, i), why)


# -- the other findings ---------------------------------------------------------------------------------


def _partial(tok: SchemeTokenizer, entries: list[tuple[int, bytes]]) -> Iterator[Finding]:
    special = tok.special_ids
    for i, data in entries:
        if i in special or _whole(data):
            continue
        yield _finding("partial_utf8", tok, i, data, _utf8_why(data))


def _utf8_why(data: bytes) -> str:
    """What of ``data`` is not whole UTF-8 characters.

    >>> _utf8_why(b"\\x9c\\x80")
    'starts inside a character (continuation byte 0x9C)'
    >>> _utf8_why(b" \\xe6\\x9c"), _utf8_why(b"\\xff")
    ('ends inside a character (0xE6 starts one of 3 bytes)', 'byte 0xFF is in no UTF-8 text')
    """
    bad = [b for b in data if b in NEVER_UTF8]
    if bad:
        return f"byte 0x{bad[0]:02X} is in no UTF-8 text"
    if 0x80 <= data[0] < 0xC0:
        return f"starts inside a character (continuation byte 0x{data[0]:02X})"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        lead = data[exc.start]
        size = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        if exc.reason == "unexpected end of data":
            return f"ends inside a character (0x{lead:02X} starts one of {size} bytes)"
        return f"bytes {excerpt(data[exc.start : exc.end])} at {exc.start} are no character ({exc.reason})"
    return "whole characters"


def _special_from_text(tok: SchemeTokenizer) -> Iterator[Finding]:
    bpe = tok.as_bpe()
    if bpe is not None:
        specials = list(bpe.special_tokens.items())
        why = "written in any text, {s} encodes as this special token (encode_ordinary keeps it text)"
    elif isinstance(tok, WordPieceTokenizer):
        specials = [(s, tok.vocab[s]) for s in tok.special_tokens]
        why = "the pre-tokenizer cuts {s} out of any text as this special token"
    elif isinstance(tok, UnigramTokenizer):
        specials = [(p, i) for i, (p, k) in enumerate(zip(tok.pieces, tok.kinds)) if k == "user_defined"]
        why = "a user-defined piece: {s} in any text is cut as this piece"
    else:
        return
    for s, i in specials:
        if tok.encode(s) == [i]:
            yield _finding("special_from_text", tok, i, s.encode("utf-8"), why.format(s=repr(s)))


def _duplicates(tok: SchemeTokenizer, entries: list[tuple[int, bytes]]) -> Iterator[Finding]:
    special = tok.special_ids
    groups: defaultdict[str, list[tuple[int, bytes]]] = defaultdict(list)
    for i, data in entries:
        if i in special or not _whole(data):
            continue
        key = unicodedata.normalize(NORMALIZATION, data.decode("utf-8"))
        if isinstance(tok, WordPieceTokenizer) and tok.tokens[i] != data.decode("utf-8"):
            key = tok.prefix + key  # a continuation piece is another thing than a first one
        if isinstance(tok, UnigramTokenizer) and tok.kinds[i] == "byte":
            continue  # <0x41> and A: the byte piece stands for its byte, on purpose
        groups[key].append((i, data))
    for key, members in groups.items():
        if len(members) < 2:
            continue
        for i, data in members:
            others = ", ".join(str(j) for j, _ in members if j != i)
            yield _finding(
                "duplicates", tok, i, data, f"{NORMALIZATION} makes it {key!r}, as it makes id {others}"
            )
