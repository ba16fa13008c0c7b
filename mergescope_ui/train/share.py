"""What the Train page's link carries beyond the bound widgets: the step, pasted text, regex, specials (pure).

The bound widgets carry the text's name, the settings, the quiz, the what-if and presenter mode; this
adds ``step`` (0 left out), ``text`` (pasted text packed by :func:`pack_text`, left out past
:data:`MAX_LINK_TEXT`: about 10,000 characters of prose), ``regex`` (pattern ``custom``), ``specials``
(one a line) and ``view`` (``start``: the stage's tab showing the text from its start).

>>> state = LinkState(step=7, text="low lower <b>", regex=None, specials="<|endoftext|>")
>>> params = to_query(state)
>>> sorted(params), params["step"]
(['specials', 'step', 'text'], '7')
>>> from_query(params) == (state, [])
True
>>> from_query({"step": "-1", "text": "not base64!"})[1]
["ignored step='-1': not a step number", 'ignored text: not a text this page wrote (a link cut short?)']
>>> to_query(LinkState(step=2, tab="head")), from_query({"view": "start"})[0].tab
({'step': '2', 'view': 'start'}, 'head')
"""

from __future__ import annotations

import base64
import binascii
import functools
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

STEP, TEXT, REGEX, SPECIALS, VIEW = "step", "text", "regex", "specials", "view"
PARAM_NAMES = (STEP, TEXT, REGEX, SPECIALS, VIEW)
VIEWS = {"start": "head"}  # ?view= -> the stage's tab (its default, "places", is not in the link)
MAX_LINK_TEXT = 6_000  # characters of the packed text a link may carry (URLs past ~8 KB fail on some hosts)
MAX_STEP_DIGITS = 7
MAX_PLAIN = 4_000  # characters of a regex or of the special tokens a link may carry
MAX_UNPACKED = 1_000_000  # bytes a packed text may unpack to (a link is never a zip bomb)


@dataclass(frozen=True, slots=True)
class LinkState:
    """The part of the moment the widgets do not carry; ``None`` means "not in the link"."""

    step: int = 0
    text: str | None = None
    regex: str | None = None
    specials: str | None = None
    tab: str = "places"


@functools.lru_cache(maxsize=8)
def pack_text(text: str) -> str:
    """The text as it travels in a link: UTF-8, zlib level 9, base64url without ``=``.

    >>> pack_text("low low low low")
    'eNrLyS9XyEFgAC0jBak'
    >>> unpack_text(pack_text("语言 🙂")) == "语言 🙂"
    True
    """
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


def unpack_text(value: str) -> str:
    """The text a link carries (ValueError: it is not one this page wrote)."""
    try:
        packed = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_UNPACKED)
        if inflater.unconsumed_tail or not inflater.eof:
            raise ValueError("a link cut short, or a text over a million bytes")
        return raw.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as exc:
        raise ValueError("not a text this page wrote (a link cut short?)") from exc


def text_fits(text: str) -> bool:
    """True when ``text`` packs into at most :data:`MAX_LINK_TEXT` characters.

    >>> text_fits("low " * 5000), text_fits("".join(chr(0x4E00 + i * 7919 % 20000) for i in range(9000)))
    (True, False)
    """
    return len(pack_text(text)) <= MAX_LINK_TEXT


def to_query(state: LinkState) -> dict[str, str]:
    """The parameters for ``state`` (a text that does not fit is left out: :func:`text_fits`)."""
    out: dict[str, str] = {}
    if state.step > 0:
        out[STEP] = str(state.step)
    if state.text and text_fits(state.text):
        out[TEXT] = pack_text(state.text)
    if state.regex and len(state.regex) <= MAX_PLAIN:
        out[REGEX] = state.regex
    if state.specials and len(state.specials) <= MAX_PLAIN:
        out[SPECIALS] = state.specials
    for name, tab in VIEWS.items():
        if tab == state.tab:
            out[VIEW] = name
    return out


def _one(value: str | list[str] | None) -> str | None:
    if isinstance(value, list):
        return value[-1] if value else None
    return value


def from_query(params: Mapping[str, str | list[str]]) -> tuple[LinkState, list[str]]:
    """The state a link asks for, and a note for each part that was ignored (never raises)."""
    notes: list[str] = []
    value = {name: _one(params.get(name)) for name in PARAM_NAMES}
    step, text, tab = 0, None, "places"
    if (raw := value[STEP]) is not None:
        if raw.isascii() and raw.isdigit() and len(raw) <= MAX_STEP_DIGITS:
            step = int(raw)
        else:
            notes.append(f"ignored {STEP}={raw[:40]!r}: not a step number")
    for name, limit in ((TEXT, MAX_LINK_TEXT), (REGEX, MAX_PLAIN), (SPECIALS, MAX_PLAIN)):
        if (raw := value[name]) is not None and len(raw) > limit:
            notes.append(f"ignored {name}: {len(raw):,} characters, over the {limit:,} a link carries")
            value[name] = None
        elif raw is not None and name == TEXT:
            try:
                text = unpack_text(raw)
            except ValueError as exc:
                notes.append(f"ignored {TEXT}: {exc}")
    if (raw := value[VIEW]) is not None:
        if raw in VIEWS:
            tab = VIEWS[raw]
        else:
            notes.append(f"ignored {VIEW}={raw[:40]!r}: use {' or '.join(VIEWS)}")
    state = LinkState(step=step, text=text, regex=value[REGEX], specials=value[SPECIALS], tab=tab)
    return state, notes
