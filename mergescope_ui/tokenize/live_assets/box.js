// The text box that reports its text while you type (a Streamlit components v2 component, no iframe):
// see live_text.py for what it does and why; the data it gets is live_text_box's. User text goes in
// as the text area's value only.
/**
 * live_text_box's data (live_text.py), field for field.
 * @typedef {{name: string, label: string, text: string, rev: number, height: number, placeholder: string,
 *   live_bytes: number, max_chars: number, max_paste: number, debounce_ms: number}} LiveBox
 * The box's element, with what it keeps across redraws: the text with the page's line ends (full), the
 * text area's value it was made from (shown), the text last sent (null: one typed is still to go), the
 * pending send (timer) and whether the last paste was cut.
 * @typedef {HTMLDivElement & {full: string, shown: string, sent: string | null, timer: number | undefined,
 *   cut: boolean | undefined}} BoxRoot
 */

/** @param {FrontendRendererArgs<{text: string}, LiveBox>} component */
export default function (component) {
  const { data, parentElement, setStateValue } = component;
  let root = /** @type {BoxRoot | null} */ (parentElement.querySelector(".ms-box"));
  if (!root) {
    root = /** @type {BoxRoot} */ (document.createElement("div"));
    root.className = "ms-box";
    /** @type {<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string) => HTMLElementTagNameMap[K]} */
    const made = (tag, cls) => Object.assign(document.createElement(tag), { className: cls });
    const area = made("textarea", "ms-box-area");
    area.spellcheck = false;
    area.setAttribute("autocomplete", "off");
    const said = made("div", "ms-box-note");
    said.setAttribute("aria-live", "polite");
    root.append(made("label", "ms-box-label"), area, said);
    parentElement.appendChild(root);
  }
  const label = /** @type {HTMLLabelElement} */ (root.querySelector("label"));
  const box = /** @type {HTMLTextAreaElement} */ (root.querySelector("textarea"));
  const note = /** @type {HTMLDivElement} */ (root.querySelector(".ms-box-note"));
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
  /** @param {number} n */
  const kb = (n) => (n / 1000).toLocaleString("en-US", { maximumFractionDigits: 0 });
  /** @param {string} v */
  const size = (v) => (v.length > data.live_bytes ? v.length : new TextEncoder().encode(v).length);
  const send = () => {
    clearTimeout(root.timer);
    root.timer = undefined;
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
    root.classList.toggle("ms-box-manual", !ok || !!root.cut); // a boolean: toggle(x, undefined) flips
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
