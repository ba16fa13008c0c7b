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


def readable(token: bytes, *, mark_whitespace: bool = True) -> str:
    """A label for ``token`` that never hides a byte.

    Whole UTF-8 characters are shown as text; bytes that are not part of a
    complete character (a token that ends or starts inside one) are shown as
    ``<XX>``; control characters as ``<XX>`` too.  With ``mark_whitespace``
    space, tab, newline and carriage return become visible markers.

    >>> readable("机".encode()[:2])
    '<E6><9C>'
    >>> readable("机器".encode()[2:])
    '<BA>器'
    >>> readable(b"a b", mark_whitespace=False)
    'a b'
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
        if mark_whitespace and char in WHITESPACE_MARKERS:
            out.append(WHITESPACE_MARKERS[char])
        elif char.isprintable() or char in " \t\n\r":
            out.append(char)
        else:
            out.append("".join(f"<{x:02X}>" for x in piece))
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
