"""tiktoken's rank file (``*.tiktoken``): one ``BASE64TOKEN RANK`` per line.

A rank is both the token's id and its merge priority: tiktoken joins, among
adjacent parts, the pair whose concatenation has the lowest rank.  The file
holds no merges, no special tokens and no split pattern:

- merges are recovered: each multi-byte token, in rank order, is split by
  running BPE on its bytes with only lower-ranked tokens; the two parts left
  are its merge (:func:`merges_from_ranks`);
- special tokens are passed by the caller (``special_tokens={"<|endoftext|>":
  100257}``); their ids are the gaps in the ranks, which are allowed here, or
  ids above the last rank, below 2**31 like the ranks;
- the pattern is passed by the caller (default ``gpt2``; cl100k files need
  ``cl100k``, o200k files ``o200k``).

A token longer than :data:`MAX_TOKEN_BYTES` is refused when read.

Writing requires what tiktoken assumes: merges in the order of the ids they
make, one merge per token, every token a byte or a merge result.

>>> vocab = {b: bytes([b]) for b in range(256)} | {256: b"ab", 257: b"abc"}
>>> text = tiktoken_text(TokenizerData(vocab, [(97, 98), (256, 99)], {}, "gpt2"))
>>> text.splitlines()[97], text.splitlines()[-1]
('YQ== 97', 'YWJj 257')
>>> read_tiktoken_text(text.encode(), "x.tiktoken").merges
[(97, 98), (256, 99)]
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Mapping
from functools import partial
from itertools import pairwise
from operator import itemgetter, lt

from ..pretokenizer import excerpt
from .data import TokenizerData, TokenizerLike, merge_results
from .safe_io import MAX_FILE_BYTES, TokenizerFileError, read_bytes

TOKENIZER_TIKTOKEN = "tokenizer.tiktoken"
MAX_TOKEN_BYTES = 256
MAX_ID = 2**31 - 1
"""The largest rank, and special-token id, read (tiktoken and HF ``tokenizers`` keep ids in 32 bits)."""
"""The longest token read from a rank file (real ones are at most 128 bytes).  Recovering a token's
merge runs BPE on it, which costs up to its length squared, so this keeps loading linear in the
file's size (about a second per MB at worst)."""


# ----- reading -----
def read_tiktoken(
    path: str | os.PathLike[str],
    *,
    special_tokens: Mapping[str, int] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
) -> TokenizerData:
    """Read a ``.tiktoken`` rank file; ``pattern`` is None (the file does not say)."""
    return read_tiktoken_text(read_bytes(path, max_bytes=max_bytes), path, special_tokens=special_tokens)


def read_tiktoken_text(
    data: bytes, path: str | os.PathLike[str], *, special_tokens: Mapping[str, int] | None = None
) -> TokenizerData:
    """Like :func:`read_tiktoken` from the file's bytes (``path`` labels errors)."""
    ranks = _clean_ranks(data)
    if ranks is None:  # something is wrong: the line-by-line reading below says what and where
        ranks, line_of_rank = _ranks_line_by_line(data, path)
    else:
        line_of_rank = _LinesOfRanks(data)
    return _tokenizer_data(ranks, line_of_rank, path, special_tokens)


def _clean_ranks(data: bytes) -> dict[bytes, int] | None:
    """The ranks of a well-formed file, read with a few whole-file calls; None at the first doubt.

    A real file has a million lines: this reads one in about a microsecond, where reading them one
    by one (:func:`_ranks_line_by_line`, which names the bad line) takes several.

    >>> _clean_ranks(b"YQ== 0\\nYg== 1\\n"), _clean_ranks(b"YQ== 0\\nYQ== 1\\n")
    ({b'a': 0, b'b': 1}, None)
    """
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    data = data.removesuffix(b"\n")
    lines = data.count(b"\n") + 1
    # Each line one base64 token, one space, one rank: with the token and rank characters deleted, a
    # clean file is " \n" line after line (and no line has an empty field: 2 fields per line).
    if data.translate(None, _TOKEN_AND_RANK_CHARS) != b" \n" * (lines - 1) + b" ":
        return None
    fields = data.split()
    if len(fields) != 2 * lines:
        return None
    b64s, rank_texts = fields[0::2], fields[1::2]
    if not b"".join(rank_texts).isdigit() or max(map(len, rank_texts)) > 10:
        return None
    decode = partial(binascii.a2b_base64, strict_mode=True)
    try:
        tokens = list(map(decode, b64s))
    except (binascii.Error, ValueError):
        return None
    ids = list(map(int, rank_texts))
    if max(ids) >= 2**31 or min(map(len, tokens)) == 0:
        return None
    if max(map(len, tokens)) > MAX_TOKEN_BYTES:
        return None
    ranks = dict(zip(tokens, ids))
    if len(ranks) != len(tokens) or len(set(ids)) != len(ids):
        return None
    return ranks


_TOKEN_AND_RANK_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


class _LinesOfRanks(dict[int, int]):
    """``rank -> line number``, found only when an error message needs one (a clean file never asks)."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self._data = data

    def __missing__(self, rank: int) -> int:
        self.update(_ranks_line_by_line(self._data, "")[1])
        return super().__getitem__(rank)


def _ranks_line_by_line(data: bytes, path: str | os.PathLike[str]) -> tuple[dict[bytes, int], dict[int, int]]:
    """The ranks and the line of each rank, one line at a time; a bad line is a TokenizerFileError."""
    ranks: dict[bytes, int] = {}
    line_of_rank: dict[int, int] = {}
    for n, line in enumerate(data.split(b"\n"), start=1):
        line = line.strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) != 2:
            raise TokenizerFileError(path, f"line {n}", f"{_show(line)} is not 'BASE64TOKEN RANK'")
        b64, rank_text = fields
        try:
            token = base64.b64decode(b64, validate=True)
        except (binascii.Error, ValueError):
            raise TokenizerFileError(path, f"line {n}", f"{_show(b64)} is not base64") from None
        if not token:
            raise TokenizerFileError(path, f"line {n}", "the token is empty")
        if len(token) > MAX_TOKEN_BYTES:
            raise TokenizerFileError(
                path,
                f"line {n}",
                f"the token {excerpt(token)} is longer than {MAX_TOKEN_BYTES} bytes, the most MergeScope "
                "reads from a .tiktoken file (real ones are at most 128)",
            )
        if not rank_text.isdigit() or len(rank_text) > 10 or int(rank_text) > MAX_ID:
            raise TokenizerFileError(
                path, f"line {n}", f"rank {_show(rank_text)} is not a whole number from 0 to {MAX_ID}"
            )
        rank = int(rank_text)
        if token in ranks:
            raise TokenizerFileError(
                path,
                f"line {n}",
                f"token {excerpt(token)} already has rank {ranks[token]} (line {line_of_rank[ranks[token]]})",
            )
        if rank in line_of_rank:
            raise TokenizerFileError(
                path, f"line {n}", f"rank {rank} is already used on line {line_of_rank[rank]}"
            )
        ranks[token] = rank
        line_of_rank[rank] = n
    return ranks, line_of_rank


def _tokenizer_data(
    ranks: dict[bytes, int],
    line_of_rank: Mapping[int, int],
    path: str | os.PathLike[str],
    special_tokens: Mapping[str, int] | None,
) -> TokenizerData:
    """The checks on the whole file, the merges, and the :class:`TokenizerData`."""
    if not ranks:
        raise TokenizerFileError(path, "", "has no tokens")
    for b in range(256):
        if bytes([b]) not in ranks:
            raise TokenizerFileError(
                path, "", f"has no rank for the single byte 0x{b:02X}; byte-level BPE needs all 256"
            )
    specials = dict(special_tokens or {})
    used = set(ranks.values()) if specials else set()
    for s, i in specials.items():
        if not isinstance(s, str) or not s or isinstance(i, bool) or not isinstance(i, int) or i < 0:
            raise ValueError(
                f"special token {excerpt(s)}: {excerpt(i)} must be a non-empty string with a non-negative "
                "int id"
            )
        if i > MAX_ID:
            raise ValueError(
                f"special token {excerpt(s)}: id {i:,} is out of range; ids (like ranks) run from 0 to "
                f"{MAX_ID:,}: give an id in a gap of the ranks or just above the last one"
            )
        if i in used:
            raise TokenizerFileError(
                path,
                f"line {line_of_rank[i]}",
                f"rank {i} is also the id given for special token {excerpt(s)}; pick a free id",
            )
    try:
        pairs = merge_ranks(ranks)
    except ValueError as exc:
        token = exc.args[1]
        raise TokenizerFileError(path, f"line {line_of_rank[ranks[token]]}", exc.args[0]) from None
    vocab = dict(zip(ranks.values(), ranks, strict=True))
    for s, i in specials.items():
        vocab[i] = s.encode("utf-8")
    # merge k makes the k-th multi-byte token in rank order: merge_ranks skips only single bytes
    made = sorted(rank for token, rank in ranks.items() if len(token) > 1)
    return TokenizerData(vocab, pairs, specials, None, merge_ids=made)


def merges_from_ranks(ranks: Mapping[bytes, int]) -> list[tuple[bytes, bytes]]:
    """The merge that makes each multi-byte token, in rank order.

    BPE with the lower-ranked tokens leaves two parts, which are its merge.
    If it does not (a token tiktoken reaches only through a higher-ranked
    part), the split whose parts have the lowest ranks is used.  A token no
    split can make is a ``ValueError(message, token)``.  Only splits whose
    parts are no longer than the longest token are tried, so a long token that
    nothing can make is refused at once.

    >>> merges_from_ranks({b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"abc": 4})
    [(b'b', b'c'), (b'a', b'bc')]
    """
    token_of = {rank: token for token, rank in ranks.items()}
    return [(token_of[a], token_of[b]) for a, b in merge_ranks(ranks)]


def merge_ranks(ranks: Mapping[bytes, int]) -> list[tuple[int, int]]:
    """:func:`merges_from_ranks` as the ranks of each merge's two parts (what a tokenizer keeps),
    without looking the parts up again: a 2-byte token's parts are two bytes, a 3-byte token's are
    the ranks BPE just compared.

    >>> merge_ranks({b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"abc": 4})
    [(1, 2), (0, 3)]
    """
    longest = max(map(len, ranks), default=0)
    get = ranks.get
    byte_rank = [get(bytes([b]), _NO_RANK) for b in range(256)]
    tokens, rank_list = list(ranks), list(ranks.values())
    if not all(map(lt, rank_list, rank_list[1:])):  # a file is usually in rank order already
        tokens.sort(key=ranks.__getitem__)
        rank_list = list(map(ranks.__getitem__, tokens))
    # What the 2- and 3-byte shortcuts need, for every token with whole-list calls: its length,
    # the ranks of its first and last byte, and of its first and last two bytes (read from a
    # table of the 65,536 two-byte strings, which stays in the cache where the dict does not).
    pair_rank = [_NO_RANK] * 65536
    for token in [t for t in tokens if len(t) == 2]:
        pair_rank[int.from_bytes(token)] = ranks[token]
    lengths = map(len, tokens)
    firsts = map(byte_rank.__getitem__, map(_FIRST_BYTE, tokens))
    lasts = map(byte_rank.__getitem__, map(_LAST_BYTE, tokens))
    heads = map(pair_rank.__getitem__, map(int.from_bytes, map(_HEAD, tokens)))  # big-endian: x << 8 | y
    tails = map(pair_rank.__getitem__, map(int.from_bytes, map(_TAIL, tokens)))
    out: list[tuple[int, int]] = []
    add = out.append
    for token, n, rank, first, last, head, tail in zip(
        tokens, lengths, rank_list, firsts, lasts, heads, tails
    ):
        if n == 2:
            if first < rank and last < rank:  # BPE has nothing to choose
                add((first, last))
                continue
        elif n == 3:  # _bpe's one choice, without building its lists (most tokens of a big file)
            left = head if head < rank else _NO_RANK
            right = tail if tail < rank else _NO_RANK
            if left != _NO_RANK or right != _NO_RANK:
                add((left, last) if left <= right else (first, right))
                continue
        elif n < 2:
            continue
        add(_merge_of(token, rank, ranks, longest))
    return out


def _merge_of(token: bytes, rank: int, ranks: Mapping[bytes, int], longest: int) -> tuple[int, int]:
    """The ranks of the two parts that make ``token``: BPE's two parts, else the split whose parts
    have the lowest ranks (see :func:`merges_from_ranks`)."""
    n = len(token)
    parts = _bpe(token, ranks, rank) if n > 2 else []
    if len(parts) != 2:
        splits = [
            (max(ranks[token[:k]], ranks[token[k:]]), k)
            for k in range(max(1, n - longest), min(n - 1, longest) + 1)
            if token[:k] in ranks and token[k:] in ranks
        ]
        if not splits:
            raise ValueError(
                f"token {excerpt(token)} (rank {rank}) cannot be made by joining two other tokens", token
            )
        k = min(splits)[1]
        parts = [token[:k], token[k:]]
    return ranks[parts[0]], ranks[parts[1]]


_FIRST_BYTE, _LAST_BYTE = itemgetter(0), itemgetter(-1)
_HEAD, _TAIL = itemgetter(slice(0, 2)), itemgetter(slice(-2, None))
_NO_RANK = 1 << 62


def _bpe(token: bytes, ranks: Mapping[bytes, int], max_rank: int) -> list[bytes]:
    """``token`` after tiktoken's BPE with the tokens ranked below ``max_rank``: join the adjacent
    pair of lowest rank (the leftmost of equals) until none is left.

    Each join recomputes only the two pairs beside it, so a token of ``n`` bytes
    costs ``n`` joins, each a C-level scan of at most ``n`` ranks.

    >>> _bpe(b"aaab", {b"a": 0, b"b": 1, b"aa": 2, b"ab": 3, b"aab": 4}, 4)
    [b'aa', b'ab']
    """
    parts = [token[i : i + 1] for i in range(len(token))]

    def rank_of(left: bytes, right: bytes) -> int:
        r = ranks.get(left + right)
        return r if r is not None and r < max_rank else _NO_RANK

    pair_ranks = [rank_of(a, b) for a, b in pairwise(parts)]
    while len(parts) > 2:
        best = min(pair_ranks)
        if best == _NO_RANK:
            break
        i = pair_ranks.index(best)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
        del pair_ranks[i]
        if i > 0:
            pair_ranks[i - 1] = rank_of(parts[i - 1], parts[i])
        if i < len(parts) - 1:
            pair_ranks[i] = rank_of(parts[i], parts[i + 1])
    return parts


def _show(raw: bytes) -> str:
    """A short excerpt of a line's bytes, as text."""
    return excerpt(raw[:1000].decode("utf-8", errors="replace"))


# ----- writing -----
def tiktoken_text(tok: TokenizerLike) -> str:
    """The rank file: every non-special token with its id as rank, in id order."""
    special = set(tok.special_tokens.values())
    results = merge_results(tok)
    made = set(results)
    for k in range(1, len(results)):
        if results[k] <= results[k - 1]:
            raise ValueError(
                f"merge {k + 1} makes id {results[k]}, not above merge {k}'s id {results[k - 1]}; tiktoken "
                "ranks are "
                "merge priorities, so ids must grow with the merge order to write a .tiktoken file"
            )
    for i, token in tok.vocab.items():
        if i not in special and len(token) > 1 and i not in made:
            raise ValueError(
                f"token {i} ({excerpt(token)}) is not made by any merge; tiktoken would still produce it, "
                "so it "
                "cannot be written"
            )
    lines = [
        f"{base64.b64encode(tok.vocab[i]).decode('ascii')} {i}" for i in sorted(tok.vocab) if i not in special
    ]
    return "\n".join(lines) + "\n"
