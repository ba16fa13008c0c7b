// The token view: the counts and the tokens. The server's spans, or (when the browser holds the
// tokenizer's table) the spans of the text as typed, encoded here at every key, with the counts of that
// text. Clicks report a position; see clickable_tokens.py. User text goes in with textContent only.
/**
 * The view's element, with what it keeps across redraws: the last data (msData), the table it asked
 * the server for again (msAsked), what it last drew from the text as typed (msDrawn), and that its
 * page-wide listeners are on (msListening).
 * @typedef {{key: string, text: string, specials: boolean, marks: boolean}} Drawn
 * @typedef {HTMLDivElement & {msData: LiveView, msAsked?: string | null, msDrawn?: Drawn | null,
 *   msListening?: boolean}} Host
 */

/** @param {FrontendRendererArgs<{picked: number, missing: string}, LiveView>} component */
export default function (component) {
  const { data, parentElement, setTriggerValue, setStateValue } = component;
  let host = /** @type {Host | null} */ (parentElement.querySelector(".ms-click-host"));
  if (!host) {
    host = /** @type {Host} */ (document.createElement("div"));
    host.className = "ms-click-host";
    const counts = document.createElement("dl");
    counts.className = "ms-counts";
    for (const [name, label] of data.count_labels) {
      const item = document.createElement("div");
      const term = document.createElement("dt");
      const value = document.createElement("dd");
      term.textContent = label;
      value.dataset.count = name;
      item.append(term, value);
      counts.appendChild(item);
    }
    const view = document.createElement("div");
    view.className = "ms-view";
    host.append(counts, view);
    parentElement.appendChild(host);
  }
  const view = /** @type {HTMLDivElement} */ (host.querySelector(".ms-view"));
  host.msData = data;
  const encoders = /** @type {MsEncoders} */ (globalThis.msEncoder); // encoder.js runs first
  const encoder = encoders.get(data.table_key, data.table);
  // A table the server thinks was sent but this page never got (a script run cut short): ask again.
  if (data.table_key && !encoder && !data.table && host.msAsked !== data.table_key) {
    host.msAsked = data.table_key;
    setStateValue("missing", data.table_key);
  } else if (encoder && data.table && host.msAsked === data.table_key) {
    host.msAsked = null;
    setStateValue("missing", "");  // got it: the server stops sending it
  }
  /** @param {number} characters @param {number} bytes @param {number} tokens */
  const showCounts = (characters, bytes, tokens) => {
    /** @param {number} n */
    const ratio = (n) => (tokens ? (n / tokens).toFixed(2) : "—");
    /** @type {Record<string, string>} */
    const values = {
      characters: characters.toLocaleString("en-US"), bytes: bytes.toLocaleString("en-US"),
      tokens: tokens.toLocaleString("en-US"), bytes_per_token: ratio(bytes), chars_per_token: ratio(characters),
    };
    for (const dd of /** @type {NodeListOf<HTMLElement>} */ (host.querySelectorAll(".ms-counts dd"))) {
      const value = values[/** @type {string} */ (dd.dataset.count)];
      if (dd.textContent !== value) dd.textContent = value;
    }
  };
  // Replace the spans: built here from ids (an element), or the server's markup parsed into nodes.
  /** @param {string | HTMLElement} box */
  const place = (box) => {
    const old = view.querySelector(".ms-tokens");
    const top = old && host.dataset.page === String(host.msData.page) ? old.scrollTop : 0;
    if (typeof box === "string") {
      // Built and escaped in Python (clickable_spans_html): parsed inert, never run, then moved in.
      const doc = new DOMParser().parseFromString(box, "text/html");
      view.replaceChildren(...doc.body.childNodes);
    } else view.replaceChildren(box);
    host.dataset.page = String(host.msData.page);
    const now = view.querySelector(".ms-tokens");
    if (now) now.scrollTop = top;
  };
  // The text as typed, encoded here: true when drawn (or already on screen).
  const live = () => {
    const d = host.msData;
    const text = (globalThis.msLiveText || {})[d.box];
    const enc = encoders.get(d.table_key, null);
    const fits = typeof text === "string" && text.length <= d.live_chars && text.isWellFormed();
    if (!enc || d.page !== 1 || !fits) return false;
    const drawn = host.msDrawn;
    if (drawn && drawn.key === d.table_key && drawn.text === text && drawn.specials === d.specials &&
        drawn.marks === d.marks) return true;
    let ids;
    try { ids = enc.encode(text, d.specials); } catch (e) { return false; }
    const box = /** @type {TokenBox | null} */ (view.querySelector(".ms-tokens"));
    if (drawn && drawn.key === d.table_key && box && box.msBlocks) enc.patch(box, ids, d.marks, d.max_tokens);
    else place(enc.spans(ids, d.marks, d.max_tokens));
    const pairs = (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) || []).length;
    showCounts(text.length - pairs, UTF8.encode(text).length, ids.length);
    host.msDrawn = { key: d.table_key, text, specials: d.specials, marks: d.marks };
    host.dataset.sig = "";
    return true;
  };
  if (encoder && live()) {
    // drawn from the text as typed
  } else if (host.dataset.sig !== data.sig) {
    place(data.html);
    showCounts(data.characters, data.bytes, data.tokens);
    host.dataset.sig = data.sig;
    host.msDrawn = null;
  }
  // One tab stop for all the tokens (the picked one, else the first); arrow keys move between them.
  /** @param {HTMLElement | null} t */
  const stop = (t) => {
    host.querySelectorAll('.ms-t[tabindex="0"]').forEach((e) => e.removeAttribute("tabindex"));
    if (t) t.tabIndex = 0;
  };
  /** A token by its position (a number, or the string of one in data-i); null: none.
   * @param {number | string | null | undefined} i @returns {HTMLElement | null} */
  const token = (i) => (i === null || i === undefined ? null : host.querySelector(`.ms-t[data-i="${Number(i)}"]`));
  /** @param {number | string | null | undefined} i */
  const mark = (i) => {
    host.querySelectorAll(".ms-picked").forEach((e) => e.classList.remove("ms-picked"));
    const t = token(i);
    if (t) t.classList.add("ms-picked");
    stop(t || /** @type {HTMLElement | null} */ (host.querySelector(".ms-t[data-i]")));
  };
  mark(data.picked);
  // A token picked from the keyboard keeps the focus while its details open (the page's run may redraw
  // what had it, and the browser then drops it to the page's start), until the user acts elsewhere.
  const FOCUS = (globalThis.msTokenFocus = globalThis.msTokenFocus || { i: null });
  const refocus = () => {
    const t = token(FOCUS.i);
    if (FOCUS.i === null || !t || !host.isConnected) return;
    const at = document.activeElement;
    if (at !== t && (!at || at === document.body || host.contains(at) || at.closest('[role="tab"]'))) {
      stop(t);
      t.focus({ preventScroll: true });
    }
  };
  const watch = () => { for (const ms of [0, 50, 150, 400, 1000]) setTimeout(refocus, ms); };
  watch();
  if (!host.msListening) {
    host.msListening = true;
    globalThis.addEventListener("ms-live-text", (event) => {
      if (event.detail === host.msData.box && host.isConnected && live()) mark(null);
    });
    host.addEventListener("focusout", () => { if (FOCUS.i !== null) watch(); });
    /** @param {KeyboardEvent | PointerEvent} e */
    const elsewhere = (e) => {
      const keys = ["Enter", " ", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"];
      const at = /** @type {Partial<Element>} */ (e.target); // an element, or the document
      if (e.type === "pointerdown" || !at.closest || !at.closest(".ms-click-host .ms-t") ||
          !keys.includes(/** @type {KeyboardEvent} */ (e).key)) FOCUS.i = null;
    };
    document.addEventListener("keydown", elsewhere, true);
    document.addEventListener("pointerdown", elsewhere, true);
  }
  /** @param {HTMLElement} t @param {boolean} byKeyboard */
  const pick = (t, byKeyboard) => {
    mark(t.dataset.i);
    FOCUS.i = byKeyboard ? Number(t.dataset.i) : null;
    setTriggerValue("picked", Number(t.dataset.i));
  };
  host.onclick = (e) => {
    const t = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(".ms-t[data-i]"));
    if (t && host.contains(t)) pick(t, false);
  };
  host.onkeydown = (e) => {
    const t = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(".ms-t[data-i]"));
    if (!t) return;
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(t, true); return; }
    const step = /** @type {Record<string, number>} */ ({ ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 })[e.key];
    const next = step && /** @type {HTMLElement | null} */ (host.querySelector(`.ms-t[data-i="${Number(t.dataset.i) + step}"]`));
    if (next) {
      e.preventDefault();
      stop(next);
      next.focus();
      if (FOCUS.i !== null) FOCUS.i = Number(next.dataset.i);
    }
  };
}

const UTF8 = new TextEncoder();
