"""A text box that reports its text while you type (a Streamlit components v2 element, no iframe).

Streamlit's ``st.text_area`` sends its value only on Ctrl+Enter or when it
loses focus, so tokens would lag behind the text.  This box sends it a short
moment after the last key (:data:`DEBOUNCE_MS`), for texts up to
:data:`LIVE_BYTES`; past that (a re-tokenization per pause would feel slow)
it says, right under the box, that the tokens update on Ctrl+Enter (or when
you click elsewhere).

No keystroke is lost: the box in the browser holds the text; Python sends a
text back only when the page itself changes it (an example button, a link),
and marks that with a new ``revision``.  The box takes Python's text only
for a revision it has not seen, so a rerun that answers an older keystroke
never overwrites what was typed since.  A text typed but not yet sent
survives the box being drawn again.

Each paste inserts at most :data:`~mergescope_ui.shared.inputs.upload_widgets.MAX_PASTE_CHARS`
characters, as the other pages' text areas do (:mod:`mergescope_ui.shared.inputs.paste_guard`), and the
note under the box says it was cut: chromium takes about 90 s to insert a million.

The text arrives in ``session_state[state_key]`` through ``on_change``
(:func:`live_text_box`); nothing user-typed is ever rendered as HTML here.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ..shared.inputs.upload_widgets import MAX_PASTE_CHARS

DEBOUNCE_MS = 300
LIVE_BYTES = 100_000  # "about 100 KB": up to here the tokens follow every pause in typing
MAX_CHARS = 2_000_000

_JS = r"""
export default function (component) {
  const { data, parentElement, setStateValue } = component;
  let root = parentElement.querySelector(".ms-box");
  if (!root) {
    root = document.createElement("div");
    root.className = "ms-box";
    const made = (tag, cls) => Object.assign(document.createElement(tag), { className: cls });
    const area = made("textarea", "ms-box-area");
    area.spellcheck = false;
    area.setAttribute("autocomplete", "off");
    const said = made("div", "ms-box-note");
    said.setAttribute("aria-live", "polite");
    root.append(made("label", "ms-box-label"), area, said);
    parentElement.appendChild(root);
  }
  const label = root.querySelector("label");
  const box = root.querySelector("textarea");
  const note = root.querySelector(".ms-box-note");
  box.id = "ms-box-" + data.name;
  label.htmlFor = box.id;
  label.textContent = data.label;
  box.maxLength = data.max_chars;
  box.placeholder = data.placeholder || "";
  box.style.minHeight = data.height + "px";
  // What was typed and not yet sent, kept across redraws of the box (per box, per revision).
  const typed = (window.__msTypedText = window.__msTypedText || {});
  // A text box turns every \r\n and \r into \n. The text (root.full) keeps the page's line ends:
  // an edit replaces only the stretch that changed, so a \r from a link survives typing elsewhere.
  const follow = () => {
    const full = root.full, was = root.shown, now = box.value;
    if (now === was) return;
    if (!full.includes("\r")) { root.full = now; root.shown = now; return; }
    let p = 0;
    while (p < was.length && p < now.length && was[p] === now[p]) p++;
    let s = 0;
    const m = was.length - 1, n = now.length - 1;
    while (s < was.length - p && s < now.length - p && was[m - s] === now[n - s]) s++;
    // where the first p (and the last s) characters of the box's text end in the full text
    let a = 0;
    for (let k = 0; k < p; k++) a += full[a] === "\r" && full[a + 1] === "\n" ? 2 : 1;
    let b = full.length;
    for (let k = 0; k < s; k++) b -= full[b - 1] === "\n" && full[b - 2] === "\r" ? 2 : 1;
    root.full = full.slice(0, a) + now.slice(p, now.length - s) + full.slice(b);
    root.shown = now;
  };
  const value = () => { follow(); return root.full; };
  if (box.dataset.rev !== String(data.rev)) {
    const mine = typed[data.name];
    const keep = mine && mine.rev === data.rev;
    const text = keep ? mine.value : data.text;
    box.value = text;
    root.full = text;
    root.shown = box.value;
    box.dataset.rev = String(data.rev);
    root.sent = keep ? null : data.text;
  }
  // The text as typed, for the token view that encodes it in the browser (clickable_tokens.py).
  const publish = () => {
    (globalThis.msLiveText = globalThis.msLiveText || {})[data.name] = value();
    globalThis.dispatchEvent(new CustomEvent("ms-live-text", { detail: data.name }));
  };
  const kb = (n) => (n / 1000).toLocaleString("en-US", { maximumFractionDigits: 0 });
  const size = (v) => (v.length > data.live_bytes ? v.length : new TextEncoder().encode(v).length);
  const send = () => {
    clearTimeout(root.timer);
    root.timer = null;
    const text = value();
    if (text !== root.sent) {
      root.sent = text;
      delete typed[data.name];
      setStateValue("text", text);
    }
  };
  const live = () => {
    const n = size(value());
    const ok = n <= data.live_bytes;
    root.classList.toggle("ms-box-manual", !ok || root.cut);
    // Both sizes in bytes when rounding to KB would make them read the same ("100 KB, over 100 KB").
    const [mine, limit] = kb(n) === kb(data.live_bytes) ?
      [n, data.live_bytes].map((v) => `${v.toLocaleString("en-US")} bytes`) :
      [n, data.live_bytes].map((v) => `${kb(v)} KB`);
    note.textContent = (root.cut ?
      `Your paste was cut at ${data.max_paste.toLocaleString("en-US")} characters (a longer paste ` +
      "freezes the browser for minutes); paste the rest in parts. " : "") + (ok ? "" :
      `This text is ${mine}, over the ${limit} that update as you type: the tokens update when you ` +
      "press Ctrl+Enter (or click outside the box).");
    return ok;
  };
  // The browser takes about 90 s to insert a million pasted characters: a paste inserts at most
  // max_paste of them, at once (never half an emoji), and the note says so.
  box.onpaste = (event) => {
    const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
    const room = data.max_paste;  // per paste: the rest can follow in further pastes
    root.cut = text.length > room;
    if (!root.cut) return;
    event.preventDefault();
    let cut = Math.max(0, room);
    if (cut > 0 && /[\uD800-\uDBFF]/.test(text[cut - 1])) cut -= 1;
    document.execCommand("insertText", false, text.slice(0, cut));
    live();
    publish();
  };
  box.oninput = () => {
    typed[data.name] = { rev: data.rev, value: value() };
    publish();
    clearTimeout(root.timer);
    if (live()) root.timer = setTimeout(send, data.debounce_ms);
  };
  box.onkeydown = (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); send(); }
  };
  box.onblur = send;
  live();
  publish();
  if (root.sent === null) send();  // a text typed before the box was drawn again
  return () => { if (root.timer) send(); };
}
"""

_CSS = """
.ms-box{display:flex;flex-direction:column;gap:.25rem;font-family:var(--st-font);}
.ms-box-label{font-size:.875rem;color:var(--st-text-color);}
.ms-box-area{width:100%;box-sizing:border-box;resize:vertical;padding:.6rem .75rem;font:inherit;
  font-size:1rem;line-height:1.5;color:var(--st-text-color);background:var(--st-secondary-background-color);
  border:1px solid transparent;border-radius:var(--st-base-radius,.5rem);outline:none;}
.ms-box-area:focus{border-color:var(--st-primary-color);}
.ms-box-note{font-size:.875rem;min-height:0;color:var(--st-text-color);opacity:.75;}
.ms-box-manual .ms-box-area{border-color:rgba(232,89,12,.6);}
.ms-box-manual .ms-box-note{opacity:1;}
"""

_BOX = st.components.v2.component("mergescope_live_text", js=_JS, css=_CSS, isolate_styles=False)


def live_text_box(
    label: str,
    *,
    key: str,
    state_key: str,
    revision: int,
    height: int = 130,
    placeholder: str = "",
    on_change: Callable[[], None] | None = None,
) -> None:
    """Draw the box; what the user types lands in ``session_state[state_key]`` (then ``on_change``).

    ``revision`` changes whenever the page itself sets ``session_state[state_key]``
    (the box then shows that text); ``label`` and ``placeholder`` are the page's own words.
    """
    text = st.session_state.get(state_key, "")

    def copy() -> None:
        reported = (st.session_state.get(key) or {}).get("text")
        if isinstance(reported, str):
            st.session_state[state_key] = reported[:MAX_CHARS]
            if on_change is not None:
                on_change()

    _BOX(
        key=key,
        data={
            "name": key,
            "label": label,
            "text": text,
            "rev": revision,
            "height": height,
            "placeholder": placeholder,
            "live_bytes": LIVE_BYTES,
            "max_chars": MAX_CHARS,
            "max_paste": MAX_PASTE_CHARS,
            "debounce_ms": DEBOUNCE_MS,
        },
        default={"text": text},
        on_text_change=copy,
    )
