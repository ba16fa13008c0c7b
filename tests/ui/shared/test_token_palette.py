"""The token fills stay apart for colour-blind viewers, and their text stays readable.

Colour-vision deficiency is simulated with the matrices of Machado, Oliveira and Fernandes (2009, "A
Physiologically-based Model for Simulation of Color Vision Deficiency", severity 1.0), applied to linear
sRGB; colours are compared in CIELAB (D65) with CIEDE2000.  Any two token kinds can sit side by side (a
token's colour is its id % 10), so every pair is a pair of neighbours.
"""

from __future__ import annotations

import itertools
import math
import re

import pytest

from mergescope_ui.shared.html.tokens import BYTE_FILL, PALETTE, TOKEN_CSS, TOKEN_TEXT
from mergescope_ui.tokenize.ribbon import RIBBON_CSS

MIN_DELTA_E = 10.0  # CIEDE2000 between any two fills, in every vision below
MACHADO_2009 = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = ("normal", *MACHADO_2009)
# The fills before this test (a green and a red protanopes confuse): the test must tell them apart.
OLD_FILLS = (
    "#ffd8a8",
    "#b2f2bb",
    "#a5d8ff",
    "#ffc9c9",
    "#d0bfff",
    "#ffec99",
    "#96f2d7",
    "#fcc2d7",
    "#c5f6fa",
)

Lab = tuple[float, float, float]


def linear_rgb(colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` (or ``#rgb``) as linear sRGB in 0..1."""
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    srgb = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb)
    return r, g, b


def simulate(rgb: tuple[float, float, float], vision: str) -> tuple[float, float, float]:
    """What a viewer with ``vision`` sees, as linear sRGB (clipped to the gamut)."""
    if vision == "normal":
        return rgb
    m = MACHADO_2009[vision]
    r, g, b = (min(1.0, max(0.0, sum(m[i][j] * rgb[j] for j in range(3)))) for i in range(3))
    return r, g, b


def lab(rgb: tuple[float, float, float]) -> Lab:
    """Linear sRGB to CIELAB (D65 white)."""
    r, g, b = rgb
    xyz = (
        (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047,
        0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
        (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e_2000(one: Lab, two: Lab) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_big_h = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    r_c = 2 * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
    r_t = -math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))) * r_c
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    dl, dc, dh_ = (l2 - l1) / s_l, (c2 - c1) / s_c, d_big_h / s_h
    return math.sqrt(dl**2 + dc**2 + dh_**2 + r_t * dc * dh_)


def closest_pair(fills: tuple[str, ...], vision: str) -> tuple[float, str, str]:
    """The smallest CIEDE2000 between two of ``fills`` as a viewer with ``vision`` sees them."""
    seen = {f: lab(simulate(linear_rgb(f), vision)) for f in fills}
    return min((delta_e_2000(seen[a], seen[b]), a, b) for a, b in itertools.combinations(fills, 2))


def contrast(one: str, two: str) -> float:
    """WCAG contrast ratio."""
    y1, y2 = (0.2126 * r + 0.7152 * g + 0.0722 * b for r, g, b in map(linear_rgb, (one, two)))
    return (max(y1, y2) + 0.05) / (min(y1, y2) + 0.05)


def test_delta_e_2000_matches_the_published_worked_pairs() -> None:
    # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7 and 17.
    assert delta_e_2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e_2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert delta_e_2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


def test_simulation_merges_red_and_green_for_red_green_blindness_only() -> None:
    green, red = "#b2f2bb", "#ffc9c9"  # two of the old fills
    apart = {v: delta_e_2000(*(lab(simulate(linear_rgb(c), v)) for c in (green, red))) for v in VISIONS}
    assert apart["protanopia"] < apart["normal"] / 3 and apart["deuteranopia"] < apart["normal"] / 3
    assert apart["tritanopia"] > apart["normal"] / 2  # blue-yellow blindness keeps red and green apart


@pytest.mark.parametrize("vision", VISIONS)
def test_every_two_fills_differ_in_every_vision(vision: str) -> None:
    gap, one, two = closest_pair((BYTE_FILL, *PALETTE), vision)
    assert gap >= MIN_DELTA_E, f"{one} and {two} differ by only ΔE00 {gap:.1f} in {vision}"


def test_the_old_fills_fail_the_same_check() -> None:
    assert min(closest_pair(OLD_FILLS, v)[0] for v in VISIONS) < MIN_DELTA_E


def test_token_text_is_readable_on_every_fill() -> None:
    for fill in (BYTE_FILL, *PALETTE):
        assert contrast(TOKEN_TEXT, fill) >= 7.0, fill


@pytest.mark.parametrize(("css", "scope"), [(TOKEN_CSS, ".ms-tokens"), (RIBBON_CSS, ".ms-ribbon")])
def test_the_pages_draw_these_fills(css: str, scope: str) -> None:
    drawn = dict(re.findall(re.escape(scope) + r" \.ms-(c\d|byte)\{background:(#[0-9a-f]{6})", css))
    assert drawn == {"byte": BYTE_FILL} | {f"c{n}": fill for n, fill in enumerate(PALETTE)}
