// The Train page's stage (a Streamlit components v2 component, no iframe).
//
// Python sends a window of pre-computed steps (mergescope_ui/train/stage_data.py): each step's
// merge card and pair chart as HTML, escaped on the server, and the token ids of its sequences;
// token labels come once per window, escaped too. Back, Next, Play, Reset, the arrow keys and
// Jump move through that window here, with no server round trip; the step shown is reported
// back (setStateValue "position") so Python moves the window and redraws the rest of the page.
// Python can also move the stage itself (a jump, the quiz, a new run): it then bumps "serial".

// Places shown at a time: two on a small projector screen in presenter mode, else three.
const perPage = (data) => (data.large && window.innerHeight < 900 ? 2 : 3);
const MIN_ROOM = 260; // px: below this a card or chart scrolls the page rather than itself
const REPORT_MS = 40; // report the step shown once stepping pauses this long (a held arrow key repeats faster)

// One span per id (labels and tooltips come escaped from the server). `marks` outlines single
// tokens (the new token, after a merge); `pairs` holds the first half of each pair about to fuse,
// and both halves go in one outlined box.
function spans(data, ids, marks, breaks, pairs) {
  const out = [];
  for (let n = 0; n < ids.length; n++) {
    const t = data.tokens[ids[n]];
    if (pairs && pairs.has(n)) out.push('<span class="ms-fuse">');
    if (!t) out.push('<span class="ms-t ms-byte">?</span>');
    else out.push(`<span class="${t[1]}${marks.has(n) ? " ms-new" : ""}" title="${t[2]}">${t[0]}</span>`);
    if (pairs && pairs.has(n - 1)) out.push("</span>");
    if (breaks && t && t[3]) out.push("<br>".repeat(t[3]));
  }
  return out.join("");
}

// The ids as they were before the merge of `pair` into `fresh`, and where each pair starts.
function splitBack(ids, pair, fresh) {
  const out = [];
  const starts = new Set();
  for (const i of ids) {
    if (i === fresh) {
      starts.add(out.length);
      out.push(pair[0], pair[1]);
    } else out.push(i);
  }
  return [out, starts];
}

function seqSpans(data, ids, view, before, breaks) {
  if (view.new === null) return spans(data, ids, new Set(), breaks, null);
  if (!before) return spans(data, ids, markOf(ids, view.new), breaks, null);
  const [shown, starts] = splitBack(ids, view.pair, view.new);
  return spans(data, shown, new Set(), breaks, starts);
}

function markOf(ids, fresh) {
  const marks = new Set();
  ids.forEach((i, n) => {
    if (i === fresh) marks.add(n);
  });
  return marks;
}

const ELLIPSIS = '<span class="ms-cut">…</span>';

// Places whose contexts overlap (the same chunk, the next one inside the first one's right context)
// are shown as one line with both tokens marked.
function joinNear(items) {
  const lines = [];
  for (const p of items) {
    const g = lines[lines.length - 1];
    const d = g ? p.at - g.at : 0;
    if (g && g.chunk === p.chunk && d >= 1 && d <= g.ids.length - g.tail) {
      const pos = g.tail + d - 1; // where p's token is in g
      g.ids = g.ids.slice(0, pos).concat([p.token], p.right);
      Object.assign(g, { tail: pos + 1, at: p.at, te: p.te, last: p.n });
    } else {
      const ids = p.left.concat([p.token], p.right);
      lines.push({ ids, tail: p.left.length + 1, at: p.at, chunk: p.chunk, ts: p.ts, te: p.te, first: p.n, last: p.n });
    }
  }
  return lines;
}

function placeLines(data, view, first, before) {
  const { items, start, total } = view.places;
  const page = [];
  for (let n = first; n < Math.min(first + perPage(data), total); n++) {
    const p = items[n - start];
    if (!p) break;
    page.push(Object.assign({ n }, p));
  }
  if (!page.length) return '<div class="ms-line ms-cut">Loading these places…</div>';
  return joinNear(page)
    .map((g) => {
      const num = g.first === g.last ? `${g.first + 1}` : `${g.first + 1}–${g.last + 1}`;
      return (
        `<div class="ms-line"><span class="ms-num">${num}</span>${g.ts ? "" : ELLIPSIS}` +
        `${seqSpans(data, g.ids, view, before, false)}${g.te ? "" : ELLIPSIS}</div>`
      );
    })
    .join("");
}

function headHTML(data, view, before) {
  const more = view.headMore ? '<span class="ms-cut"> … the text goes on</span>' : "";
  return `<div class="ms-line ms-head">${seqSpans(data, view.head, view, before, true)}${more}</div>`;
}

function mount(root) {
  const q = (sel) => root.querySelector(sel);
  const s = {
    root,
    q,
    pos: 0,
    serial: null,
    seq: 0,
    reported: null,
    playing: false,
    timer: null,
    reportTimer: null,
    tab: "places",
    page: {}, // step -> first place shown
    asked: { key: "", times: 0 }, // the places last asked for, and how often
    shown: "",
    notice: "",
    data: null,
    setState: null,
    setTrigger: null,
  };
  // Every listener of this mount goes through one signal: unmounting (the function the component
  // returns) removes them all. A mount left listening would step its own stale copy of the stage
  // on each click, beside the new mount, and the two would draw over each other.
  s.listening = new AbortController();
  const on = { signal: s.listening.signal };
  q(".ms-back").addEventListener("click", () => step(s, -1), on);
  q(".ms-next").addEventListener("click", () => step(s, +1), on);
  q(".ms-play").addEventListener("click", () => togglePlay(s), on);
  q(".ms-reset").addEventListener("click", () => go(s, 0, { user: true }), on);
  q(".ms-tab-places").addEventListener("click", () => setTab(s, "places"), on);
  q(".ms-tab-head").addEventListener("click", () => setTab(s, "head"), on);
  q(".ms-prev-place").addEventListener("click", () => turnPage(s, -1), on);
  q(".ms-next-place").addEventListener("click", () => turnPage(s, +1), on);
  const jump = q(".ms-jump-in");
  const onJumpKey = (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      jump.blur(); // jumps (the change event), and the arrow keys step again
    }
  };
  jump.addEventListener("keydown", onJumpKey, on);
  jump.addEventListener("change", () => jumpTo(s, jump.value), on);
  const onKey = (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable], [role=grid], [role=listbox]"))
      return;
    if (!root.isConnected) return unmount(s); // taken off the page without a word
    if (e.key === "ArrowRight") step(s, +1);
    else if (e.key === "ArrowLeft") step(s, -1);
    else if (e.key === "p" || e.key === "P") togglePlay(s);
    else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey, on);
  // In presenter mode the card and the chart never reach below the screen (they scroll inside
  // instead): the room left under the stage's top changes with the window and with what the page
  // shows above the stage (the quiz), so it is measured again whenever either changes size.
  const refit = () => (root.isConnected ? fit(s) : unmount(s));
  s.resizes = new ResizeObserver(refit);
  s.resizes.observe(document.body);
  window.addEventListener("resize", refit, on);
  return s;
}

// Presenter mode: the room under the stage's top, and "tight" when a column would not fit in it
// (then the chart's key goes to its heading's tooltip and the sequences sit closer; stage.css).
function fit(s) {
  const root = s.root;
  const top = s.q(".ms-grid").getBoundingClientRect().top;
  const room = Math.max(MIN_ROOM, Math.floor(window.innerHeight - Math.max(top, 0) - 6));
  root.style.setProperty("--ms-room", `${room}px`);
  root.classList.remove("ms-tight");
  if (!root.classList.contains("ms-large")) return;
  const cols = [s.q(".ms-cardcol .ms-card"), s.q(".ms-pairscol"), s.q(".ms-seqcol")];
  root.classList.toggle("ms-tight", cols.some((col) => col && col.scrollHeight > room));
}

function atEnd(s) {
  return s.data.finished && s.pos >= s.data.last;
}

function report(s, now) {
  clearTimeout(s.reportTimer);
  const send = () => {
    if (s.reported === s.pos) return;
    s.reported = s.pos;
    s.seq += 1;
    s.setState("position", { step: s.pos, seq: s.seq });
  };
  const d = s.data;
  const nearEdge = s.pos >= d.hi - 2 || s.pos <= d.lo + 1 || !d.views[s.pos];
  if (now || nearEdge) send();
  else s.reportTimer = setTimeout(send, REPORT_MS);
}

function go(s, k, { user = false, animate = false } = {}) {
  const d = s.data;
  k = Math.max(0, Math.min(k, d.finished ? d.last : d.maxMerges));
  if (k === s.pos && !animate) return;
  s.pos = k;
  s.notice = "";
  render(s, animate);
  if (user) report(s, false);
}

function step(s, by) {
  const d = s.data;
  if (by > 0) {
    if (atEnd(s) || s.pos >= d.maxMerges) return;
    if (d.quiz) {
      s.setTrigger("next", s.pos); // the quiz grades the guess on the server first
      return;
    }
    go(s, s.pos + 1, { user: true, animate: true });
  } else if (s.pos > 0) {
    go(s, s.pos - 1, { user: true });
  }
}

function togglePlay(s) {
  if (s.data.quiz) return;
  if (s.playing) stopPlay(s);
  else if (!atEnd(s)) {
    s.playing = true;
    s.timer = setInterval(() => {
      if (atEnd(s) || s.pos >= s.data.maxMerges) stopPlay(s);
      else if (s.data.views[s.pos + 1]) go(s, s.pos + 1, { user: true, animate: true });
    }, Math.max(100, 1000 * s.data.speed));
  }
  render(s, false);
}

function stopPlay(s) {
  s.playing = false;
  clearInterval(s.timer);
  s.timer = null;
  if (s.data) render(s, false);
}

function setTab(s, tab) {
  s.tab = tab;
  render(s, false);
}

function turnPage(s, by) {
  const view = s.data.views[s.pos];
  if (!view || !view.places) return;
  const total = view.places.total;
  const first = Math.max(0, Math.min((s.page[s.pos] || 0) + by * perPage(s.data), total - 1));
  s.page[s.pos] = first;
  askPlaces(s);
  render(s, false);
}

// The places the stage shows for this step, if they were not sent yet: ask the server for them. Asked
// again when a window comes without them (a request can be lost while the server reruns), three times
// at most for the same places.
function askPlaces(s) {
  const view = s.data.views[s.pos];
  if (!view || !view.places) return;
  const { start, items, total } = view.places;
  const first = s.page[s.pos] || 0;
  if (first >= start && first + Math.min(perPage(s.data), total - first) <= start + items.length) return;
  const key = `${s.serial}:${s.pos}:${first}`;
  if (s.asked.key !== key) s.asked = { key, times: 0 };
  if (s.asked.times >= 3) return;
  s.asked.times += 1;
  s.setTrigger("places", { step: s.pos, start: first });
}

function jumpTo(s, value) {
  const d = s.data;
  let k = parseInt(value, 10);
  if (Number.isNaN(k)) return;
  k = Math.max(0, k);
  if (d.finished && k > d.last) {
    s.notice = `Training stopped at step ${d.last.toLocaleString("en-US")}: ${d.stop}. Showing step ${d.last.toLocaleString("en-US")}.`;
    k = d.last;
  } else if (k > d.maxMerges) {
    s.notice = `Training stops at step ${d.maxMerges.toLocaleString("en-US")}, the number of merges set in the sidebar; showing it.`;
    k = d.maxMerges;
  } else s.notice = "";
  stopPlay(s);
  const notice = s.notice;
  if (d.views[k]) go(s, k, { user: true });
  else {
    s.pos = k;
    s.setTrigger("jump", k);
  }
  s.notice = notice || (d.views[k] ? "" : `Training up to step ${k.toLocaleString("en-US")}…`);
  render(s, false);
}

// Draw step s.pos, then fit it to the screen (what is drawn changes the room it needs).
function render(s, animate) {
  draw(s, animate);
  fit(s);
}

function draw(s, animate) {
  const d = s.data;
  const q = s.q;
  const k = s.pos;
  const view = d.views[k];
  const end = atEnd(s);
  q(".ms-back").disabled = k <= 0;
  q(".ms-next").disabled = end || k >= d.maxMerges;
  const play = q(".ms-play");
  play.disabled = d.quiz || (end && !s.playing);
  play.textContent = s.playing ? "⏸ Pause" : "▶ Play";
  q(".ms-stepline").textContent =
    k === 0 ? "Step 0: the text as raw bytes" : `Step ${k.toLocaleString("en-US")} of up to ${d.maxMerges.toLocaleString("en-US")} merges`;
  const jump = q(".ms-jump-in");
  jump.max = String(d.maxMerges);
  if (document.activeElement !== jump) jump.value = String(k);
  let status = s.notice;
  if (!status && end) status = `🏁 Training finished after ${d.last.toLocaleString("en-US")} merge${d.last === 1 ? "" : "s"}: ${d.stop}.`;
  if (!status && k === 0) status = "👉 Every token is one byte. Press Next ▶ (or the → key) to make the first merge.";
  q(".ms-status").textContent = status;
  s.root.dataset.pos = String(k);
  s.root.classList.toggle("ms-large", !!d.large);
  const key = [s.serial, k, s.tab, s.page[k] || 0, view ? view.places && view.places.start : "none", view ? 1 : 0].join("|");
  if (key === s.shown && !animate) return;
  s.shown = key;
  s.root.classList.toggle("ms-waiting", !view);
  if (!view) {
    q(".ms-cardcol").innerHTML = `<div class="ms-card ms-wait"><h4>Merge ${k}</h4><p>Training…</p></div>`;
    return;
  }
  q(".ms-cardcol").innerHTML = view.card;
  q(".ms-pairscol").innerHTML = view.pairs;
  const places = view.places && s.tab === "places";
  q(".ms-tabs").hidden = !view.places;
  q(".ms-tab-places").setAttribute("aria-selected", String(places));
  q(".ms-tab-head").setAttribute("aria-selected", String(!places));
  const pager = q(".ms-pager");
  pager.hidden = !places;
  if (k === 0) {
    q(".ms-lb-before").hidden = q(".ms-before").hidden = true;
    q(".ms-lb-after").textContent = "The text as raw bytes, from its start";
    q(".ms-after").innerHTML = headHTML(d, view, false);
  } else {
    q(".ms-lb-before").hidden = q(".ms-before").hidden = false;
    let first = 0;
    let where = "";
    if (places) {
      const total = view.places.total;
      first = Math.min(s.page[k] || 0, Math.max(0, total - 1));
      const last = Math.min(first + perPage(s.data), total);
      q(".ms-pager-t").textContent = `places ${(first + 1).toLocaleString("en-US")}–${last.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}`;
      q(".ms-prev-place").disabled = first === 0;
      q(".ms-next-place").disabled = last >= total;
      where = total === 1 ? " · its one place" : "";
    } else where = " · from the start of the text";
    q(".ms-lb-before").textContent = `Before merge ${k}${where}`;
    q(".ms-lb-after").textContent = `After merge ${k}${where}`;
    q(".ms-before").innerHTML = places ? placeLines(d, view, first, true) : headHTML(d, view, true);
    q(".ms-after").innerHTML = places ? placeLines(d, view, first, false) : headHTML(d, view, false);
  }
  const f = view.figures;
  q(".ms-figs").textContent =
    `Vocab ${f.vocab} · corpus tokens ${f.tokens}${f.saved ? ` (${f.saved} fewer)` : ""} · ${f.bpt} bytes per token`;
  const move = animate && d.animate && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  s.root.classList.remove("ms-animate");
  if (move) {
    void s.root.offsetWidth; // restart the animation
    s.root.classList.add("ms-animate");
  }
}

function receive(s, data) {
  const fresh = data.serial !== s.serial;
  s.data = data;
  if (fresh) {
    s.serial = data.serial;
    s.pos = data.position;
    s.reported = data.position;
    s.page = {};
    s.notice = data.notice || "";
    s.shown = "";
    if (s.playing) stopPlay(s);
  }
  render(s, false);
  if (!fresh && s.reported !== s.pos) report(s, false); // stepped on while Python was busy
  else if (!fresh) askPlaces(s);
}

export default function (component) {
  const { data, setStateValue, setTriggerValue, parentElement } = component;
  const root = parentElement.querySelector(".ms-stage");
  if (!root || !data) return undefined;
  const s = root.__ms || (root.__ms = mount(root));
  s.setState = setStateValue;
  s.setTrigger = setTriggerValue;
  receive(s, data);
  // Streamlit may call this and then draw the component again into the same element, the stage
  // still on the page: its state is kept then (a new mount would go back to the step the server
  // last heard of, and the Next clicks since would be lost). Only a stage taken off the page goes.
  return () => setTimeout(() => root.isConnected || unmount(s), 0);
}

function unmount(s) {
  s.listening.abort();
  s.resizes.disconnect();
  clearInterval(s.timer);
  clearTimeout(s.reportTimer);
  s.root.__ms = undefined;
}
