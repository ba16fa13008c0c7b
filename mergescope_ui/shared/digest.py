"""The one fingerprint of texts and uploaded bytes, for cache keys and "is this the same input?".

A text digests as its UTF-8 (surrogates kept), so a text and its bytes give the
same digest; several parts (the files of one upload: name, bytes, name, bytes)
are digested in order, each with its length, so no two splits of the same bytes
collide.

>>> digest("café") == digest("café".encode())
True
>>> digest("ab", "c") == digest("a", "bc"), len(digest(b""))
(False, 16)
"""

from __future__ import annotations

import hashlib


def digest(*parts: str | bytes) -> str:
    """16 hex digits of the sha256 of ``parts`` (a text, uploaded bytes, or several in order)."""
    if not parts:
        raise ValueError("digest needs at least one text or bytes; pass what you want to fingerprint")
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", errors="surrogatepass") if isinstance(part, str) else part
        if len(parts) > 1:
            h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()[:16]
