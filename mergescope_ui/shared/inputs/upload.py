"""Turning uploaded bytes into text, with messages a person can act on.

>>> decode_upload("café".encode()).text
'café'
>>> import textwrap
>>> try:
...     decode_upload(b"caf\\xff ok")
... except ValueError as exc:
...     print(textwrap.fill(str(exc), width=100))
the file is not valid UTF-8: byte 0xFF at offset 3 (after 'caf') cannot start a character here (it
reads as Windows-1252 / Latin-1 text); save it as UTF-8, or tick "decode anyway" to replace bad
bytes with �
>>> decode_upload(b"caf\\xe9 ok", lossy=True).replaced
1
"""

from __future__ import annotations

from dataclasses import dataclass

MEGABYTE = 1000 * 1000
"""What "MB" means on every page: Streamlit 1.67's uploader counts an MB as 10**6 bytes in the browser
(its chip says "10.0MB"; only on Windows does it count 1024 * 1024), so the app does too."""
DEFAULT_MAX_BYTES = 10 * MEGABYTE
"""The one upload cap: 10 MB = 10,000,000 bytes.  The uploaders pass ``max_upload_size=10`` (the browser
refuses a larger file, and the page shows its reason as text: :mod:`mergescope_ui.shared.html.theme`);
:func:`decode_upload` refuses what gets past that (a Windows browser lets up to 10 MiB through).
``.streamlit/config.toml`` ``maxUploadSize = 10`` is the server's own cap, which Streamlit counts in
MiB: a little above."""


@dataclass(frozen=True, slots=True)
class DecodedText:
    """Decoded text; ``replaced`` counts U+FFFD characters put in for invalid bytes."""

    text: str
    replaced: int = 0

    @property
    def lossy(self) -> bool:
        return self.replaced > 0


def decode_upload(raw: bytes, *, lossy: bool = False, max_bytes: int = DEFAULT_MAX_BYTES) -> DecodedText:
    """Decode ``raw`` as UTF-8 (a leading BOM is dropped).

    Invalid UTF-8 is a ValueError naming the first bad byte and its offset,
    unless ``lossy``: then each bad sequence becomes U+FFFD and ``replaced``
    says how many.  More than ``max_bytes`` is a ValueError giving both sizes.

    >>> decode_upload(b"x" * 10_000_001)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the file is 10,000,001 bytes, over the 10 MB limit (10,000,000 bytes); upload a ...
    """
    if len(raw) > max_bytes:
        raise ValueError(
            f"the file is {len(raw):,} bytes, over the {max_bytes / MEGABYTE:g} MB limit "
            f"({max_bytes:,} bytes); upload a smaller excerpt"
        )
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return DecodedText(text=raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        if not lossy:
            before = raw[max(0, exc.start - 20) : exc.start].decode("utf-8", errors="replace")
            raise ValueError(
                f"the file is not valid UTF-8: byte 0x{raw[exc.start]:02X} at offset {exc.start} "
                f"(after {before!r}) {_reason(exc.reason)}{_guess(raw)}; save it as UTF-8, "
                'or tick "decode anyway" to replace bad bytes with \N{REPLACEMENT CHARACTER}'
            ) from None
    text = raw.decode("utf-8", errors="replace")
    # Count only the replacement characters decoding added, not ones already in the file.
    original = raw.count("\N{REPLACEMENT CHARACTER}".encode())
    return DecodedText(text=text, replaced=text.count("\N{REPLACEMENT CHARACTER}") - original)


def _guess(raw: bytes) -> str:
    """A hint when the bytes read cleanly as a common legacy encoding.

    >>> _guess("crème".encode("cp1252")), _guess(b"\\x81\\x8d")
    (' (it reads as Windows-1252 / Latin-1 text)', '')
    """
    for codec, name in (("utf-16", "UTF-16"), ("cp1252", "Windows-1252 / Latin-1")):
        if codec == "utf-16" and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            continue
        try:
            raw.decode(codec)
        except UnicodeDecodeError:
            continue
        return f" (it reads as {name} text)"
    return ""


def _reason(reason: str) -> str:
    return {
        "invalid start byte": "cannot start a character here",
        "invalid continuation byte": "breaks a multi-byte character",
        "unexpected end of data": "starts a character the file ends before finishing",
    }.get(reason, f"is invalid ({reason})")
