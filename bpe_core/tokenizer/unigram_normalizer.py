"""SentencePiece's normalization, as its ``normalizer_spec`` says: what a Unigram model sees of a text.

Four settings, as in SentencePiece's ``Normalizer::Normalize``:

- ``charsmap``: the precompiled rules (``precompiled_charsmap``: a double-array trie of UTF-8 strings and
  what each becomes, e.g. ``nmt_nfkc``: NFKC plus a few rules for the web). At each place the longest
  rule that matches wins; without one, the character stays.  Empty for ``identity``.
- ``remove_extra_whitespaces``: spaces at the start and the end go, and a run of spaces becomes one.
- ``add_dummy_prefix``: a space is put before the text, so ``world`` and ``hello world`` share ``▁world``
  (with ``prefix_only_if_missing``, only when the text does not start with one: HF's ``Metaspace``).
- ``escape_whitespaces``: each space becomes ``▁`` (U+2581).

Symbols the model defines itself (``user_defined``) are kept as they are, longest first.

``offsets[i]`` is where the normalized character ``i`` comes from in the input (a character index), and
``offsets[len(text)]`` is where the covered input ends, so a token over normalized characters ``i:j``
covers ``input[offsets[i]:offsets[j]]``.

>>> norm = SentencePieceNormalizer()
>>> out = norm.normalize("  Hello   world ")
>>> out.text
'▁Hello▁world'
>>> out.offsets[6], out.offsets[7], out.offsets[-1]
(7, 10, 15)
>>> SentencePieceNormalizer(remove_extra_whitespaces=False).normalize(" a  b").text
'▁▁a▁▁b'
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

SPACE = "▁"
_REPLACEMENT = "\ufffd".encode()


@dataclass(frozen=True, slots=True)
class Normalized:
    """A normalized text and, for each of its characters (and its end), the input character it came from."""

    text: str
    offsets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SentencePieceNormalizer:
    """SentencePiece's normalizer (see the module's docstring); the defaults are ``identity``'s rules."""

    charsmap: bytes = b""
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    escape_whitespaces: bool = True
    user_defined: tuple[str, ...] = ()
    name: str = "identity"
    prefix_only_if_missing: bool = False
    _trie: tuple[tuple[int, ...], bytes] | None = field(default=None, init=False, repr=False, compare=False)
    _symbols: tuple[bytes, ...] = field(default=(), init=False, repr=False, compare=False)  # user_defined

    def __post_init__(self) -> None:
        object.__setattr__(self, "_trie", _decode_charsmap(self.charsmap) if self.charsmap else None)
        # Each symbol once, shortest first (by UTF-8 length, then bytes); _symbols holds their UTF-8 bytes.
        symbols = sorted({s.encode("utf-8") for s in self.user_defined}, key=lambda b: (len(b), b))
        object.__setattr__(self, "user_defined", tuple(b.decode("utf-8") for b in symbols))
        object.__setattr__(self, "_symbols", tuple(symbols))

    def normalize(self, text: str) -> Normalized:
        """``text`` as the model sees it, with where each character comes from."""
        if self._trie is None and not self.user_defined:
            return self._normalize_plain(text)
        data = text.encode("utf-8", "surrogatepass")
        char_at = _char_index(text, len(data))
        out = bytearray()
        to_orig: list[int] = []  # input byte offset per output byte
        pos = 0
        n = len(data)
        if self.remove_extra_whitespaces:  # leading spaces go
            while pos < n:
                piece, used = self._prefix(data, pos)
                if piece != b" ":
                    break
                pos += used
        if pos >= n:
            return Normalized("", (char_at[pos],))
        space = SPACE.encode() if self.escape_whitespaces else b" "
        start = pos
        prev_space = self.remove_extra_whitespaces
        while pos < n:
            piece, used = self._prefix(data, pos)
            if prev_space:
                piece = piece.lstrip(b" ")
            if piece:
                for b in piece:
                    if b == 0x20 and self.escape_whitespaces:
                        out += space
                        to_orig += [pos] * len(space)
                    else:
                        out.append(b)
                        to_orig.append(pos)
                prev_space = piece.endswith(b" ")
            pos += used
            if not self.remove_extra_whitespaces:
                prev_space = False
        if self.remove_extra_whitespaces:  # trailing spaces go
            while out.endswith(space):
                del out[-len(space) :]
                pos = to_orig[len(out)]
                del to_orig[len(out) :]
            if not out:  # SentencePiece's dummy prefix went with the trailing spaces
                return Normalized("", (char_at[start],))
        if self.add_dummy_prefix and not (self.prefix_only_if_missing and out.startswith(space)):
            out[:0] = space
            to_orig[:0] = [start] * len(space)
        to_orig.append(pos)
        normalized = out.decode("utf-8", "replace")
        # Each output character's input position is that of its first byte.
        offsets = []
        b = 0
        for c in normalized:
            offsets.append(char_at[to_orig[b]])
            b += len(c.encode("utf-8"))
        offsets.append(char_at[to_orig[-1]])
        return Normalized(normalized, tuple(offsets))

    def _normalize_plain(self, text: str) -> Normalized:
        """:meth:`normalize` without rules: each character stays (the same steps, over characters)."""
        n = len(text)
        pos = n - len(text.lstrip(" ")) if self.remove_extra_whitespaces else 0
        if pos >= n:
            return Normalized("", (pos,))
        space = SPACE if self.escape_whitespaces else " "
        out: list[str] = []
        offsets: list[int] = []
        squeeze = self.remove_extra_whitespaces
        prev_space = squeeze
        for i in range(pos, n):
            c = text[i]
            if c == " ":
                if prev_space:
                    continue
                out.append(space)
                prev_space = squeeze
            else:
                out.append(c)
                prev_space = False
            offsets.append(i)
        end = n
        if squeeze:
            while out and out[-1] == space:
                out.pop()
                end = offsets.pop()
            if not out:  # SentencePiece's dummy prefix went with the trailing spaces
                return Normalized("", (pos,))
        if self.add_dummy_prefix and not (self.prefix_only_if_missing and out and out[0] == space):
            out.insert(0, space)
            offsets.insert(0, pos)
        offsets.append(end)
        return Normalized("".join(out), tuple(offsets))

    def _prefix(self, data: bytes, pos: int) -> tuple[bytes, int]:
        """What the input at ``pos`` becomes, and how many of its bytes that uses (``NormalizePrefix``)."""
        for symbol in reversed(self._symbols):  # longest first
            if data.startswith(symbol, pos):
                return symbol, len(symbol)
        if self._trie is not None:
            found = _longest_match(self._trie, data, pos)
            if found is not None:
                return found
        length = _char_length(data, pos)
        if length == 0:  # malformed UTF-8: one byte becomes U+FFFD
            return _REPLACEMENT, 1
        return data[pos : pos + length], length


def _char_index(text: str, nbytes: int) -> list[int]:
    """For each byte offset of ``text``'s UTF-8 (and its end), the index of the character it is in."""
    out = []
    for i, c in enumerate(text):
        out += [i] * len(c.encode("utf-8", "surrogatepass"))
    out.append(len(text))
    return out


def _char_length(data: bytes, pos: int) -> int:
    """The length of the valid UTF-8 character at ``pos``, or 0 when it is malformed."""
    first = data[pos]
    length = 1 if first < 0x80 else 2 if 0xC2 <= first < 0xE0 else 3 if 0xE0 <= first < 0xF0 else 4
    if first >= 0xF5 or (0x80 <= first < 0xC2):
        return 0
    try:
        data[pos : pos + length].decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return length


def _decode_charsmap(blob: bytes) -> tuple[tuple[int, ...], bytes]:
    """The double-array trie (as units) and the normalized strings of a ``precompiled_charsmap``.

    The blob is ``<trie size: uint32 little-endian><trie: uint32 units><strings, each ending in NUL>``.
    """
    if len(blob) <= 4:
        raise ValueError("the precompiled_charsmap is too short to hold a trie; the .model file is damaged")
    (size,) = struct.unpack_from("<I", blob)
    if size >= len(blob) or size % 4:
        raise ValueError(
            f"the precompiled_charsmap says its trie has {size} bytes, but the blob has {len(blob) - 4}; "
            "the .model file is damaged"
        )
    units = struct.unpack_from(f"<{size // 4}I", blob, 4)
    return units, blob[4 + size :]


def _longest_match(trie: tuple[tuple[int, ...], bytes], data: bytes, pos: int) -> tuple[bytes, int] | None:
    """The longest rule of the darts-clone trie matching ``data`` at ``pos`` (``commonPrefixSearch``)."""
    units, strings = trie
    node = _offset(units[0])
    best = None
    for i in range(pos, len(data)):
        key = data[i]
        node ^= key
        if node >= len(units):
            break
        unit = units[node]
        if unit & ((1 << 31) | 0xFF) != key:  # the label
            break
        node ^= _offset(unit)
        if (unit >> 8) & 1:  # has a leaf: a rule ends here
            value = units[node] & 0x7FFFFFFF
            best = (value, i + 1 - pos)
    if best is None:
        return None
    value, length = best
    end = strings.find(b"\0", value)
    return strings[value : end if end >= 0 else len(strings)], length


def _offset(unit: int) -> int:
    return (unit >> 10) << ((unit & (1 << 9)) >> 6)


def charsmap_trie(blob: bytes) -> tuple[tuple[int, ...], bytes]:
    """The trie of a ``precompiled_charsmap``, for :func:`shortest_rule` (a damaged blob is a ValueError)."""
    return _decode_charsmap(blob)


def shortest_rule(trie: tuple[tuple[int, ...], bytes], data: bytes) -> str | None:
    """What the shortest rule matching the start of ``data`` gives, or None: how HF's ``Precompiled``
    reads the trie (``common_prefix_search``'s first result), where SentencePiece takes the longest.

    >>> shortest_rule(charsmap_trie(b"\\x00" * 8), b"a") is None
    True
    """
    units, strings = trie
    if not units:
        return None
    node = _offset(units[0])
    for key in data:
        if key == 0:
            return None
        node ^= key
        if node >= len(units):
            return None
        unit = units[node]
        if unit & ((1 << 31) | 0xFF) != key:
            return None
        node ^= _offset(unit)
        if (unit >> 8) & 1:
            value = units[node] & 0x7FFFFFFF
            end = strings.find(b"\0", value)
            return strings[value : end if end >= 0 else len(strings)].decode("utf-8", "replace")
    return None
