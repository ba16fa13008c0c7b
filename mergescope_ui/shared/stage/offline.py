"""The stage as one self-contained HTML file: every step of a window drawn by the stage's own script, with
no server and no network (pure: no Streamlit).

:func:`offline_html` writes the page: a Content-Security-Policy that lets nothing be fetched (only the
page's own script runs, by its hash), the page's CSS, ``assets/stage.html``, and one module script made
of ``assets/stage.js`` (its ``drawStage``, unchanged) and ``assets/offline.js`` (the bridge in place of
Streamlit's).  The records go in a ``<script type="application/json">`` block, as :func:`~.contract.wire`
makes them, escaped so that no string in them (a token ``</script>``) can end the block; the script reads
them as text.  Without scripts, ``fallback`` shows (a ``<noscript>``).

>>> data = json_block({"token": "</script><img src=x onerror=alert(1)>"})
>>> "</script" in data, json.loads(data) == {"token": "</script><img src=x onerror=alert(1)>"}
(False, True)
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
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
    data = {
        "window": wire(page.window),
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
