"""The stage as one self-contained HTML file: every step of a window drawn by the stage's own script, with
no server and no network (pure: no Streamlit).

:func:`offline_html` writes the page: a Content-Security-Policy that lets nothing be fetched (only the
page's own script runs, by its hash), the page's CSS, ``assets/stage.html``, and one module script made
of ``assets/stage.js`` (its ``drawStage``, unchanged) and ``assets/offline.js`` (the bridge in place of
Streamlit's).  The records go in a ``<script type="application/json">`` block, as :func:`~.contract.wire`
makes them, escaped so that no string in them (a token ``</script>``) can end the block; the script reads
them as text.  A view's card and chart (element trees, most of the file) go packed (:func:`pack_blocks`):
each element a list ``[tag, attrs, children]``, each string that recurs an index into one table of
strings; offline.js unpacks them before the stage sees them.  Without scripts, ``fallback`` shows (a
``<noscript>``).

>>> data = json_block({"token": "</script><img src=x onerror=alert(1)>"})
>>> "</script" in data, json.loads(data) == {"token": "</script><img src=x onerror=alert(1)>"}
(False, True)
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .contract import Window, wire

ASSETS = Path(__file__).with_name("assets")
IMPORT_LINE = 'import drawStage from "./stage.js";\n'
"""offline.js's first statement, for the type checker: in the file, the two scripts share one module."""
BLOCKED = "default-src 'none'; base-uri 'none'; form-action 'none'"
"""What the page may load: nothing (its scripts by hash and its inline styles are added to this)."""
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


@dataclass(frozen=True, slots=True, kw_only=True)
class OfflinePage:
    """What an offline stage page holds besides the stage.

    ``title`` and ``about`` (plain text: escaped here) head the page; ``window`` holds every step it
    shows; ``before_first`` and ``after_last`` (plain text) are the notices for a step outside it.
    ``css`` is constant CSS (``<style>`` blocks); ``presenter_css`` the presenter mode's rules (no
    ``<style>``), applied while the page's Presenter button is pressed.  ``fallback`` (shown without
    scripts) and ``after`` (below the stage) are HTML built from escaped parts.
    """

    title: str
    about: str
    window: Window
    before_first: str
    after_last: str
    css: str
    presenter_css: str
    fallback: str
    after: str


def json_block(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` is left as
    itself (each is a ``\\u`` escape, the same string to ``JSON.parse``), nor a line separator."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in _JSON_ESCAPES.items():
        text = text.replace(char, escape)
    return text


BLOCKS = ("card", "pairs")
"""The fields of a wired step view that hold element trees (packed by :func:`pack_blocks`)."""


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
        return
    yield node["tag"]
    for name, value in node["attrs"]:
        yield name
        yield value
    for child in node["children"]:
        yield from _strings(child)


def pack_blocks(views: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Wired step views with their element trees packed, and the table of the strings they share:
    an element is ``[tag, attrs, children]``, a string that recurs its index in the table (an element
    tree holds no numbers of its own, so a number is always an index).

    >>> inner = {"tag": "em", "attrs": [], "children": []}
    >>> tree = [{"tag": "em", "attrs": [["class", "x"]], "children": ["hi", inner]}]
    >>> packed, strings = pack_blocks([{"card": tree, "pairs": [], "step": 1}])
    >>> packed[0]["card"], strings
    ([[0, [['class', 'x']], ['hi', [0, [], []]]]], ['em'])
    >>> unpack_blocks(packed, strings)[0]["card"] == tree
    True
    """
    counts = Counter(s for view in views for name in BLOCKS for node in view[name] for s in _strings(node))
    strings = [s for s, n in counts.most_common() if n > 1 and len(s) > 1]
    index = {s: i for i, s in enumerate(strings)}

    def pack(node: Any) -> Any:
        if isinstance(node, str):
            return index.get(node, node)
        attrs = [[index.get(a, a), index.get(v, v)] for a, v in node["attrs"]]
        return [index.get(node["tag"], node["tag"]), attrs, [pack(child) for child in node["children"]]]

    packed = [{**view, **{name: [pack(node) for node in view[name]] for name in BLOCKS}} for view in views]
    return packed, strings


def unpack_blocks(views: list[dict[str, Any]], strings: list[str]) -> list[dict[str, Any]]:
    """:func:`pack_blocks` undone (what offline.js does in the browser)."""

    def text(value: Any) -> str:
        return strings[value] if isinstance(value, int) else str(value)

    def unpack(node: Any) -> Any:
        if not isinstance(node, list):
            return text(node)
        tag, attrs, children = node
        return {
            "tag": text(tag),
            "attrs": [[text(a), text(v)] for a, v in attrs],
            "children": [unpack(child) for child in children],
        }

    return [{**view, **{name: [unpack(node) for node in view[name]] for name in BLOCKS}} for view in views]


def stage_script() -> str:
    """stage.js, then offline.js in a block of its own (its names apart from stage.js's), as one module."""
    stage = (ASSETS / "stage.js").read_text(encoding="utf-8")
    bridge = (ASSETS / "offline.js").read_text(encoding="utf-8")
    if IMPORT_LINE not in bridge:
        raise ValueError(f"offline.js must import the stage as {IMPORT_LINE.strip()!r}; restore that line")
    code = stage + "\n{\n" + bridge.replace(IMPORT_LINE, "", 1) + "}\n"
    if "</script" in code.lower() or "<!--" in code:
        raise ValueError("the stage's script holds '</script' or '<!--'; write it another way")
    return code


def script_hash(code: str) -> str:
    """The CSP source that lets exactly ``code`` run as an inline script."""
    digest = hashlib.sha256(code.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def offline_html(page: OfflinePage) -> str:
    """The whole page (see the module docstring)."""
    code = "\n" + stage_script()  # the script element's text, as hashed
    policy = f"{BLOCKED}; script-src {script_hash(code)}; style-src 'unsafe-inline'"
    window = wire(page.window)
    window["views"], strings = pack_blocks(window["views"])
    data = {
        "window": window,
        "strings": strings,
        "before_first": page.before_first,
        "after_last": page.after_last,
    }
    stage = (ASSETS / "stage.html").read_text(encoding="utf-8")
    css = (ASSETS / "stage.css").read_text(encoding="utf-8")
    own = (ASSETS / "offline.css").read_text(encoding="utf-8")
    return "".join(
        [
            '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
            f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy, quote=True)}">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            '<meta name="referrer" content="no-referrer">\n',
            f"<title>{html.escape(page.title)}</title>\n",
            page.css,
            f"<style>\n{css}</style>\n<style>\n{own}</style>\n",
            f'<style id="ms-presenter" media="not all">\n{page.presenter_css}</style>\n',
            '</head>\n<body>\n<main class="ms-lesson">\n<header class="ms-lesson-top">\n',
            f"<h1>{html.escape(page.title)}</h1>\n",
            f'<p class="ms-lesson-about">{html.escape(page.about)}</p>\n',
            '<div class="ms-lesson-tools">'
            '<button type="button" class="ms-lesson-presenter" aria-pressed="false" '
            'title="Large text, the stage fills the window (for a projector)">Presenter mode</button>'
            '<button type="button" class="ms-lesson-theme" title="Light, dark, or as the system is">'
            "Theme: auto</button></div>\n</header>\n",
            f"<noscript>\n{page.fallback}\n</noscript>\n",
            f'<div class="ms-lesson-stage">\n{stage}</div>\n',
            page.after,
            "\n</main>\n",
            f'<script type="application/json" id="ms-lesson-data">{json_block(data)}</script>\n',
            f'<script type="module">{code}</script>\n',
            "</body>\n</html>\n",
        ]
    )
