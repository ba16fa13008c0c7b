"""The Tokenize page's state in the URL: text (up to a length), tokenizer, compare list, page (pure).

>>> to_query(ShareState(text="hi <b>", spec="bytes:none", compare=("char:a", "textchars"), page=2))
{'t': 'hi <b>', 'tok': 'bytes:none', 'cmp': 'char:a,textchars', 'page': '2'}
>>> for note in from_query({"tok": "nope", "page": "x"})[1]:
...     print(*note.split("; "), sep=";\\n")
ignored tok='nope': unknown tokenizer kind 'nope' in 'nope';
use one of ['session', 'tiktoken', 'hf', 'quick', 'upload', 'char', 'textchars', 'bytes']
ignored page='x': not a page number
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bpe_core.pretokenizer import excerpt

from .specs import parse

MAX_SHARED_CHARS = 2000
MAX_COMPARE = 4
MAX_SPEC_CHARS = 160  # longer than any tokenizer a link names (hf:ORG/NAME is at most about 110)
MAX_NOTES = 3  # bad compare entries named one by one; the rest are counted
TEXT, TOKENIZER, COMPARE, PAGE = "t", "tok", "cmp", "page"
PARAM_NAMES = (TEXT, TOKENIZER, COMPARE, PAGE)


@dataclass(frozen=True, slots=True)
class ShareState:
    """What a link reopens; ``None`` / empty means "not in the link"."""

    text: str | None = None
    spec: str | None = None
    compare: tuple[str, ...] = ()
    page: int = 1


def text_fits(text: str, *, limit: int = MAX_SHARED_CHARS) -> bool:
    """True when ``text`` is short enough to travel in a link."""
    return len(text) <= limit


def to_query(state: ShareState, *, limit: int = MAX_SHARED_CHARS) -> dict[str, str]:
    """Query parameters for ``state`` (text left out when longer than ``limit``)."""
    out: dict[str, str] = {}
    if state.text and text_fits(state.text, limit=limit):
        out[TEXT] = state.text
    if state.spec:
        out[TOKENIZER] = state.spec
    if state.compare:
        out[COMPARE] = ",".join(state.compare)
    if state.page > 1:
        out[PAGE] = str(state.page)
    return out


def _one(value: str | list[str] | None) -> str | None:
    if isinstance(value, list):
        return value[-1] if value else None
    return value


def from_query(
    params: Mapping[str, str | list[str]], *, limit: int = MAX_SHARED_CHARS
) -> tuple[ShareState, list[str]]:
    """The state a link asks for, and a note for each part that was ignored (never raises)."""
    notes: list[str] = []
    text = _one(params.get(TEXT))
    if text is not None and not text_fits(text, limit=limit):
        notes.append(f"ignored t: the text is {len(text):,} characters, over the {limit:,} a link may carry")
        text = None
    spec = _one(params.get(TOKENIZER))
    if spec is not None:
        key, problem = _parse(spec)
        if problem is not None:
            notes.append(f"ignored {TOKENIZER}={excerpt(spec)}: {problem}")
        spec = key
    compare: list[str] = []
    raw_cmp = _one(params.get(COMPARE))
    bad = 0
    for item in (raw_cmp or "").split(",") if raw_cmp else []:
        key, problem = _parse(item)
        if key is None:
            bad += 1
            if bad <= MAX_NOTES:
                notes.append(f"ignored {COMPARE} entry {excerpt(item)}: {problem}")
            continue
        if key not in compare and len(compare) < MAX_COMPARE:
            compare.append(key)
    if bad > MAX_NOTES:
        notes.append(f"ignored {bad - MAX_NOTES:,} more {COMPARE} entries")
    page = 1
    raw_page = _one(params.get(PAGE))
    if raw_page is not None:
        if raw_page.isascii() and raw_page.isdigit() and len(raw_page) < 8 and int(raw_page) >= 1:
            page = int(raw_page)
        else:
            notes.append(f"ignored {PAGE}={excerpt(raw_page)}: not a page number")
    return ShareState(text=text, spec=spec, compare=tuple(compare), page=page), notes


def _parse(value: str) -> tuple[str | None, str | None]:
    """``(key, None)`` for a tokenizer a link names, else ``(None, why not)``; the value is quoted
    only as a short, cut prefix.

    >>> _parse("char:lighthouse_story")
    ('char:lighthouse_story', None)
    >>> _parse("x" * 30_000)[1]
    'it is 30,000 characters, longer than any tokenizer name (at most 160)'
    """
    if len(value) > MAX_SPEC_CHARS:
        return (
            None,
            f"it is {len(value):,} characters, longer than any tokenizer name (at most {MAX_SPEC_CHARS})",
        )
    try:
        return parse(value).key(), None
    except ValueError as exc:
        return None, str(exc).replace(repr(value), excerpt(value))
