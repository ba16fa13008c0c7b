"""Token labels for the screen: ``bpe_core.readable`` with markers every font can draw.

``readable`` marks a space with ␠ (U+2420) and a carriage return with ␍, which
common fonts (DejaVu, Noto, so most Linux classroom PCs and projectors) lack:
they show as empty boxes.  On screen we use ␣ (U+2423, the usual "visible
space") and ↤ instead; tab ⇥ and newline ↵ are kept.

>>> label(b" the\\r\\n")
'␣the↤↵'
>>> label("机".encode()[:2])
'<E6><9C>'
"""

from __future__ import annotations

from bpe_core import readable

SCREEN_MARKERS = str.maketrans({"\N{SYMBOL FOR SPACE}": "\N{OPEN BOX}", "\N{SYMBOL FOR CARRIAGE RETURN}": "↤"})


def label(token: bytes) -> str:
    """``readable(token)`` with screen-safe whitespace markers (see the module docstring)."""
    return readable(token).translate(SCREEN_MARKERS)
