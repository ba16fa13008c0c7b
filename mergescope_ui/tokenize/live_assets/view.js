// The token view: the server's spans, or (when the browser holds the tokenizer's table) the spans of
// the text as typed, encoded here at every key. Clicks report a position; see clickable_tokens.py.
export default function (component) {
  const { data, parentElement, setTriggerValue, setStateValue } = component;
  let host = parentElement.querySelector(".ms-click-host");
  if (!host) {
    host = document.createElement("div");
    host.className = "ms-click-host";
    parentElement.appendChild(host);
  }
  host.msData = data;
  const encoder = globalThis.msEncoder.get(data.table_key, data.table);
  // A table the server thinks was sent but this page never got (a script run cut short): ask again.
  if (data.table_key && !encoder && !data.table && host.msAsked !== data.table_key) {
    host.msAsked = data.table_key;
    setStateValue("missing", data.table_key);
  } else if (encoder && data.table && host.msAsked === data.table_key) {
    host.msAsked = null;
    setStateValue("missing", "");  // got it: the server stops sending it
  }
  const place = (box) => {
    const old = host.querySelector(".ms-tokens");
    const top = old && host.dataset.page === String(host.msData.page) ? old.scrollTop : 0;
    if (typeof box === "string") host.innerHTML = box;  // built and escaped in Python (token_html.token_span)
    else host.replaceChildren(box);
    host.dataset.page = String(host.msData.page);
    const now = host.querySelector(".ms-tokens");
    if (now) now.scrollTop = top;
  };
  // The text as typed, encoded here: true when drawn (or already on screen).
  const live = () => {
    const d = host.msData;
    const text = (globalThis.msLiveText || {})[d.box];
    const enc = globalThis.msEncoder.get(d.table_key, null);
    const fits = typeof text === "string" && text.length <= d.live_chars && text.isWellFormed();
    if (!enc || d.page !== 1 || !fits) return false;
    const drawn = host.msDrawn;
    if (drawn && drawn.key === d.table_key && drawn.text === text && drawn.specials === d.specials &&
        drawn.marks === d.marks) return true;
    let ids;
    try { ids = enc.encode(text, d.specials); } catch (e) { return false; }
    const box = host.querySelector(".ms-tokens");
    if (drawn && drawn.key === d.table_key && box && box.msBlocks) enc.patch(box, ids, d.marks, d.max_tokens);
    else place(enc.spans(ids, d.marks, d.max_tokens));
    host.msDrawn = { key: d.table_key, text, specials: d.specials, marks: d.marks };
    host.dataset.sig = "";
    return true;
  };
  if (encoder && live()) {
    // drawn from the text as typed
  } else if (host.dataset.sig !== data.sig) {
    place(data.html);
    host.dataset.sig = data.sig;
    host.msDrawn = null;
  }
  // One tab stop for all the tokens (the picked one, else the first); arrow keys move between them.
  const stop = (t) => {
    host.querySelectorAll('.ms-t[tabindex="0"]').forEach((e) => e.removeAttribute("tabindex"));
    if (t) t.tabIndex = 0;
  };
  const mark = (i) => {
    host.querySelectorAll(".ms-picked").forEach((e) => e.classList.remove("ms-picked"));
    const t = i === null || i === undefined ? null : host.querySelector(`.ms-t[data-i="${Number(i)}"]`);
    if (t) t.classList.add("ms-picked");
    stop(t || host.querySelector(".ms-t[data-i]"));
  };
  mark(data.picked);
  if (!host.msListening) {
    host.msListening = true;
    globalThis.addEventListener("ms-live-text", (event) => {
      if (event.detail === host.msData.box && host.isConnected && live()) mark(null);
    });
  }
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
