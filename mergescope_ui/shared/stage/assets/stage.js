// The stage (a Streamlit components v2 component, no iframe): the Train page steps a BPE, WordPiece or
// Unigram training run on it, the Tokenize page a text's encode trace.
//
// Python sends a window of steps (the records of mergescope_ui/shared/stage/contract.py, typed
// below, made by a producer: mergescope_ui/shared/stage/producer.py): each step's card and chart
// as element trees, its text as spans of token ids with their marks, the labels and sentences as
// plain text. Nothing is read as markup: every element is built here and every text is a text
// node. Back, Next, Play, Reset, the arrow keys and Jump move through that window here, with no server
// round trip, and the stage reports what it shows as one state value (Shown) so Python moves the
// window when the stage needs one, and redraws the rest of the page once stepping pauses. This file
// draws, steps, pages, fits and reports; it knows nothing of BPE. Python moves the stage itself (a
// jump, the quiz, a new run) by a new window serial.

/**
 * The records, field for field as in stage_contract.py (tests/ui/train/test_stage_contract.py).
 * @typedef {"" | "new"} Mark
 * @typedef {{text: string, classes: string, title: string, breaks: number, spoken: string,
 *   closes: number[], opens: number[]}} TokenLabel
 * @typedef {{ids: number[], mark: Mark, was: number[] | null}} Span
 * @typedef {{number: number, lead: Span[], token: Span[], tail: Span[], link: Span[] | null,
 *   cut_before: boolean, cut_after: boolean}} Place
 * @typedef {{total: number, start: number, items: Place[]}} Places
 * @typedef {{tag: string, attrs: string[][], children: (Element | string)[]}} Element
 * @typedef {{step: number, heading: string, status: string, card: (Element | string)[],
 *   pairs: (Element | string)[], figures: string,
 *   before_caption: string, after_caption: string, head: Span[], head_more: boolean, places: Places | null}} StepView
 * @typedef {{heading: string, waiting: string, waiting_card: string, past_end: string, past_limit: string,
 *   finished: string, places_tab: string, next_places: string, places_noun: string,
 *   step_noun: string}} Wording
 * @typedef {{back: string, next: string, play: string, reset: string}} ButtonTitles
 * @typedef {{label: string, short: string, outcome: string, verdict: string}} Choice
 * @typedef {{step: number, text: string, choices: Choice[], answer: string}} Question
 * @typedef {{step: number, guess: string, outcome: string}} Answer
 * @typedef {{serial: number, position: number, lo: number, hi: number, views: StepView[],
 *   labels: Object<string, TokenLabel>, last: number, finished: boolean, max_steps: number, quiz: boolean,
 *   animate: boolean, speed: number, large: boolean, notice: string, wording: Wording, arrows_from: string,
 *   tab: string, titles: ButtonTitles | null, settle_ms: number, questions: Question[], answers: Answer[],
 *   hint: boolean, hidden_counts: number}} Window
 * @typedef {{position: number, start: number, serial: number, tab: string, window: boolean,
 *   settled: boolean, answers: Answer[]}} Shown
 */

/**
 * The stage's own state (not the contract's): what it keeps on its element (root.__ms) across the
 * component's redraws. See mount() for what each field holds.
 * @typedef {HTMLDivElement & {__ms?: Stage}} StageRoot
 * @typedef {{root: StageRoot, q: (sel: string) => HTMLElement, pos: number, serial: number | null,
 *   data: Window, views: Map<number, StepView>, page: Record<number, number>, tab: string, reported: string,
 *   shown: string, notice: string, playing: boolean, timer: number | undefined, reportTimer: number | undefined,
 *   settledAt: string, moving: number, asking: boolean, asked: number, watch: number | undefined,
 *   listening: AbortController, resizes: ResizeObserver, setState: (name: "shown", value: Shown) => void,
 *   questions: Map<number, Question>, answers: Map<number, Answer>, verdicts: Map<number, string[]>,
 *   guess: {step: number, label: string} | null, reveal: number, sentAnswers: string,
 *   setTrigger: (name: "ask", value: number) => void}} Stage
 * A line of places: its first place, its last, and the spans it shows.
 * @typedef {{first: Place, last: Place, spans: Span[]}} Line
 */

// How each mark shows (stage.css): after the step, a class on each of its tokens; before it, a box
// around what they were made from.
const MARKS = { "": { token: "", box: "" }, new: { token: " ms-new", box: "ms-fuse" } };
// Places shown at a time: two on a small projector screen in presenter mode, else three.
/** @param {Window} data */
const perPage = (data) => (data.large && window.innerHeight < 900 ? 2 : 3);
/** The stage's data before its first window: never read (the first window comes with the first draw). */
const NO_WINDOW = /** @type {Window} */ (/** @type {unknown} */ (null));
const MIN_ROOM = 260; // px: the presenter stage's least height (below it the page scrolls)
// The server hears of the step shown at once when the stage needs a window (a step or places it does
// not hold, or a step near the edge of the window it holds), and otherwise only once stepping pauses
// for the window's settle_ms (stage/contract.py SETTLE_MS, or 0 in a live room; "settled": what the page
// shows beside the stage follows then), so a burst of Next presses costs the server what the stage
// needs and one redraw of the rest of the page.
const SETTLE_MAX_MS = 1500; // while stepping goes on (Play, a held key), the page follows this often
// Keys that step: the arrows and a presentation clicker's PageDown / PageUp, and Space / Enter where
// they would press nothing else. Not in a text field; in the page's choices (Window.arrows_from) the
// arrows, PageDown / PageUp and Enter step, and the others (↑ ↓ Space) still choose.
/** @type {Record<string, number>} */
const STEP_KEYS = { ArrowRight: 1, PageDown: 1, " ": 1, Enter: 1, ArrowLeft: -1, PageUp: -1 };
const FIELDS = "input, textarea, select, [contenteditable], [role=grid], [role=listbox]";
const PRESSABLE = "button, a[href], summary, label, [role=button], [role=tab], [role=switch], [role=checkbox]";
/** @param {number} k */
const fmt = (k) => k.toLocaleString("en-US");
/** @param {string} text @param {number} k */
const withStep = (text, k) => text.replace("{step}", fmt(k));

/** A new element: its tag, class, and children (nodes or plain text, which becomes a text node).
 * @param {string} tag @param {string} className @param {(Node | string)[]} children @returns {HTMLElement} */
function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children);
  return node;
}

/** The elements of a block made on the server (its card, its chart), from its Element tree: each built
 * with createElement and setAttribute, each text a text node, so nothing the tree holds is read as
 * markup. TAGS and ATTRIBUTES are markup.py's (tests/ui/train/test_stage_contract.py). */
const TAGS = new Set(["div", "span", "p", "b", "i", "em", "strong", "code", "small", "h4", "h5", "br", "ul", "ol",
  "li", "table", "thead", "tbody", "tr", "th", "td", "abbr", "sub", "sup", "mark", "s", "u", "details", "summary"]);
const ATTRIBUTES = new Set(["class", "title", "style", "role", "aria-label", "aria-hidden", "lang", "dir",
  "tabindex", "open"]);
/** @param {(Element | string)[]} nodes @returns {Node[]} */
function build(nodes) {
  return nodes.map((n) => {
    if (typeof n === "string") return document.createTextNode(n);
    if (!TAGS.has(n.tag)) return document.createTextNode("");
    const node = document.createElement(n.tag);
    for (const [name, value] of n.attrs) if (ATTRIBUTES.has(name)) node.setAttribute(name, value);
    node.append(...build(n.children));
    return node;
  });
}

/** One span per token (its label and tooltip plain text), as the text reads after the step (side
 * "after": marked) or before it (side "before": what a span was made from, in one box).
 * @param {Window} data @param {Span[]} spans @param {string} side @param {boolean} breaks */
function spanNodes(data, spans, side, breaks) {
  /** @type {Node[]} */
  const out = [];
  const glyphs = new Glyphs();
  for (const span of spans) {
    const mark = MARKS[span.mark] || MARKS[""];
    const boxed = side === "before" && span.was;
    const ids = boxed || span.ids; // boxed: the span's `was`
    const into = boxed ? el("span", mark.box) : null;
    /** @param {Node[]} nodes */
    const add = (...nodes) => (into ? into.append(...nodes) : out.push(...nodes));
    for (const id of ids) {
      const t = data.labels[id];
      if (!t) {
        glyphs.token(null, out.length);
        add(el("span", "ms-t ms-byte", "?"));
        continue;
      }
      glyphs.token(t, out.length); // a boxed token's node is the box, pushed at out.length after its tokens
      const token = el("span", t.classes + (side === "after" ? mark.token : ""), ...said(t));
      token.title = t.title;
      add(token);
      if (breaks && t.breaks) {
        glyphs.token(null, out.length); // a glyph never spans a line break
        for (let n = 0; n < t.breaks; n++) add(document.createElement("br"));
      }
    }
    if (into) out.push(into);
  }
  return glyphs.wrap(out);
}

/** The characters whose UTF-8 bytes lie in two or more tokens of a line (a byte-level token cut inside
 * a character: its label's `closes` and `opens`), found token by token, and then each shown above the
 * nodes that hold its bytes: one box, named by its characters for a screen reader ("能, 3 bytes"),
 * that a line never breaks inside. */
class Glyphs {
  constructor() {
    /** @type {number[]} the bytes of the character begun, not yet finished */
    this.bytes = [];
    this.from = -1; // the node holding its first byte (-1: none begun)
    /** @type {{from: number, to: number, chars: string[], bytes: number}[]} */
    this.groups = [];
  }

  /** The next token of the line (null: one that is no part of a character cut across tokens), held by
   * the node at `node` of the line. @param {TokenLabel | null} t @param {number} node */
  token(t, node) {
    const closes = (t && t.closes) || [];
    if (this.from >= 0 && closes.length) {
      this.bytes.push(...closes);
      const width = utf8Width(this.bytes[0]);
      if (this.bytes.length >= width) {
        this.add(this.from, node, this.bytes.slice(0, width));
        this.from = -1;
      } else {
        return; // all of this token is inside the character (text is whole UTF-8): it goes on after it
      }
    }
    this.from = -1;
    const opens = (t && t.opens) || [];
    if (opens.length) [this.bytes, this.from] = [[...opens], node];
  }

  /** @param {number} from @param {number} to @param {number[]} bytes */
  add(from, to, bytes) {
    const char = new TextDecoder().decode(new Uint8Array(bytes));
    const last = this.groups[this.groups.length - 1];
    if (last && last.to >= from) { // a token holding the end of one character and the start of the next
      last.to = Math.max(last.to, to);
      last.chars.push(char);
      last.bytes += bytes.length;
    } else this.groups.push({ from, to, chars: [char], bytes: bytes.length }); // from == to: one box
  }

  /** The line's nodes with each group's nodes in a box under its glyphs. @param {Node[]} nodes */
  wrap(nodes) {
    for (const g of [...this.groups].reverse()) {
      const glyph = el("span", "ms-glyph-char", g.chars.join(""));
      glyph.setAttribute("aria-hidden", "true");
      const box = el("span", "ms-glyph", glyph, el("span", "ms-glyph-bytes", ...nodes.slice(g.from, g.to + 1)));
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", `${g.chars.join(" ")}, ${g.bytes} bytes`);
      box.title = `${g.chars.join(" ")}: ${g.bytes} bytes`;
      nodes.splice(g.from, g.to - g.from + 1, box);
    }
    return nodes;
  }
}

/** The length of the UTF-8 sequence a lead byte starts (0: a continuation byte); byte_level.utf8_width.
 * @param {number} lead */
function utf8Width(lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

const ellipsis = () => el("span", "ms-cut", "…");

/** A token's label as nodes: when it has words for a screen reader (␣ is "space"), the glyphs hidden
 * from it and the words beside them, out of sight. @param {TokenLabel} t @returns {(Node | string)[]} */
function said(t) {
  if (!t.spoken) return [t.text];
  const glyphs = el("span", "", t.text);
  glyphs.setAttribute("aria-hidden", "true");
  return [glyphs, el("span", "ms-sr", t.spoken)];
}

/** The page's places, one side ("before" or "after"), one line each: a place whose `link` is set
 * shares its line with the next one.
 * @param {Window} data @param {StepView & {places: Places}} view @param {number} first @param {string} side */
function placeLines(data, view, first, side) {
  const { items, start, total } = view.places;
  /** @type {Place[]} */
  const page = [];
  for (let n = first; n < Math.min(first + perPage(data), total); n++) {
    const p = items[n - start];
    if (!p) break;
    page.push(p);
  }
  if (!page.length) return [el("div", "ms-line ms-cut", "Loading these places…")];
  /** @type {Line[]} */
  const lines = [];
  page.forEach((p, n) => {
    const line = lines[lines.length - 1];
    const link = line && page[n - 1].link;
    if (link) line.spans.push(...link, ...p.token);
    else lines.push({ first: p, last: p, spans: [...p.lead, ...p.token] });
    lines[lines.length - 1].last = p;
  });
  return lines.map(({ first: a, last: b, spans }) => {
    const num = a === b ? `${a.number}` : `${a.number}–${b.number}`;
    const line = el("div", "ms-line", el("span", "ms-num", num));
    if (a.cut_before) line.append(ellipsis());
    line.append(...spanNodes(data, spans.concat(b.tail), side, false));
    if (b.cut_after) line.append(ellipsis());
    return line;
  });
}

/** @param {Window} data @param {StepView} view @param {string} side */
function headLine(data, view, side) {
  const line = el("div", "ms-line ms-head", ...spanNodes(data, view.head, side, true));
  if (view.head_more) line.append(el("span", "ms-cut", " … the text goes on"));
  return line;
}

/** @param {StageRoot} root @returns {Stage} */
function mount(root) {
  /** @param {string} sel */
  const q = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel)); // stage.html has each
  // In presenter mode the stage ends at the window's bottom: the room under its top changes with
  // the window and with what the page shows above the stage, so it is measured again on either.
  const refit = () => (root.isConnected ? fit(s) : unmount(s));
  // pos: the step shown; page: step -> the first place shown; views: step -> StepView; reported: the
  // last Shown sent (JSON); shown: what the sequences were last drawn for.
  // settledAt: the step (with its serial and tab) the page beside the stage last followed; moving: since
  // when stepping has gone on without the page following (0: it follows).
  // asking: a window was asked for and has not come yet.
  // listening: every listener of this mount goes through its one signal: unmounting (the function the
  // component returns) removes them all. A mount left listening would step its own stale copy of the
  // stage on each click, beside the new mount, and the two would draw over each other.
  /** @type {Stage} */
  const s = {
    root, q, pos: 0, serial: null, data: NO_WINDOW, views: new Map(), page: {}, tab: "places",
    reported: "", shown: "", notice: "", playing: false, timer: undefined, reportTimer: undefined,
    settledAt: "", moving: 0, asking: false, asked: 0, watch: undefined,
    listening: new AbortController(), resizes: new ResizeObserver(refit), setState: () => {}, setTrigger: () => {},
    questions: new Map(), answers: new Map(), verdicts: new Map(), guess: null, reveal: -1, sentAnswers: "[]",
  };
  const on = { signal: s.listening.signal };
  q(".ms-back").addEventListener("click", () => step(s, -1), on);
  q(".ms-next").addEventListener("click", () => step(s, +1), on);
  q(".ms-play").addEventListener("click", () => togglePlay(s), on);
  q(".ms-reset").addEventListener("click", () => restart(s), on);
  q(".ms-tab-places").addEventListener("click", () => setTab(s, "places"), on);
  q(".ms-tab-head").addEventListener("click", () => setTab(s, "head"), on);
  q(".ms-prev-place").addEventListener("click", () => turnPage(s, -1), on);
  q(".ms-next-place").addEventListener("click", () => turnPage(s, +1), on);
  q(".ms-pairscol").addEventListener("click", (e) => {
    const at = /** @type {Partial<HTMLElement>} */ (e.target);
    const choice = at.closest ? at.closest(".ms-choice") : null;
    if (choice instanceof HTMLElement) choose(s, Number(choice.dataset.n));
  }, on);
  const jump = /** @type {HTMLInputElement} */ (q(".ms-jump-in"));
  /** @param {KeyboardEvent} e */
  const onJumpKey = (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      jump.blur(); // jumps (the change event), and the arrow keys step again
    }
  };
  jump.addEventListener("keydown", onJumpKey, on);
  jump.addEventListener("change", () => jumpTo(s, jump.value), on);
  /** A key's target: an element, or the document (which has no closest). @param {KeyboardEvent} e */
  const target = (e) => /** @type {Partial<HTMLElement>} */ (e.target);
  /** @param {KeyboardEvent} e */
  const choices = (e) => {
    const at = target(e);
    return !!(s.data && s.data.arrows_from && at.closest && at.closest(s.data.arrows_from));
  };
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = target(e).closest ? /** @type {HTMLElement} */ (e.target) : document.body;
    if (choices(e) ? e.key === " " : t.closest(FIELDS) || (/^( |Enter)$/.test(e.key) && t.closest(PRESSABLE))) return;
    if (!root.isConnected) return unmount(s); // taken off the page without a word
    if (STEP_KEYS[e.key]) step(s, STEP_KEYS[e.key]);
    else if (e.key === "p" || e.key === "P") togglePlay(s);
    else if (/^[1-9]$/.test(e.key) && asking(s)) choose(s, Number(e.key) - 1);
    else return;
    e.preventDefault();
    if (choices(e)) e.stopPropagation(); // the choices' own handler would move the choice too
    // A click on the page leaves the focus on its scroll area, which a key then frames page-wide.
    if (t !== document.body && !t.closest(FIELDS) && !t.closest(PRESSABLE) && !root.contains(t)) t.blur();
  };
  // The choices' own keys act before the stage sees them bubble: the stage takes those first.
  document.addEventListener("keydown", (e) => choices(e) && onKey(e), { ...on, capture: true });
  document.addEventListener("keydown", (e) => choices(e) || onKey(e), on);
  s.resizes.observe(document.body);
  const page = root.closest('[data-testid="stMainBlockContainer"]');
  if (page) s.resizes.observe(page);
  window.addEventListener("resize", refit, on);
  return s;
}

// Presenter mode: the stage takes the room from its top to the window's bottom, at every step the same
// (stage.css lays it out in that fixed height); "tight" when the card or the chart has to scroll in it
// (then the chart's key goes to its heading's tooltip and the sequences sit closer; stage.css).
/** @param {Stage} s */
function fit(s) {
  const root = s.root;
  root.classList.remove("ms-tight");
  const boxes = [...root.querySelectorAll(SNAPPED)].map((box) => /** @type {HTMLElement} */ (box));
  for (const box of boxes) {
    box.style.removeProperty("max-height");
    box.style.removeProperty("min-height");
    box.style.removeProperty("font-size");
    box.style.removeProperty("--ms-fit");
  }
  if (!root.classList.contains("ms-large")) root.style.removeProperty("--ms-stage-h");
  else {
    const main = root.closest('[data-testid="stMain"]');
    const top = root.getBoundingClientRect().top + (main ? main.scrollTop : 0); // as if scrolled to the top
    const room = Math.max(MIN_ROOM, Math.floor(window.innerHeight - Math.max(top, 0) - 6));
    root.style.setProperty("--ms-stage-h", `${room}px`);
    const cols = [s.q(".ms-cardcol > *"), s.q(".ms-pairscol > *")];
    root.classList.toggle("ms-tight", cols.some((col) => col && overflows(col)));
    // The card is read whole (its text smaller where it has to be), the chart down to SHRINK_CHART.
    shrink(cols[0], SHRINK_CARD);
    shrink(cols[1], SHRINK_CHART);
  }
  for (const box of boxes) box.classList.toggle("ms-below", hidesLines(box, boxes));
  for (const box of boxes) wholeLines(box, boxes);
}

// Whole lines only (issue #40): a box that clips what it holds ends between two lines, never through
// one: its bottom moves up to the top of the first line it would cut (the room below stays empty),
// the rest scrolls (a box left scrolled to the middle of a line shows that line from its top), and
// "ms-below" says more lies below (stage.css).
// Inner boxes first: the phone's grid holds the others.
const SNAPPED = ".ms-cardcol > *, .ms-pairscol > *, .ms-before, .ms-after, .ms-grid";
// What makes a line: these boxes drawn around text (a token, a bar), and each other text's line boxes.
const ATOMS = ".ms-glyph, .ms-t, .ms-fuse, .ms-num, .ms-cut, .ms-bar, .ms-btn, .ms-tab";
const SHRINK_CARD = 0.5; // the least the card's text is scaled to so that it needs no scrolling
const SHRINK_CHART = 0.75;

/** @param {HTMLElement} box */
function overflows(box) {
  return getComputedStyle(box).overflowY !== "visible" && box.scrollHeight > box.clientHeight + 1;
}

/** Scale a box's text down (not below `least` of its size) until it needs no scrolling: its font size,
 * and --ms-fit for what is sized in rem (a paragraph: stage.css).
 * @param {HTMLElement | null} box @param {number} least */
function shrink(box, least) {
  if (!box || !overflows(box)) return;
  const size = parseFloat(getComputedStyle(box).fontSize);
  /** @param {number} f */
  const scale = (f) => {
    box.style.fontSize = `${size * f}px`;
    box.style.setProperty("--ms-fit", String(f));
  };
  let [lo, hi] = [least, 1];
  for (let n = 0; n < 6; n++) {
    const mid = (lo + hi) / 2;
    scale(mid);
    if (overflows(box)) hi = mid;
    else lo = mid;
  }
  scale(lo);
}

/** @param {HTMLElement} box @returns {{top: number, bottom: number}} the part of the page it shows */
function clipRect(box) {
  const top = box.getBoundingClientRect().top + box.clientTop;
  return { top, bottom: top + box.clientHeight };
}

/** A box's lines as laid out now: its atoms (ATOMS, and the inner boxes of `boxes` as one each) in
 * document order, so top to bottom, and the line boxes of the texts outside them. A box of a few
 * thousand tokens is searched, not measured whole.
 * @param {HTMLElement} box @param {HTMLElement[]} boxes */
function lineBoxes(box, boxes) {
  /** @type {HTMLElement[]} */
  const atoms = [];
  /** @type {DOMRect[]} */
  const texts = [];
  const range = document.createRange();
  /** @param {Node} node */
  const visit = (node) => {
    for (const c of node.childNodes) {
      if (c instanceof Text) {
        if (!c.data.trim()) continue;
        range.selectNodeContents(c);
        texts.push(...[...range.getClientRects()].filter((r) => r.height >= 1));
      } else if (c instanceof HTMLElement && !c.hidden) {
        if (c.matches(ATOMS) || boxes.includes(c)) atoms.push(c);
        else visit(c);
      }
    }
  };
  visit(box);
  /** @type {Map<number, DOMRect>} */
  const seen = new Map();
  /** @param {number} n */
  const at = (n) => seen.get(n) || seen.set(n, atoms[n].getBoundingClientRect()).get(n) || new DOMRect();
  const top = clipRect(box).top - 1; // above it: scrolled away
  /** The first atom whose foot is below y. @param {number} y */
  const search = (y) => {
    let [lo, hi] = [0, atoms.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(mid).bottom > y + 1) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  /** The line boxes an edge at y would cut (of those from `above` down). @param {number} y */
  const cut = (y, above = top) => {
    const out = texts.filter((r) => r.top >= above && r.top < y - 1 && r.bottom > y + 1);
    const lo = search(y);
    for (let n = Math.max(0, lo - 8), after = 0; n < atoms.length && after < 8; n++) {
      const r = at(n);
      after = r.top > y + 8 ? after + 1 : 0;
      if (r.top >= above && r.top < y - 1 && r.bottom > y + 1 && r.height >= 1) out.push(r);
    }
    return out;
  };
  const ends = [...texts, ...atoms.slice(-8).map((_, n, last) => at(atoms.length - last.length + n))];
  const starts = [...texts, ...atoms.slice(0, 8).map((_, n) => at(n))].filter((r) => r.top >= top);
  /** The foot of the line above an edge at y. @param {number} y */
  const foot = (y) => {
    const lo = search(y);
    const near = atoms.slice(Math.max(0, lo - 8), lo).map((_, n) => at(Math.max(0, lo - 8) + n));
    return Math.max(-Infinity, ...[...texts, ...near].filter((r) => r.bottom <= y + 1).map((r) => r.bottom));
  };
  return { cut, foot, last: Math.max(-Infinity, ...ends.map((r) => r.bottom)), first: starts };
}

/** Whether a box hides lines of what it holds below its foot (not only its own padding).
 * @param {HTMLElement} box @param {HTMLElement[]} boxes */
function hidesLines(box, boxes) {
  return overflows(box) && lineBoxes(box, boxes).last > clipRect(box).bottom + 1;
}

/** End a box that clips between two lines (see SNAPPED); one too low for its first line grows to hold it.
 * @param {HTMLElement} box @param {HTMLElement[]} boxes @param {boolean} [grown] */
function wholeLines(box, boxes, grown = false) {
  if (!overflows(box)) return;
  const { top, bottom } = clipRect(box);
  const cuts = lineBoxes(box, boxes).cut(top, -Infinity); // scrolled to the middle of a line: to its top
  if (cuts.length) box.scrollTop -= top - Math.min(...cuts.map((r) => r.top));
  const { cut, foot, first } = lineBoxes(box, boxes);
  if (!first.length) return;
  let y = bottom;
  for (let over = cut(y); over.length; over = cut(y)) y = Math.min(...over.map((r) => r.top));
  const edge = box.getBoundingClientRect();
  if (y <= Math.min(...first.map((r) => r.top)) + 1) {
    if (grown) return; // no whole line fits: the box keeps its height
    let line = Math.min(...first.map((r) => r.bottom)); // the first line's foot
    for (let over = cut(line); over.length; over = cut(line)) line = Math.max(...over.map((r) => r.bottom));
    box.style.minHeight = `${edge.height + (line - bottom) + 1}px`;
    return wholeLines(box, boxes, true);
  }
  // Halfway between the two lines: the outlines of the tokens on either side (the merged pair's, the
  // new token's) lie in that gap, each then cut by a pixel or two at most, rather than one of them whole.
  if (y < bottom - 0.5) y = Math.max(y - 4, (y + foot(y)) / 2);
  // Neither more nor less, even where it ends between two lines already: the boxes fitted after it
  // must not give it the room they leave (flex would).
  box.style.minHeight = box.style.maxHeight = `${edge.height - (bottom - y)}px`;
}

/** @param {Stage} s */
function atEnd(s) {
  return s.data.finished && s.pos >= s.data.last;
}

/** The first place the stage needs sent for step k: the window's, if it holds the page shown.
 * @param {Stage} s @param {number} k @returns {number} */
function placesNeeded(s, k) {
  const first = s.page[k] || 0;
  const view = s.views.get(k);
  if (!view || !view.places) return first;
  const { start, items, total } = view.places;
  const held = first >= start && first + Math.min(perPage(s.data), total - first) <= start + items.length;
  return held ? start : first;
}

/** Whether the stage needs a window for step k: a step or a page of places it does not hold, or a
 * step near an edge of its window that the server could move (unless one is on its way; in the quiz,
 * any step but the window's own: the guess above the stage follows the step shown).
 * @param {Stage} s @param {number} k @returns {boolean} */
function needsWindow(s, k) {
  const d = s.data;
  const view = s.views.get(k);
  if (!view || (view.places && placesNeeded(s, k) !== view.places.start)) return true;
  if (s.asking) return false;
  const later = k < d.max_steps && !(d.finished && k >= d.last); // a step after k: its question is needed
  const known = s.questions.has(k + 1) || s.answers.has(k + 1) || s.verdicts.has(k + 1);
  if (d.quiz && later && !known) return true;
  const more = d.hi < d.max_steps && !(d.finished && d.hi >= d.last);
  return (more && k >= d.hi - 2) || (d.lo > 0 && k <= d.lo + 1);
}

/** Tell Python what the stage shows (the one state value): at once when the stage needs a window
 * (while one is on its way, receive asks again if it comes without what is needed), and "settled" at
 * once for a single action (`now`: a tab, the quiz's Next, a jump) or else once stepping pauses
 * (the window's settle_ms; at least every SETTLE_MAX_MS while it goes on). `position` is s.pos but
 * for the quiz's Next (the step it asks for).
 * @param {Stage} s @param {boolean} now @param {number} [position] */
function report(s, now, position = s.pos) {
  clearTimeout(s.reportTimer);
  const need = needsWindow(s, position) && (now || !s.asking);
  if (need || now || JSON.stringify(pending(s)) !== s.sentAnswers) send(s, position, need, now);
  else watch(s);
  if (now) return;
  const t = Date.now();
  s.moving = s.moving || t;
  const wait = Math.max(0, Math.min(s.data.settle_ms, s.moving + SETTLE_MAX_MS - t));
  s.reportTimer = setTimeout(() => send(s, position, false, true), wait);
}

/** Send a report: `needs`, the stage needs a window for `position`; `settled`, the page may follow it.
 * A window already asked for, or a step the page follows already, is not asked again.
 * @param {Stage} s @param {number} position @param {boolean} needs @param {boolean} settled */
function send(s, position, needs, settled) {
  const at = JSON.stringify([position, s.serial, s.tab]);
  if (settled) s.moving = 0;
  const start = placesNeeded(s, position);
  const key = JSON.stringify({ position, start, serial: s.serial, tab: s.tab });
  needs = needs && key !== s.reported;
  settled = settled && at !== s.settledAt;
  const answers = pending(s);
  const told = JSON.stringify(answers);
  if (!needs && !settled && told === s.sentAnswers) return;
  if (needs) [s.reported, s.asking] = [key, true];
  if (settled) s.settledAt = at;
  s.sentAnswers = told;
  /** @type {Shown} */
  // While a window is on its way, every report still asks for one: reports sent in one burst (a key held,
  // quick quiz rounds) may reach the server as the last of them only.
  const shown = { position, start, serial: /** @type {number} */ (s.serial), tab: s.tab,
    window: needs || s.asking, settled, answers };
  s.setState("shown", shown);
  clearTimeout(s.watch);
  s.watch = undefined;
  watch(s);
}

/** A step the stage has no view of: if no window comes within WATCH_MS, ask again (see ask).
 * @param {Stage} s */
function watch(s) {
  if (s.watch || s.views.has(s.pos)) return;
  s.watch = setTimeout(() => {
    s.watch = undefined;
    if (!s.views.has(s.pos) && s.asked < ASKS) ask(s);
  }, WATCH_MS);
}

/** @param {Stage} s @param {number} k @param {{user?: boolean, animate?: boolean}} [how] */
function go(s, k, { user = false, animate = false } = {}) {
  const d = s.data;
  k = Math.max(0, Math.min(k, d.finished ? d.last : d.max_steps));
  if (k === s.pos && !animate) return;
  s.pos = k;
  s.notice = "";
  render(s, animate);
  if (user) report(s, false);
}

/** @param {Stage} s @param {number} by */
function step(s, by) {
  const d = s.data;
  if (by > 0) {
    if (atEnd(s) || s.pos >= d.max_steps) return;
    if (d.quiz) quizNext(s);
    else go(s, s.pos + 1, { user: true, animate: true });
  } else if (s.pos > 0) {
    go(s, s.pos - 1, { user: true });
  }
}

// The quiz (issue #40): at a step whose next step has a question the window carries and no answer yet,
// the guess takes the chart's place (its ranked counts would give the answer away; Window.hint keeps them
// in sight). Next judges the guess here, from the verdicts the question carries, and reveals the step at
// once with its verdict and its counts; the next Next asks the next question. The answers go to the
// server in the stage's reports (Shown.answers) until a window lists them.
const ICONS = /** @type {Record<string, string>} */ ({ right: "🎉", tied: "⚖️", wrong: "🤔" });
const NEXT_QUESTION = "Getting the next question…"; // the status while a window brings it

/** The question the stage asks now (about the step after the one shown), or null.
 * @param {Stage} s @returns {Question | null} */
function asking(s) {
  if (!s.data.quiz || s.reveal === s.pos) return null;
  const q = s.questions.get(s.pos + 1);
  return q && !s.answers.has(q.step) && !s.verdicts.has(q.step) ? q : null; // asked once (a skip too)
}

/** The answers the window does not list yet (every report carries them). @param {Stage} s */
function pending(s) {
  const listed = new Set((s.data && s.data.answers ? s.data.answers : []).map((a) => a.step));
  return [...s.answers.values()].filter((a) => !listed.has(a.step));
}

/** The running score, as one would say it (quiz.py score_line). @param {Stage} s */
function scoreLine(s) {
  const all = [...s.answers.values()];
  const right = all.filter((a) => a.outcome === "right").length;
  const tied = all.filter((a) => a.outcome === "tied").length;
  return `Quiz score: ${right} of ${all.length} right` + (tied ? `, ${tied} tied with the winner` : "");
}

/** Reset: back to step 0; in the quiz, the questions skipped are asked again (the answers given stay,
 * and so does the score). @param {Stage} s */
function restart(s) {
  s.verdicts = new Map([...s.verdicts].filter(([step]) => s.answers.has(step)));
  s.reveal = -1;
  s.guess = null;
  go(s, 0, { user: true });
}

/** Choose the n-th choice of the question asked (a click or a number key; the arrows never do).
 * @param {Stage} s @param {number} n */
function choose(s, n) {
  const q = asking(s);
  if (!q || !q.choices[n]) return;
  s.guess = { step: q.step, label: q.choices[n].label };
  for (const b of s.root.querySelectorAll(".ms-choice")) {
    b.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (b).dataset.n === String(n)));
  }
}

/** The quiz's Next: judge the guess and reveal the step, or ask the next question, or step on.
 * @param {Stage} s */
function quizNext(s) {
  const q = asking(s);
  if (q) {
    const guess = s.guess && s.guess.step === q.step ? s.guess.label : "";
    const choice = q.choices.find((c) => c.label === guess);
    if (choice) {
      s.answers.set(q.step, { step: q.step, guess: choice.label, outcome: choice.outcome });
      s.verdicts.set(q.step, [choice.outcome, `${ICONS[choice.outcome] || ""} ${choice.verdict}.`]);
    } else s.verdicts.set(q.step, ["none", `No guess this time: the answer was ${q.answer}.`]);
    s.guess = null;
    s.reveal = q.step;
    go(s, q.step, { user: true, animate: true });
    return;
  }
  if (s.reveal === s.pos) {
    s.reveal = -1; // the verdict was read: the next question (or the next step)
    if (asking(s)) return render(s, false);
  }
  if (s.views.has(s.pos + 1) && (s.answers.has(s.pos + 1) || s.verdicts.has(s.pos + 1) || !s.questions.size)) {
    go(s, s.pos + 1, { user: true, animate: true }); // a step answered already, or no questions at all
  } else if (!atEnd(s)) {
    s.notice = NEXT_QUESTION;
    render(s, false);
    report(s, true);
  }
}

/** What takes the chart's place during a question: the question, its choices (1–9 choose), the score.
 * @param {Stage} s @param {Question} q */
function guessBox(s, q) {
  const id = `ms-ask-${q.step}`;
  const ask = el("div", "ms-ask", q.text);
  ask.id = id;
  const row = el("div", "ms-guess");
  row.setAttribute("role", "group");
  row.setAttribute("aria-labelledby", id);
  q.choices.forEach((c, n) => {
    const b = /** @type {HTMLButtonElement} */ (el("button", "ms-btn ms-choice", el("span", "ms-key", `${n + 1}`), c.short));
    b.type = "button";
    b.dataset.n = String(n);
    b.title = `${c.label} (key ${n + 1})`; // the whole label (the name is what it shows: its number, its label)
    b.dataset.label = c.label;
    b.setAttribute("aria-pressed", String(!!s.guess && s.guess.step === q.step && s.guess.label === c.label));
    row.append(b);
  });
  const keys = q.choices.length > 1 ? `1–${Math.min(9, q.choices.length)}` : "1";
  const foot = el("div", "ms-quiz-foot", el("span", "ms-how", `Choose (keys ${keys}), then Next ▶ reveals it.`));
  if (s.answers.size) foot.append(el("span", "ms-score", scoreLine(s)));
  return el("div", "ms-guessbox", ask, row, foot);
}

/** @param {Stage} s */
function togglePlay(s) {
  if (s.data.quiz) return;
  if (s.playing) stopPlay(s);
  else if (!atEnd(s)) {
    s.playing = true;
    s.timer = setInterval(() => {
      if (atEnd(s) || s.pos >= s.data.max_steps) stopPlay(s);
      else if (s.views.has(s.pos + 1)) go(s, s.pos + 1, { user: true, animate: true });
    }, Math.max(100, 1000 * s.data.speed));
  }
  render(s, false);
}

/** @param {Stage} s */
function stopPlay(s) {
  s.playing = false;
  clearInterval(s.timer);
  s.timer = undefined;
  if (s.data) render(s, false);
}

/** @param {Stage} s @param {string} tab */
function setTab(s, tab) {
  s.tab = tab;
  render(s, false);
  report(s, true); // the link carries the tab
}

/** @param {Stage} s @param {number} by */
function turnPage(s, by) {
  const view = s.views.get(s.pos);
  if (!view || !view.places) return;
  const total = view.places.total;
  s.page[s.pos] = Math.max(0, Math.min((s.page[s.pos] || 0) + by * perPage(s.data), total - 1));
  render(s, false);
  report(s, false); // asks for the places if the window does not hold them
}

/** @param {Stage} s @param {string} value */
function jumpTo(s, value) {
  const d = s.data;
  let k = parseInt(value, 10);
  if (Number.isNaN(k)) return;
  k = Math.max(0, k);
  let notice = "";
  if (d.finished && k > d.last) {
    notice = d.wording.past_end;
    k = d.last;
  } else if (k > d.max_steps) {
    notice = d.wording.past_limit;
    k = d.max_steps;
  }
  stopPlay(s);
  if (s.views.has(k)) go(s, k, { user: true });
  else {
    s.pos = k;
    report(s, true);
  }
  s.notice = notice;
  render(s, false);
}

// Draw step s.pos, then fit it to the screen (what is drawn changes the room it needs).
/** @param {Stage} s @param {boolean} animate */
function render(s, animate) {
  const move = draw(s, animate);
  fit(s); // measured as it rests: the animation starts after
  if (move === undefined) return;
  s.root.classList.remove("ms-animate");
  if (move) {
    void s.root.offsetWidth; // restart the animation
    s.root.classList.add("ms-animate");
  }
}

/** Draw step s.pos; whether to animate it (undefined: drawn already, as it was).
 * @param {Stage} s @param {boolean} animate @returns {boolean | undefined} */
function draw(s, animate) {
  const d = s.data;
  const q = s.q;
  const k = s.pos;
  const view = s.views.get(k);
  const end = atEnd(s);
  /** @param {string} sel */
  const button = (sel) => /** @type {HTMLButtonElement} */ (q(sel));
  button(".ms-back").disabled = k <= 0;
  button(".ms-next").disabled = end || k >= d.max_steps;
  const play = button(".ms-play");
  play.disabled = d.quiz || (end && !s.playing);
  play.textContent = s.playing ? "⏸ Pause" : "▶ Play";
  q(".ms-stepline").textContent = view ? view.heading : withStep(d.wording.heading, k);
  const jump = /** @type {HTMLInputElement} */ (q(".ms-jump-in"));
  jump.max = String(d.max_steps);
  if (document.activeElement !== jump) jump.value = String(k);
  const status = !view ? withStep(d.wording.waiting, k) : end ? d.wording.finished : view.status;
  const verdict = d.quiz && s.reveal === k && !s.notice ? s.verdicts.get(k) : undefined;
  if (verdict) {
    const score = s.answers.size ? [" ", el("span", "ms-score", scoreLine(s))] : [];
    q(".ms-status").replaceChildren(el("span", `ms-verdict ms-${verdict[0]}`, verdict[1]), ...score);
  } else q(".ms-status").textContent = s.notice || status;
  const asked = asking(s);
  s.root.dataset.pos = String(k);
  // A producer that steps something other than training names its buttons' tooltips (plain text).
  /** @type {(keyof ButtonTitles)[]} */
  const named = ["back", "next", "play", "reset"];
  if (d.titles) for (const name of named) q(`.ms-${name}`).title = d.titles[name];
  // The producer names the places a step changed (a merge's places, the words a round cut anew).
  q(".ms-tab-places").textContent = d.wording.places_tab;
  q(".ms-next-place").title = d.wording.next_places;
  q(".ms-next-place").setAttribute("aria-label", d.wording.next_places);
  // What a step is called (a round of Unigram): the jump box counts those.
  const jumpName = `Jump to ${d.wording.step_noun}`;
  q(".ms-jump-t").textContent = jumpName;
  jump.setAttribute("aria-label", jumpName);
  jump.title = `Type a ${d.wording.step_noun} number and press Enter`;
  s.root.classList.toggle("ms-large", !!d.large);
  const key = [s.serial, k, s.tab, s.page[k] || 0, view ? view.places && view.places.start : "none", !!view,
    asked ? asked.step : -1, d.hint, d.hidden_counts === k, asked ? s.answers.size : 0];
  if (key.join("|") === s.shown && !animate) return undefined;
  s.shown = key.join("|");
  s.root.classList.toggle("ms-waiting", !view);
  if (!view) {
    const card = document.createElement("div");
    card.className = "ms-card ms-wait";
    const [title, line] = [document.createElement("h4"), document.createElement("p")];
    title.textContent = withStep(d.wording.waiting_card, k);
    line.textContent = withStep(d.wording.waiting, k);
    card.append(title, line);
    q(".ms-cardcol").replaceChildren(card);
    return false;
  }
  q(".ms-cardcol").replaceChildren(...build(view.card));
  // During a question its ranked counts would give the answer away: the guess takes their place (the
  // counts below it as a hint when the teacher asks for them), and they come with the reveal.
  const hidden = d.hidden_counts === k && view.pairs.length > 0;
  const counts = hidden ? [el("div", "ms-counts-later", "The counts come with the answer.")] : build(view.pairs);
  if (asked) q(".ms-pairscol").replaceChildren(guessBox(s, asked), ...(d.hint ? counts : []));
  else q(".ms-pairscol").replaceChildren(...counts);
  const places = !!view.places && s.tab === "places";
  q(".ms-tabs").hidden = !view.places;
  q(".ms-tab-places").setAttribute("aria-selected", String(places));
  q(".ms-tab-head").setAttribute("aria-selected", String(!places));
  q(".ms-pager").hidden = !places;
  let first = 0;
  let where = "";
  if (places && view.places) {
    const total = view.places.total;
    first = Math.min(s.page[k] || 0, Math.max(0, total - 1));
    const last = Math.min(first + perPage(d), total);
    q(".ms-pager-t").textContent = `${d.wording.places_noun} ${fmt(first + 1)}–${fmt(last)} of ${fmt(total)}`;
    button(".ms-prev-place").disabled = first === 0;
    button(".ms-next-place").disabled = last >= total;
    where = total === 1 ? " · its one place" : "";
  } else if (view.places) where = " · from the start of the text";
  q(".ms-lb-before").hidden = q(".ms-before").hidden = !view.before_caption;
  q(".ms-lb-before").textContent = view.before_caption + where;
  q(".ms-lb-after").textContent = view.after_caption + where;
  const withPlaces = /** @type {StepView & {places: Places}} */ (view); // when `places`
  for (const side of ["before", "after"])
    q(`.ms-${side}`).replaceChildren(...(places ? placeLines(d, withPlaces, first, side) : [headLine(d, view, side)]));
  q(".ms-figs").textContent = view.figures;
  return animate && d.animate && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const ASKS = 2; // times the stage asks again for a step a window came without, or no window came for
const WATCH_MS = 4000; // a report of a step the stage waits for: no window within this long asks again

/** Ask the server again for the step shown: its last report (the same value) and a trigger, "ask",
 * which runs the same callback though the value did not change.
 * @param {Stage} s */
function ask(s) {
  s.asked = (s.asked || 0) + 1;
  clearTimeout(s.watch);
  s.watch = undefined;
  s.reported = "";
  report(s, true);
  s.setTrigger("ask", s.pos);
}

/** A window from Python: a new serial moves the stage to its position; otherwise the stage stays
 * where the user took it, and says so again if the window was made for another step.  A window that
 * comes without the step the stage waits for (the server's run that had it was stopped on the way)
 * is answered by asking again, a few times at most.
 * @param {Stage} s @param {Window} data */
function receive(s, data) {
  clearTimeout(s.watch); // a window came
  s.watch = undefined;
  s.asking = false;
  const fresh = data.serial !== s.serial;
  s.data = data;
  s.views = new Map(data.views.map((v) => [v.step, v]));
  s.questions = new Map((data.questions || []).map((q) => [q.step, q]));
  // The answers the server keeps; those judged here since stay until a window lists them (a new serial:
  // the server's list is the whole truth, e.g. a new run's empty one).
  const kept = fresh ? [] : pending(s);
  s.answers = new Map([...(data.answers || []), ...kept].map((a) => [a.step, a]));
  if (fresh) s.sentAnswers = "[]";
  if (fresh) {
    s.serial = data.serial;
    s.pos = data.position;
    s.page = {};
    s.notice = data.notice || "";
    s.shown = "";
    s.tab = data.tab === "head" ? "head" : "places";
    const start = placesNeeded(s, s.pos);
    s.reported = JSON.stringify({ position: s.pos, start, serial: s.serial, tab: s.tab });
    s.settledAt = JSON.stringify([s.pos, s.serial, s.tab]); // the server moved it: the page follows already
    s.moving = 0;
    s.reveal = -1;
    s.verdicts = new Map(); // the server moved the stage (a jump, a new run): a question skipped is asked again
    if (s.playing) stopPlay(s);
  }
  if (s.notice === NEXT_QUESTION && (asking(s) || atEnd(s))) s.notice = "";
  render(s, false);
  if (s.views.has(s.pos)) s.asked = 0;
  if (fresh) return;
  if (!s.views.has(s.pos) && (s.asked || 0) < ASKS) ask(s);
  else report(s, false);
}

/** The window as sent: JSON, or JSON bytes (a live room encodes one window once for its whole class).
 * @param {Window | Uint8Array | ArrayBuffer | null} data @returns {Window | null} */
function unpack(data) {
  const bytes = data instanceof Uint8Array || data instanceof ArrayBuffer;
  return bytes ? JSON.parse(new TextDecoder().decode(data)) : data;
}

/** The window comes as JSON or as JSON bytes (see unpack); the stage reports Shown and triggers "ask".
 * Named (drawStage) so that an offline lesson file calls it too, with its own bridge
 * (mergescope_ui/shared/stage/assets/offline.js).
 * @param {FrontendRendererArgs<{shown: Shown, ask: number}, Window | Uint8Array | ArrayBuffer | null>} component
 */
export default function drawStage(component) {
  const { setStateValue, setTriggerValue, parentElement } = component;
  const data = unpack(component.data);
  const root = /** @type {StageRoot | null} */ (parentElement.querySelector(".ms-stage"));
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

/** @param {Stage} s */
function unmount(s) {
  s.listening.abort();
  s.resizes.disconnect();
  clearInterval(s.timer);
  clearTimeout(s.reportTimer);
  clearTimeout(s.watch);
  s.root.__ms = undefined;
}
