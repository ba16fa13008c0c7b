"""Numbers a student reads: as many decimals as it takes to see a small change, never "+0.00" for one.

A loss of 371.5 that falls by 0.0014 reads "371.5000 → 371.4986 (−0.0014, −0.00038%)" rather than
"371.50 (-0.00)": :func:`decimals` finds the decimals that show a number's first two significant
digits, :func:`readable` and :func:`signed` write it (with a true minus sign, which a screen reader
says), :func:`change` writes a change and what it is relative to the start.  Exactly zero reads "0".

>>> readable(371.5), readable(0.0014), readable(0.0), readable(1234.5)
('371.50', '0.0014', '0', '1,234.50')
>>> signed(-0.0013999), signed(0.5), signed(0.0)
('−0.0014', '+0.50', '0')
>>> change(371.5, 371.4986)
'−0.0014 (−0.00038%)'
>>> change(64.90294, 104.18841), change(5.0, 5.0)
('+39.29 (+61%)', 'no change')
"""

from __future__ import annotations

import math

SIGNIFICANT = 2  # the significant digits a small number keeps
MIN_DECIMALS = 2  # a number's decimals at least (a loss of 371.5 reads 371.50)
MAX_DECIMALS = 12  # beyond this a float's rounding noise shows, not a change
MINUS = "\u2212"  # the minus sign (a hyphen is read "hyphen" by some screen readers)


def decimals(x: float, *, least: int = MIN_DECIMALS) -> int:
    """The decimals that show ``x``'s first :data:`SIGNIFICANT` digits (at least ``least``).

    >>> decimals(371.5), decimals(0.0014), decimals(0.00038, least=0), decimals(61.0, least=0)
    (2, 4, 5, 0)
    """
    if x == 0 or not math.isfinite(x):
        return least
    wanted = SIGNIFICANT - 1 - math.floor(math.log10(abs(x)))
    return max(least, min(MAX_DECIMALS, wanted))


def readable(x: float, *, places: int | None = None) -> str:
    """``x`` with thousands separators and ``places`` decimals (by default :func:`decimals`); 0 is "0"."""
    if x == 0:
        return "0"
    return f"{x:,.{decimals(x) if places is None else places}f}".replace("-", MINUS)


def signed(x: float, *, places: int | None = None) -> str:
    """:func:`readable` with its sign ("+" or "−"); 0 is "0"."""
    text = readable(x, places=places)
    return text if x <= 0 else f"+{text}"


def change(before: float, after: float) -> str:
    """The change from ``before`` to ``after``, and relative to ``before`` in % (when it is not 0)."""
    delta = after - before
    if delta == 0:
        return "no change"
    if before == 0:
        return signed(delta)
    pct = 100 * delta / abs(before)
    return f"{signed(delta)} ({signed(pct, places=decimals(pct, least=0))}%)"
