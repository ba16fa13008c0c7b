"""Colored token spans as one HTML string, for ``st.html``.

Every label is ``html.escape``-d (quotes too); whitespace shows as ␣ ↵ ⇥, and
bytes that are not a whole UTF-8 character show as ``<E4><BD>`` (from
``bpe_core.byte_level.readable``), never as mojibake.  Learned tokens (id >= 256) get a
color by id, so the same token has the same color everywhere; raw single
bytes stay grey; emphasized positions get a thick outline.

>>> html = token_spans_html([104, 105], {104: b"h", 105: b"<"})
>>> "&lt;" in html and "<script" not in html
True
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache

import regex

from bpe_core.byte_level import broken_ends, spoken
from bpe_core.byte_level import readable as screen_label

from ..stage.contract import LABEL_COLUMNS, TokenLabel

# The fills of learned tokens, by id % 10, and of raw single bytes: told apart with normal colour vision and
# under simulated protanopia, deuteranopia and tritanopia (CIEDE2000 at least 10 between any two, in
# tests/ui/shared/test_token_palette.py), each under dark text at 7:1 or more.  The same in the light and the
# dark theme: a token carries its own text colour, and its border marks where it starts and ends.
PALETTE = (
    "#999ebc",  # slate
    "#65dcfd",  # sky
    "#70ac8f",  # sage
    "#eff154",  # lemon
    "#a0c40b",  # lime
    "#f4c489",  # apricot
    "#b29f5d",  # khaki
    "#beb8c0",  # lilac grey
    "#b98dff",  # violet
    "#d8fdd4",  # mint
)
BYTE_FILL = "#e8e8e8"
TOKEN_TEXT = "#111"
PALETTE_SIZE = len(PALETTE)


def palette_css(scope: str) -> str:
    """The token fills as CSS rules for the token spans inside ``scope`` (a selector).

    >>> palette_css(".ms-tokens").splitlines()[:2]
    ['.ms-tokens .ms-byte{background:#e8e8e8}', '.ms-tokens .ms-c0{background:#999ebc}']
    """
    rules = [f"{scope} .ms-byte{{background:{BYTE_FILL}}}"]
    rules += [f"{scope} .ms-c{n}{{background:{fill}}}" for n, fill in enumerate(PALETTE)]
    return "\n".join(rules) + "\n"


# One namespaced style block; st.html keeps <style> and applies it page-wide.
TOKEN_CSS = (
    """
<style>
.ms-tokens{font-family:ui-monospace,"DejaVu Sans Mono","Noto Sans Mono","Noto Sans CJK SC",monospace;
  font-size:var(--ms-token-size,1.05rem);line-height:2.1;max-height:var(--ms-token-height,26rem);
  overflow-y:auto;padding:.4rem .5rem;border:1px solid rgba(128,128,128,.35);border-radius:.5rem;
  word-break:break-all;contain:layout paint;}
.ms-tokens .ms-t{padding:.1em .12em;margin:0 1px;border-radius:.25em;
  border:1px solid light-dark(rgba(0,0,0,.18),rgba(255,255,255,.45));white-space:pre;color:#111;}
"""
    + palette_css(".ms-tokens")
    + """.ms-tokens .ms-partial{border-style:dashed;font-size:.8em;color:#5c3c00;}
.ms-tokens .ms-special{background:#343a40;color:#fff;}
.ms-tokens .ms-new{outline:3px solid var(--ms-accent-line,#e8590c);outline-offset:1px;font-weight:700;}
.ms-tokens .ms-more{color:var(--ms-muted,#696867);font-style:italic;white-space:normal;}
.ms-sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);
  white-space:nowrap;border:0;}
.ms-tokens .ms-empty{color:var(--ms-muted,#696867);font-style:italic;}
</style>
"""
)


def token_class(token_id: int, token: bytes, *, special: bool = False) -> str:
    """CSS classes of one token span.

    >>> token_class(104, b"h"), token_class(300, b"ab"), token_class(301, b"\\xe4\\xbd")
    ('ms-t ms-byte', 'ms-t ms-c0', 'ms-t ms-c1 ms-partial')
    """
    if special:
        return "ms-t ms-special"
    classes = ["ms-t", "ms-byte" if token_id < 256 and len(token) == 1 else f"ms-c{token_id % PALETTE_SIZE}"]
    if not is_whole_utf8(token):
        classes.append("ms-partial")
    return " ".join(classes)


def is_whole_utf8(token: bytes) -> bool:
    """True when ``token`` decodes as UTF-8 on its own (no split character)."""
    try:
        token.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


TITLE_HEX_BYTES = 32  # a tooltip spells out at most this many bytes in hex


def token_title(token_id: int, token: bytes, *, special: bool = False) -> str:
    """The tooltip text: id, byte count, the bytes in hex (the first 32), the whole readable text.

    >>> token_title(261, b"lo")
    'id 261 · 2 bytes: 6C 6F · "lo"'
    >>> long = token_title(300, b"ab" * 20)
    >>> long.count("62"), long.endswith(' … · "' + "ab" * 20 + '"')
    (16, True)
    """
    kind = " · special token" if special else ""
    plural = "byte" if len(token) == 1 else "bytes"
    hexes = token[:TITLE_HEX_BYTES].hex(" ").upper() + (" …" if len(token) > TITLE_HEX_BYTES else "")
    return f'id {token_id} · {len(token)} {plural}: {hexes} · "{screen_label(token)}"{kind}'


# The units a label is cut between: a byte shown as <XX>, a named marker ⟨ZWJ⟩, or one grapheme.
_UNITS = regex.compile(r"<[0-9A-F]{2}>|⟨[^⟩]*⟩|\X")


def _width(unit: str) -> int:
    """Columns a unit takes in a monospace font: wide (CJK, emoji) characters take two."""
    if unit.startswith(("<", "⟨")) and len(unit) > 1:
        return len(unit)
    return 2 if any(unicodedata.east_asian_width(c) in "WF" for c in unit) else 1


def label_width(label: str) -> int:
    """Columns ``label`` takes in a monospace font (wide characters count two).

    >>> label_width("low"), label_width("机器"), label_width("<E6>")
    (3, 4, 4)
    """
    return sum(map(_width, _UNITS.findall(label)))


def clip_label(label: str, width: int) -> str:
    """``label`` shortened in the middle with … to at most ``width`` columns (wide characters count two).

    Bytes shown as ``<XX>``, markers like ``⟨ZWJ⟩`` and emoji are never cut in two.

    >>> clip_label("low␣low␣low␣low␣lower␣", 12), clip_label("low", 12)
    ('low␣lo…ower␣', 'low')
    >>> clip_label("机器学习很有趣", 9)
    '机器…有趣'
    """
    if 2 * len(label) <= width:  # a unit takes at most two columns a character: it fits as it is
        return label
    if len(label) > _CLIPS_KEPT_CHARS:
        return _clip(label, width)
    return _clip_kept(label, width)


_CLIPS_KEPT_CHARS = 200  # labels up to this long are clipped once per width for every session


@lru_cache(maxsize=16_384)
def _clip_kept(label: str, width: int) -> str:
    """:func:`_clip`, kept: every table and stage view of a class on one lesson shows the same labels."""
    return _clip(label, width)


def _clip(label: str, width: int) -> str:
    """:func:`clip_label` itself."""
    units = _UNITS.findall(label)
    widths = [_width(u) for u in units]
    if sum(widths) <= width:
        return label
    room = max(width - 1, 2)  # the … takes one column
    head: list[str] = []
    tail: list[str] = []
    used, i, j = 0, 0, len(units) - 1
    while i <= j:
        side = head if len(head) <= len(tail) else tail
        k = i if side is head else j
        if used + widths[k] > room:
            break
        side.append(units[k])
        used += widths[k]
        if side is head:
            i += 1
        else:
            j -= 1
    return "".join(head) + "…" + "".join(reversed(tail))


def _window(units: Sequence[str], at: int, room: int) -> str:
    """The units around ``units[at]`` that fit in ``room`` columns, with … where it cuts."""
    lo = hi = max(at, 0)
    used = _width(units[lo]) if units else 0
    grew = True
    while grew:
        grew = False
        if hi + 1 < len(units) and used + _width(units[hi + 1]) <= room:
            hi += 1
            used += _width(units[hi])
            grew = True
        if lo > 0 and used + _width(units[lo - 1]) <= room:
            lo -= 1
            used += _width(units[lo])
            grew = True
    return ("…" if lo else "") + "".join(units[lo : hi + 1]) + ("…" if hi + 1 < len(units) else "")


def clip_apart(labels: Sequence[str], width: int) -> list[str]:
    """Each label clipped to ``width`` columns (:func:`clip_label`) so that labels that differ never read
    the same: where two clipped ones would, each shows its length in characters, ``(12)``, and if
    that is not enough either, the stretch where it differs from the others.

    >>> clip_apart(["newest␣", "west␣", "newest␣west␣"], 12)
    ['newest␣', 'west␣', 'newest␣west␣']
    >>> a, b = "newest␣" * 3 + "west␣", "newest␣" * 2 + "west␣"
    >>> [clip_label(t, 12) for t in (a, b, a + b)]
    ['newest…west␣', 'newest…west␣', 'newest…west␣']
    >>> clip_apart([a, b, a + b], 12)
    ['new…st␣ (26)', 'new…st␣ (19)', 'new…st␣ (45)']
    >>> clip_apart(["ab" + "x" * 20 + "yz", "ab" + "x" * 10 + "q" + "x" * 9 + "yz"], 10)
    ['…xxxxxxxx…', '…xxxqxxxx…']
    """
    out = [clip_label(t, width) for t in labels]
    for attempt in range(2):
        seen: dict[str, set[str]] = {}
        for full, short in zip(labels, out):
            seen.setdefault(short, set()).add(full)
        clashes = {short for short, fulls in seen.items() if len(fulls) > 1}
        if not clashes:
            return out
        for n, (full, short) in enumerate(zip(labels, out)):
            if short not in clashes:
                continue
            units = _UNITS.findall(full)
            suffix = f" ({len(units)})"
            if attempt == 0 and width - len(suffix) >= 4:
                out[n] = clip_label(full, width - len(suffix)) + suffix
            else:  # same length too, or no room for it: the stretch around the first unit that differs
                twins = [_UNITS.findall(f) for f in seen[short] if f != full]
                first = min(
                    next((k for k, (x, y) in enumerate(zip(units, t)) if x != y), len(units)) for t in twins
                )
                out[n] = _window(units, min(first, len(units) - 1), max(width - 2, 1))
    # Still alike (three of a length, differing far apart): number them in order; the tooltip has the rest.
    groups: dict[str, list[int]] = {}
    for n, short in enumerate(out):
        groups.setdefault(short, []).append(n)
    for members in groups.values():
        if len({labels[n] for n in members}) > 1:
            order = list(dict.fromkeys(labels[n] for n in members))
            for n in members:
                suffix = f" #{order.index(labels[n]) + 1}"
                out[n] = clip_label(labels[n], max(width - len(suffix), 2)) + suffix
    return out


@lru_cache(maxsize=65_536)
def token_span(
    token_id: int,
    token: bytes,
    *,
    emphasize: bool = False,
    special: bool = False,
    clip: int = 0,
    breaks: bool = True,
    shown: str = "",
    marks: bool = True,
    words: bool = False,
) -> str:
    """One ``<span>``: escaped readable label (or ``shown``, a label already shortened, e.g. by
    :func:`clip_apart`), escaped tooltip, classes.

    ``marks``: whitespace in the label shows as ␣ ↵ ⇥ (the tooltip always marks it).
    ``clip`` (columns, 0 for never) shortens a long label in the middle (see
    :func:`clip_label`); the tooltip always has the whole text and its length.
    With ``breaks`` a token holding newlines is followed by line breaks (in running
    text; not in a card).  With ``words`` a screen reader hears the label's white space in words
    (:func:`label_html`; the merge card's three tokens).  Cached: a page redraws the same few
    thousand tokens at every step.
    """
    classes = token_class(token_id, token, special=special) + (" ms-new" if emphasize else "")
    label = token.decode("utf-8") if special else screen_label(token, mark_whitespace=marks)
    if shown:
        label = shown
    elif clip:
        label = clip_label(label, clip)
    lines = "<br>" * min(2, token.count(b"\n")) if breaks and not special else ""
    title = html.escape(token_title(token_id, token, special=special), quote=True)
    text = label_html(label, marks=words and not special)
    return f'<span class="{classes}" title="{title}">{text}</span>{lines}'


def label_html(label: str, *, marks: bool = True) -> str:
    """A token's label as escaped HTML; when it shows white space as ␣ ↵ ⇥ (``marks``), the glyphs
    hidden from screen readers and the label in words beside them, visible to those only.

    >>> label_html("low"), label_html("<b>")
    ('low', '&lt;b&gt;')
    >>> label_html("␣the")
    '<span aria-hidden="true">␣the</span><span class="ms-sr">space the</span>'
    """
    said = spoken(label) if marks else label
    if said == label:
        return html.escape(label, quote=True)
    return (
        f'<span aria-hidden="true">{html.escape(label, quote=True)}</span>'
        f'<span class="ms-sr">{html.escape(said, quote=True)}</span>'
    )


def token_spans_html(
    ids: Sequence[int],
    vocab: Mapping[int, bytes],
    *,
    emphasize: Collection[int] = (),
    special_ids: Collection[int] = (),
    max_tokens: int = 5000,
    css: bool = True,
    clip: int = 0,
    breaks: bool = True,
) -> str:
    """A ``<div class="ms-tokens">`` with one span per id (the first ``max_tokens``).

    ``emphasize`` holds positions (indexes into ``ids``) to outline; ``clip``
    shortens long labels and ``breaks=False`` keeps newlines on the line (their ↵ marks
    them) as :func:`token_span` does.  An id
    missing from ``vocab`` is a ValueError.  ``css=False`` leaves out the
    style block: a page that redraws spans often should put :data:`TOKEN_CSS`
    on the page once (a new ``<style>`` makes the browser restyle the whole page).
    """
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, not {max_tokens}")
    emphasize = set(emphasize)
    special_ids = set(special_ids)
    parts: list[str] = [TOKEN_CSS if css else "", '<div class="ms-tokens">']
    shown = ids[:max_tokens]
    for pos, token_id in enumerate(shown):
        try:
            token = vocab[token_id]
        except KeyError:
            raise ValueError(
                f"token id {token_id} at position {pos} is not in the vocab; pass the trainer's vocab"
            ) from None
        parts.append(
            token_span(
                token_id,
                token,
                emphasize=pos in emphasize,
                special=token_id in special_ids,
                clip=clip,
                breaks=breaks,
            )
        )
    if not ids:
        parts.append('<span class="ms-empty">(empty text)</span>')
    if len(ids) > len(shown):
        parts.append(f'<span class="ms-more"> … {len(ids) - len(shown):,} more tokens not shown</span>')
    parts.append("</div>")
    return "".join(parts)


def window_length(ids: Sequence[int], vocab: Mapping[int, bytes], limit_bytes: int) -> int:
    """How many of ``ids`` (from the start) it takes to cover the first ``limit_bytes`` bytes.

    The token that crosses the limit is kept whole; fewer bytes than the
    limit means all of ``ids``.  A page shows ``ids[:n]`` of a long preview
    this way, so the before and after sequences cover the same text.

    >>> window_length([104, 300, 33], {104: b"h", 300: b"ey", 33: b"!"}, 2)
    2
    """
    total = 0
    for n, token_id in enumerate(ids):
        if total >= limit_bytes:
            return n
        total += len(vocab[token_id])
    return len(ids)


def merged_positions(
    before: Sequence[int], after: Sequence[int], *, pair: tuple[int, int], new_id: int
) -> tuple[list[int], list[int]]:
    """Where a merge happened: positions in ``before`` (both halves) and in ``after``.

    Walks both sequences together, so it is exact even where the pair
    appears but was not merged (across a pre-tokenization boundary).  A
    ``before``/``after`` pair that is not one merge of ``pair`` is a ValueError.

    >>> merged_positions([1, 1, 1, 2], [9, 1, 2], pair=(1, 1), new_id=9)
    ([0, 1], [0])
    """
    old: list[int] = []
    new: list[int] = []
    i = j = 0
    while j < len(after):
        if after[j] == new_id and i + 1 < len(before) and (before[i], before[i + 1]) == pair:
            old.extend((i, i + 1))
            new.append(j)
            i += 2
        elif i < len(before) and before[i] == after[j]:
            i += 1
        else:
            raise ValueError(
                f"after[{j}] = {after[j]} does not follow from before[{i}:]; pass the sequences of one merge"
            )
        j += 1
    if i != len(before):
        raise ValueError(
            f"before has {len(before) - i} extra ids at the end; pass the sequences of one merge"
        )
    return old, new


def stage_label(token_id: int, token: bytes, *, special: bool, note: str = "") -> tuple[TokenLabel, int]:
    """The stage's label of a byte-level token (plain text: the stage puts it in the page as text), and
    the columns it takes; ``note`` ends its title.

    A token cut inside a character carries the bytes on either side of the cut (``closes``,
    ``opens``), so the stage can show the character above the tokens that make it:

    >>> label, columns = stage_label(7, b"<b>", special=False)
    >>> label.text, columns, label.closes, label.opens
    ('<b>', 3, (), ())
    >>> label, _ = stage_label(300, "能力".encode()[2:4], special=False)
    >>> label.text, [hex(b) for b in label.closes], [hex(b) for b in label.opens]
    ('<BD><E5>', ['0xbd'], ['0xe5'])
    """
    text = clip_label(token.decode("utf-8") if special else screen_label(token), LABEL_COLUMNS)
    title = token_title(token_id, token, special=special) + (f" · {note}" if note else "")
    said = "" if special else spoken(text)
    closes, opens = (b"", b"") if special else broken_ends(token)
    label = TokenLabel(
        text=text,
        classes=token_class(token_id, token, special=special),
        title=title,
        breaks=0 if special else min(2, token.count(b"\n")),
        spoken="" if said == text else said,
        closes=tuple(closes),
        opens=tuple(opens),
    )
    return label, label_width(text)
