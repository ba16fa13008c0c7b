"""Byte-level helpers: GPT-2's byte <-> unicode table and readable token labels.

GPT-2 (and HF `tokenizers`' ByteLevel stage) write every byte as one printable
unicode character so that vocab files are plain text.  Printable Latin-1 bytes
map to themselves; the rest (control bytes, space, ...) map to U+0100 onward,
which is why a leading space shows as ``Ġ``.

>>> BYTE_TO_UNICODE[ord(" ")], BYTE_TO_UNICODE[ord("a")], BYTE_TO_UNICODE[10]
('Ġ', 'a', 'Ċ')
>>> to_unicode_string(" the".encode())
'Ġthe'
>>> from_unicode_string('Ġthe')
b' the'
>>> readable("café".encode()[:4])
'caf<C3>'
>>> readable(b" hi\\n")
'␣hi↵'
"""

from __future__ import annotations

from collections.abc import Mapping


def _bytes_to_unicode() -> dict[int, str]:
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    table = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


BYTE_TO_UNICODE: dict[int, str] = _bytes_to_unicode()
UNICODE_TO_BYTE: dict[str, int] = {c: b for b, c in BYTE_TO_UNICODE.items()}

# HF `tokenizers` ranks its initial alphabet by character; for the 256 byte
# characters that is this order (and it is also GPT-2's id order for bytes).
HF_BYTE_RANK: dict[int, int] = {
    b: rank for rank, b in enumerate(sorted(range(256), key=lambda b: BYTE_TO_UNICODE[b]))
}


def to_unicode_string(token: bytes) -> str:
    """Write ``token`` in GPT-2's byte-to-unicode alphabet (one char per byte)."""
    return "".join(BYTE_TO_UNICODE[b] for b in token)


def from_unicode_string(text: str) -> bytes:
    """Inverse of :func:`to_unicode_string`; a character outside the table is a ValueError."""
    try:
        return bytes(UNICODE_TO_BYTE[c] for c in text)
    except KeyError as exc:
        raise ValueError(
            f"character {exc.args[0]!r} (U+{ord(exc.args[0]):04X}) is not in GPT-2's "
            "byte-to-unicode alphabet; is this a byte-level BPE file?"
        ) from None


# Markers common fonts (DejaVu, Noto: most classroom PCs and projectors) can draw;
# the Unicode "symbol for space" U+2420 and "symbol for carriage return" U+240D
# show as empty boxes there.
WHITESPACE_MARKERS = {" ": "␣", "\t": "⇥", "\n": "↵", "\r": "↤"}
# What a screen reader says for each marker (it would say "open box" or nothing for the glyph).
SPOKEN_MARKERS = {"␣": "space", "⇥": "tab", "↵": "newline", "↤": "carriage return"}


def spoken(label: str) -> str:
    """``label`` (as :func:`readable` shows a token) in words for a screen reader: each white-space
    marker becomes its name, a word apart; the rest stays as it is.

    >>> spoken("␣the"), spoken("↵↵"), spoken("low"), spoken("a␣b⇥")
    ('space the', 'newline newline', 'low', 'a space b tab')
    """
    words: list[str] = []
    run = ""
    for ch in label:
        name = SPOKEN_MARKERS.get(ch)
        if name is None:
            run += ch
            continue
        if run:
            words.append(run)
            run = ""
        words.append(name)
    if run:
        words.append(run)
    return " ".join(words)


# Whole characters that draw nothing or look like a plain space get a named marker such as ⟨ZWJ⟩,
# so a lesson can point at them; the <XX> notation stays for bytes that are not a whole character.
# The C0 control characters' names, in code order.
# fmt: off
_C0 = (
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
    "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
)
# fmt: on
INVISIBLE_NAMES = {chr(i): name for i, name in enumerate(_C0)} | {
    "\x7f": "DEL",
    "\x85": "NEL",
    "\xa0": "NBSP",
    "\xad": "SHY",
    "\u061c": "ALM",
    "\u180e": "MVS",
    "\u200b": "ZWSP",
    "\u200c": "ZWNJ",
    "\u200d": "ZWJ",
    "\u200e": "LRM",
    "\u200f": "RLM",
    "\u2028": "LSEP",
    "\u2029": "PSEP",
    "\u202f": "NNBSP",
    "\u2060": "WJ",
    "\u3000": "IDSP",
    "\ufeff": "BOM",
}


def invisible_name(char: str) -> str | None:
    """The short name of a whole character that shows nothing (or only a space), else None.

    >>> [invisible_name(c) for c in ("\\u200d", "\\ufe0f", "\\U000e0067", "a")]
    ['ZWJ', 'VS16', 'TAG g', None]
    >>> invisible_name("\\u2009"), invisible_name(" ")
    ('U+2009', None)
    """
    cp = ord(char)
    # Variation selectors and the grapheme joiner are combining marks, which count as printable.
    if 0xFE00 <= cp <= 0xFE0F:
        return f"VS{cp - 0xFE00 + 1}"
    if 0xE0100 <= cp <= 0xE01EF:
        return f"VS{cp - 0xE0100 + 17}"
    if cp == 0x034F:
        return "CGJ"
    if char.isprintable():
        return None
    name = INVISIBLE_NAMES.get(char)
    if name is not None:
        return name
    if 0xE0020 <= cp <= 0xE007E:  # the tags of flag sequences such as England's
        return f"TAG {chr(cp - 0xE0000)}"
    return f"U+{cp:04X}"


def readable(token: bytes, *, mark_whitespace: bool = True) -> str:
    """A label for ``token`` that never hides a byte.

    Whole UTF-8 characters are shown as text; bytes that are not part of a
    complete character (a token that ends or starts inside one) are shown as
    ``<XX>``.  A whole character that shows nothing (a joiner, a variation
    selector, a control character, an unusual space) is shown by its name in
    ``⟨ ⟩`` (see :func:`invisible_name`).  With ``mark_whitespace`` space,
    tab, newline and carriage return become visible markers.

    >>> readable("机".encode()[:2])
    '<E6><9C>'
    >>> readable("机器".encode()[2:])
    '<BA>器'
    >>> readable(b"a b", mark_whitespace=False)
    'a b'
    >>> readable("👩\\u200d💻 ❤\\ufe0f\\x00".encode()), readable("\\u200d".encode()[:2])
    ('👩⟨ZWJ⟩💻␣❤⟨VS16⟩⟨NUL⟩', '<E2><80>')
    """
    out: list[str] = []
    i, n = 0, len(token)
    while i < n:
        b = token[i]
        width = utf8_width(b)
        piece = token[i : i + width] if width else b""
        char = None
        if width and len(piece) == width:
            try:
                char = piece.decode("utf-8")
            except UnicodeDecodeError:
                char = None
        if char is None:
            out.append(f"<{b:02X}>")
            i += 1
            continue
        if char in WHITESPACE_MARKERS:
            out.append(WHITESPACE_MARKERS[char] if mark_whitespace else char)
        else:
            name = invisible_name(char)
            out.append(char if name is None else f"⟨{name}⟩")
        i += width
    return "".join(out)


def utf8_width(lead: int) -> int:
    """Length of the UTF-8 sequence a lead byte starts, 0 for a continuation/invalid byte."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def broken_ends(token: bytes) -> tuple[bytes, bytes]:
    """The bytes at the start of ``token`` that end a character begun before it, and those at its end that
    begin a character finished after it (``b""`` where it starts or ends on a character's edge).

    >>> broken_ends("语言".encode()[1:5])
    (b'\\xaf\\xad', b'\\xe8\\xa8')
    >>> broken_ends(b"low"), broken_ends("语".encode()[:2])
    ((b'', b''), (b'', b'\\xe8\\xaf'))
    """
    head = 0
    while head < len(token) and head < 3 and 0x80 <= token[head] <= 0xBF:
        head += 1
    tail = len(token)
    for back in range(1, min(4, len(token) - head) + 1):
        lead = token[len(token) - back]
        width = utf8_width(lead)
        if width:
            if width > back:
                tail = len(token) - back
            break
        if not 0x80 <= lead <= 0xBF:
            break
    return token[:head], token[tail:]


def characters_holding(piece: bytes, counts: Mapping[str, int], *, at: str) -> list[str]:
    """The characters of ``counts`` (most frequent first) whose UTF-8 bytes start with ``piece``
    (``at="start"``), end with it (``"end"``) or hold it (``"inside"``), the piece never the whole of one.

    >>> characters_holding(b"\\xe8\\xaf", {"语": 3, "说": 5, "a": 9, "机": 1}, at="start")
    ['说', '语']
    """
    out: list[str] = []
    for char, _ in sorted(counts.items(), key=lambda kv: -kv[1]):
        data = char.encode("utf-8")
        if len(data) <= len(piece):
            continue
        where = data[: len(piece)] if at == "start" else data[-len(piece) :] if at == "end" else None
        if (piece == where) if where is not None else piece in data[1:-1]:
            out.append(char)
    return out


def partial_note(token: bytes, counts: Mapping[str, int], *, shown: int = 2) -> str:
    """A phrase tying the bytes of ``token`` that are part of a character to that character, as the
    text ``counts`` (character -> occurrences) holds it; ``""`` when the token has whole characters only.

    >>> partial_note("语".encode()[:2], {"语": 4, "说": 1})
    '<E8><AF> is the start of 语 (or 说)'
    >>> partial_note("语言".encode()[2:], {"语": 4, "言": 4})
    '<AD> is the end of 语'
    >>> partial_note(b"low", {"语": 1})
    ''
    """
    head, tail = broken_ends(token)
    pieces = [(p, at, word) for p, at, word in ((head, "end", "the end"), (tail, "start", "the start")) if p]
    phrases = []
    for piece, at, word in pieces:
        found = characters_holding(piece, counts, at=at)
        if not found and piece == token and at == "end":  # continuation bytes only: maybe a middle
            word, found = "the inside", characters_holding(piece, counts, at="inside")
        if not found:
            continue
        label = "".join(f"<{b:02X}>" for b in piece)
        more = f" (or {', '.join(found[1:shown])})" if len(found) > 1 and shown > 1 else ""
        phrases.append(f"{label} is {word} of {found[0]}{more}")
    return "; ".join(phrases)


def character_counts(text: str) -> dict[str, int]:
    """How often each character of more than one UTF-8 byte occurs in ``text``.

    >>> character_counts("a语b语é")
    {'语': 2, 'é': 1}
    """
    counts: dict[str, int] = {}
    for char in text:
        if ord(char) >= 0x80:
            counts[char] = counts.get(char, 0) + 1
    return counts
