"""HTML made on the server, sent to the browser as a tree of elements and text, never as markup.

The stage's card and chart are HTML blocks built in Python from escaped parts
(:mod:`mergescope_ui.train.cards`, :mod:`mergescope_ui.train.pair_bars`, the scheme and encode
producers).  The browser does not parse them: :func:`fragment` reads each block here into
:class:`Element` records whose text is plain text, and ``stage.js`` builds the same elements
with ``createElement``, ``setAttribute`` and text nodes.  A token's text, whatever it holds,
can only ever become a text node.

Only the tags and attributes the producers use are allowed (:data:`TAGS`, :data:`ATTRIBUTES`,
the same sets in ``stage.js``; a test compares them): anything else is a producer's mistake and
raises ``ValueError``.

>>> (p,) = fragment('<p class="ms-note">a &lt;b&gt; <b>7</b></p>')
>>> p.tag, p.attrs, p.children
('p', (('class', 'ms-note'),), ('a <b> ', Element(tag='b', attrs=(), children=('7',))))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from html.parser import HTMLParser

TAGS = frozenset(
    {"div", "span", "p", "b", "i", "em", "strong", "code", "small", "h4", "h5", "br", "ul", "ol", "li"}
    | {"table", "thead", "tbody", "tr", "th", "td", "abbr", "sub", "sup", "mark", "s", "u"}
    | {"details", "summary"}
)
VOID = frozenset({"br"})  # elements with no children and no end tag
ATTRIBUTES = frozenset(
    {"class", "title", "style", "role", "aria-label", "aria-hidden", "lang", "dir", "tabindex", "open"}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Element:
    """One element of a block: its tag, its attributes (name, value) in order, and its children, each
    a plain text or an element."""

    tag: str
    attrs: tuple[tuple[str, str], ...]
    children: tuple[Element | str, ...]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, list[tuple[str, str]], list[Element | str]]] = [("", [], [])]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            raise ValueError(f"<{tag}> is not an element the stage draws: use one of {sorted(TAGS)}")
        named = [(name, value or "") for name, value in attrs]
        for name, _ in named:
            if name not in ATTRIBUTES:
                raise ValueError(f"the stage sets no attribute {name!r} (<{tag}>): use {sorted(ATTRIBUTES)}")
        if tag in VOID:
            self.stack[-1][2].append(Element(tag=tag, attrs=tuple(named), children=()))
        else:
            self.stack.append((tag, named, []))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if len(self.stack) < 2 or self.stack[-1][0] != tag:
            raise ValueError(f"</{tag}> closes no open <{tag}>: the block's tags must nest")
        name, attrs, children = self.stack.pop()
        self.stack[-1][2].append(Element(tag=name, attrs=tuple(attrs), children=tuple(children)))

    def handle_data(self, data: str) -> None:
        children = self.stack[-1][2]
        if children and isinstance(children[-1], str):
            children[-1] += data
        else:
            children.append(data)


@functools.lru_cache(maxsize=4096)
def fragment(html: str) -> tuple[Element | str, ...]:
    """The block ``html`` as a tree: its top-level texts and elements (entities read as the characters
    they stand for).  Raises ValueError for a tag or attribute not allowed, or tags that do not nest.

    >>> fragment("")
    ()
    >>> fragment("x<br>y")
    ('x', Element(tag='br', attrs=(), children=()), 'y')
    >>> fragment("<script>alert(1)</script>")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: <script> is not an element the stage draws: use one of ['abbr', 'b', ...]
    """
    reader = _Reader()
    reader.feed(html)
    reader.close()
    if len(reader.stack) != 1:
        raise ValueError(f"<{reader.stack[-1][0]}> is never closed: the block's tags must nest")
    return tuple(reader.stack[0][2])
