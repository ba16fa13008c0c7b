"""The byte ribbon: characters, their UTF-8 bytes and the tokens, aligned column by column (pure).

One grid column per byte: the characters, the bytes in hex, the tokens (as
:mod:`mergescope_ui.shared.html.tokens` colours them).  A character cut by a token boundary is marked
``ms-split``.  Lines break where a token and a character both end; a token longer than a line also
breaks after one of its characters (``ms-cont-r``, ``ms-cont-l``).  Every label is escaped.

>>> vocab = {b: bytes([b]) for b in range(256)}
>>> html = byte_ribbon_html("é<".encode(), list("é<".encode()), vocab, css=False)
>>> html.count("ms-split"), "&lt;" in html, "C3" in html and "A9" in html
(1, True, True)
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bpe_core.byte_level import readable as screen_label
from mergescope_ui.shared.html.tokens import is_whole_utf8, palette_css, token_class, token_title

from .assets import style

MAX_RIBBON_BYTES = 400
LINE_BYTES = 24

RIBBON_CSS = style("ribbon.css", palette_css(".ms-ribbon"))  # the token colours last


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a ribbon line: grid columns ``first`` to ``first + width - 1`` (1-based) and its look."""

    first: int
    width: int
    label: str
    classes: str
    title: str = ""


@dataclass(frozen=True, slots=True)
class RibbonLine:
    """One line of the ribbon: its byte count and its character, byte and token cells."""

    n_bytes: int
    chars: tuple[Cell, ...]
    bytes: tuple[Cell, ...]
    tokens: tuple[Cell, ...]


def char_cells(data: bytes) -> list[tuple[int, int]]:
    """``(start, end)`` byte ranges of the characters in ``data`` (leading continuation bytes: one range).

    >>> char_cells("aé机".encode()), char_cells("é".encode()[1:] + b"x")
    ([(0, 1), (1, 3), (3, 6)], [(0, 1), (1, 2)])
    """
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(data) + 1):
        if i == len(data) or data[i] & 0xC0 != 0x80:
            out.append((start, i))
            start = i
    return out


def ribbon_lines(
    data: bytes,
    tokens: Sequence[tuple[int, bytes]],
    *,
    special_ids: Collection[int] = (),
    line_bytes: int = LINE_BYTES,
) -> list[RibbonLine]:
    """Lay ``tokens`` (id, bytes; together exactly ``data``) out in lines of about ``line_bytes`` bytes."""
    if b"".join(t for _, t in tokens) != data:
        raise ValueError("the tokens' bytes do not add up to the text's bytes; pass the ids of this text")
    chars = char_cells(data)
    char_ends = {end for _, end in chars}
    starts = list(itertools.accumulate((len(t) for _, t in tokens), initial=0))
    token_ends = set(starts[1:])
    # Break where a token and a character both end, as late as keeps the line within
    # line_bytes (a line is longer only when no such place exists inside it).  Inside a token
    # longer than a line, the ends of its characters are such places too.
    places = token_ends & char_ends
    for (token_id, token), start in zip(tokens, starts):
        if len(token) > line_bytes and token_id not in special_ids:
            places |= {e for e in char_ends if start < e < start + len(token)}
    breaks: list[int] = [0]
    last_ok = 0
    for pos in sorted(places):
        if pos - breaks[-1] > line_bytes and last_ok > breaks[-1]:
            breaks.append(last_ok)
        last_ok = pos
    if breaks[-1] < len(data) or not data:
        breaks.append(len(data))
    lines: list[RibbonLine] = []
    k = 0  # the first token not yet drawn to its end
    char_i = 0
    for lo, hi in itertools.pairwise(breaks):
        c_cells: list[Cell] = []
        while char_i < len(chars) and chars[char_i][1] <= hi:
            s, e = chars[char_i]
            piece = data[s:e]
            split = any(b in token_ends for b in range(s + 1, e))
            whole = is_whole_utf8(piece) and len(piece.decode()) == 1
            label = screen_label(piece) if piece[0] & 0xC0 != 0x80 else "…"
            classes = "ms-rc ms-split" if split else "ms-rc"
            if whole and label.startswith(("<", "⟨")) and len(label) > 1:  # invisible (ZWJ, control): name it
                label, classes = f"U+{ord(piece.decode()):04X}", classes + " ms-small"
            title = f"U+{ord(piece.decode()):04X} · {e - s} bytes" if whole else ""
            title += " · cut by a token boundary" if split else ""
            c_cells.append(Cell(s - lo + 1, e - s, label, classes, title))
            char_i += 1
        b_cells = tuple(Cell(i - lo + 1, 1, f"{data[i]:02X}", "ms-rb") for i in range(lo, hi))
        t_cells: list[Cell] = []
        while k < len(tokens) and starts[k] < hi:
            t_cells.append(_token_cell(tokens[k], starts[k], lo, hi, special_ids))
            if starts[k + 1] > hi:
                break  # the token goes on in the next line
            k += 1
        lines.append(RibbonLine(hi - lo, tuple(c_cells), b_cells, tuple(t_cells)))
    return lines


def _token_cell(token: tuple[int, bytes], start: int, lo: int, hi: int, special_ids: Collection[int]) -> Cell:
    """The part of ``token`` (starting at byte ``start``) that lies in the line of bytes ``lo..hi``."""
    token_id, whole = token
    a, b = max(start, lo), min(start + len(whole), hi)
    special = token_id in special_ids
    classes = token_class(token_id, whole, special=special).replace("ms-t", "ms-rt", 1)
    title = token_title(token_id, whole, special=special)
    if a > start:
        classes, title = classes + " ms-cont-l", title + " · continued from the line above"
    if b < start + len(whole):
        classes, title = classes + " ms-cont-r", title + " · goes on in the next line"
    piece = whole[a - start : b - start]
    label = whole.decode("utf-8") if special else screen_label(piece)
    return Cell(a - lo + 1, b - a, label, classes, title)


def _cell_html(cell: Cell) -> str:
    title = f' title="{html.escape(cell.title, quote=True)}"' if cell.title else ""
    return (
        f'<div class="{cell.classes}" style="grid-column:{cell.first} / span {cell.width}"{title}>'
        f"{html.escape(cell.label, quote=True)}</div>"
    )


def byte_ribbon_html(
    data: bytes,
    ids: Sequence[int],
    vocab: Mapping[int, bytes],
    *,
    special_ids: Collection[int] = (),
    max_bytes: int = MAX_RIBBON_BYTES,
    line_bytes: int = LINE_BYTES,
    css: bool = True,
) -> str:
    """The ribbon for the first whole tokens of ``ids`` up to about ``max_bytes`` bytes (``data``: the
    UTF-8 from the first id's bytes on); a notice follows when tokens were left out."""
    tokens: list[tuple[int, bytes]] = []
    size = 0
    for token_id in ids:
        token = vocab[token_id]
        if tokens and size + len(token) > max_bytes:
            break
        tokens.append((token_id, token))
        size += len(token)
    lines = ribbon_lines(data[:size], tokens, special_ids=special_ids, line_bytes=line_bytes)
    # A scroll area the keyboard can reach (its arrow keys then scroll it), named for screen readers.
    parts = [
        RIBBON_CSS if css else "",
        '<div class="ms-ribbon" tabindex="0" role="region"'
        ' aria-label="Byte ribbon: characters, bytes, tokens">',
    ]
    for line in lines:
        parts.append(
            f'<div class="ms-rl" style="grid-template-columns:repeat({line.n_bytes},minmax(2.2em,auto))">'
        )
        parts.extend(_cell_html(c) for c in (*line.chars, *line.bytes, *line.tokens))
        parts.append("</div>")
    left = len(ids) - len(tokens)
    if left > 0:
        parts.append(f'<div class="ms-more">… {left:,} more tokens not in the ribbon</div>')
    parts.append("</div>")
    return "".join(parts)
