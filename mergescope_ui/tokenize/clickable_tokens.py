"""The text as coloured token spans you can click (a Streamlit components v2 element, no iframe).

The spans are the ones every view uses
(:func:`mergescope_ui.shared.token_html.token_span`: escaped label, escaped
tooltip), each marked with its position in the text (``data-i``).  A click,
or Enter on a focused token, reports that position back to Python as a
trigger value; the picked token is outlined at once in the browser, before
Python answers with its details.  From the keyboard: Tab reaches the
tokens once, the arrow keys move between them, Enter picks one.

>>> html = clickable_spans_html([104, 60], {104: b"h", 60: b"<"}, start=10)
>>> html.count('data-i="'), 'data-i="11"' in html, "&lt;" in html, "<script" in html
(2, True, True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

import streamlit as st

from mergescope_ui.shared.token_html import token_span

_JS = r"""
export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let host = parentElement.querySelector(".ms-click-host");
  if (!host) {
    host = document.createElement("div");
    host.className = "ms-click-host";
    parentElement.appendChild(host);
  }
  if (host.dataset.sig !== data.sig) {
    const old = host.querySelector(".ms-tokens");
    const top = old && host.dataset.page === String(data.page) ? old.scrollTop : 0;
    host.innerHTML = data.html;  // built and escaped in Python (token_html.token_span)
    host.dataset.sig = data.sig;
    host.dataset.page = String(data.page);
    const box = host.querySelector(".ms-tokens");
    if (box) box.scrollTop = top;
  }
  // One tab stop for all the tokens (the picked one, else the first); arrow keys move between them.
  const stop = (t) => {
    host.querySelectorAll('.ms-t[tabindex="0"]').forEach((e) => e.removeAttribute("tabindex"));
    if (t) t.tabIndex = 0;
  };
  const mark = (i) => {
    host.querySelectorAll(".ms-picked").forEach((e) => e.classList.remove("ms-picked"));
    const t = i === null || i === undefined ? null : host.querySelector(`.ms-t[data-i="${i}"]`);
    if (t) t.classList.add("ms-picked");
    stop(t || host.querySelector(".ms-t[data-i]"));
  };
  mark(data.picked);
  const pick = (t) => { mark(t.dataset.i); setTriggerValue("picked", Number(t.dataset.i)); };
  host.onclick = (e) => {
    const t = e.target.closest(".ms-t[data-i]");
    if (t && host.contains(t)) pick(t);
  };
  host.onkeydown = (e) => {
    const t = e.target.closest(".ms-t[data-i]");
    if (!t) return;
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(t); return; }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    const next = step && host.querySelector(`.ms-t[data-i="${Number(t.dataset.i) + step}"]`);
    if (next) { e.preventDefault(); stop(next); next.focus(); }
  };
}
"""

_CSS = """
.ms-click-host .ms-t[data-i]{cursor:pointer;}
.ms-click-host .ms-t[data-i]:hover{outline:2px solid rgba(28,126,214,.55);outline-offset:1px;}
.ms-click-host .ms-t[data-i]:focus-visible{outline:3px solid #1c7ed6;outline-offset:1px;}
.ms-click-host .ms-t.ms-picked{outline:3px solid #1c7ed6;outline-offset:1px;}
"""

_SPANS = st.components.v2.component("mergescope_clickable_tokens", js=_JS, css=_CSS, isolate_styles=False)


def clickable_spans_html(
    ids: Sequence[int],
    vocab: Mapping[int, bytes],
    *,
    start: int = 0,
    special_ids: Collection[int] = (),
    max_tokens: int = 5000,
) -> str:
    """``<div class="ms-tokens">`` with one span per id, ``data-i`` = its position + ``start``."""
    special = set(special_ids)
    parts = ['<div class="ms-tokens">']
    for pos, token_id in enumerate(ids[:max_tokens], start=start):
        span = token_span(token_id, vocab[token_id], special=token_id in special)
        parts.append(f'<span data-i="{pos}"{span[5:]}')  # span starts with "<span"
    if not ids:
        parts.append('<span class="ms-empty">(empty text)</span>')
    if len(ids) > max_tokens:
        parts.append(f'<span class="ms-more"> … {len(ids) - max_tokens:,} more tokens not shown</span>')
    parts.append("</div>")
    return "".join(parts)


def clickable_tokens(
    html: str, *, key: str, signature: str, page: int, picked: int | None, on_pick: Callable[[int], None]
) -> None:
    """Draw ``html`` (from :func:`clickable_spans_html`); a click calls ``on_pick(position)``.

    ``signature`` names the content (tokenizer, text, page): the browser replaces the spans only when
    it changes, and keeps the box's scroll position within one page.
    """

    def clicked() -> None:
        value = (st.session_state.get(key) or {}).get("picked")
        if isinstance(value, int) and not isinstance(value, bool):
            on_pick(value)

    _SPANS(
        key=key,
        data={"html": html, "sig": signature, "page": page, "picked": picked},
        on_picked_change=clicked,
    )
