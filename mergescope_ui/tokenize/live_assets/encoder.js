/**
 * The browser's encoder: byte-level BPE from a tokenizer's ranks and split pattern, and the token
 * spans drawn from its ids (the same spans shared/html/tokens.py draws). The server's engine is the
 * reference; tests/browser/test_browser_encoder.py runs this file against it.
 *
 * The records come from mergescope_ui/tokenize/encoder_table.py, field for field:
 * @typedef {{key: string, pattern: string, byte_ids: number[], merges: number[], merge_ids: number[], specials: Array<[string, number]>, invisible: string, names: Object<string, string>, marks: Object<string, string>, palette: number, title_hex: number, list_name: string}} EncoderTable
 * @typedef {{html: string, sig: string, page: number, picked: ?number, box: string, table_key: string, table: ?EncoderTable, specials: boolean, marks: boolean, max_tokens: number, live_chars: number, characters: number, bytes: number, tokens: number, count_labels: Array<[string, string]>}} LiveView
 */
/**
 * What encoder.js keeps on the page (types/page.d.ts names it): the encoders, one per table key.
 * @typedef {{Encoder: new (table: EncoderTable) => BrowserEncoder,
 *   get(key: string, table: EncoderTable | null): BrowserEncoder | null}} MsEncoders
 * What view.js asks of an encoder: the ids of a text, and the clickable spans of ids.
 * @typedef {{encode(text: string, specials: boolean): number[],
 *   spans(ids: number[], marks: boolean, max: number): TokenBox,
 *   patch(box: TokenBox, ids: number[], marks: boolean, max: number): TokenBox}} BrowserEncoder
 * How a token looks: its classes, label, title, line breaks after it, and accessible name.
 * @typedef {[string, string, string, number, string]} Look
 * One line of tokens in a box: its first position, its ids, their key (the ids joined), its element.
 * @typedef {{start: number, ids: number[], key: string, node: HTMLDivElement | null}} Block
 * A box of tokens, with the blocks it shows and whether they mark whitespace.
 * @typedef {HTMLDivElement & {msBlocks?: Block[], msMarks?: boolean}} TokenBox
 */
// A classic script run once per page (a block, so that its names stay its own): each view.js mount
// after the first finds globalThis.msEncoder already there.
if (!globalThis.msEncoder) {
  const SHIFT = 0x200000; // a pair (a, b) is the number a * SHIFT + b (ids below 2**21)
  const CACHE_LIMIT = 100000; // chunks kept at most
  const CACHE_LONGEST = 256; // a longer chunk is encoded each time
  const utf8 = new TextEncoder();
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }); // keeps a BOM
  /** @param {string} s */
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");

  /** A min-heap of merge candidates: rank first, then position (leftmost first). */
  class Heap {
    constructor() {
      /** @type {number[]} */ this.r = []; // ranks
      /** @type {number[]} */ this.p = []; // positions
    }
    /** @param {number} i @param {number} j */
    less(i, j) { return this.r[i] < this.r[j] || (this.r[i] === this.r[j] && this.p[i] < this.p[j]); }
    /** @param {number} i @param {number} j */
    swap(i, j) {
      const r = this.r[i]; this.r[i] = this.r[j]; this.r[j] = r;
      const p = this.p[i]; this.p[i] = this.p[j]; this.p[j] = p;
    }
    /** @param {number} rank @param {number} pos */
    push(rank, pos) {
      let i = this.r.length;
      this.r.push(rank); this.p.push(pos);
      while (i > 0) {
        const up = (i - 1) >> 1;
        if (!this.less(i, up)) break;
        this.swap(i, up); i = up;
      }
    }
    /** @returns {[number, number]} */
    pop() {
      const n = this.r.length - 1;
      this.swap(0, n);
      const rank = /** @type {number} */ (this.r.pop()), pos = /** @type {number} */ (this.p.pop());
      let i = 0;
      for (;;) {
        const a = 2 * i + 1, b = a + 1;
        let m = i;
        if (a < n && this.less(a, m)) m = a;
        if (b < n && this.less(b, m)) m = b;
        if (m === i) break;
        this.swap(i, m); i = m;
      }
      return [rank, pos];
    }
  }

  class Encoder {
    /** @param {EncoderTable} table */
    constructor(table) {
      this.key = table.key;
      this.split = table.pattern ? new RegExp(table.pattern, "gu") : null;
      this.byteIds = table.byte_ids;
      this.mergeIds = table.merge_ids;
      /** @type {Map<number, number>} */
      const rank = new Map();
      const m = table.merges;
      /** @type {Map<number, number>} */
      this.madeBy = new Map(); // id -> the rank of the merge that made it
      for (let r = 0, n = m.length / 2; r < n; r++) {
        const k = m[2 * r] * SHIFT + m[2 * r + 1];
        if (!rank.has(k)) rank.set(k, r);
        if (!this.madeBy.has(table.merge_ids[r])) this.madeBy.set(table.merge_ids[r], r);
      }
      this.rank = rank;
      this.pairs = m;
      this.specialIds = new Map(table.specials);
      this.specialSet = new Set(table.specials.map((s) => s[1]));
      // Leftmost first and, at one place, the longest (as the server's trie finds them).
      const names = table.specials.map((s) => s[0]).sort((a, b) => b.length - a.length);
      this.specialRe = names.length ? new RegExp(names.map(escape).join("|"), "gu") : null;
      this.invisible = new RegExp("^[" + table.invisible + "]$", "u");
      this.names = table.names;
      // How the spans look, as the server's do (shared/html/tokens.py): the table carries its constants.
      this.marks = table.marks;
      this.palette = table.palette;
      this.titleHex = table.title_hex;
      this.listName = table.list_name;
      /** @type {Map<string, number[]>} */
      this.cache = new Map(); // chunk -> its ids
      /** @type {Map<number, Uint8Array>} */
      this.byteMemo = new Map(); // id -> its bytes
      /** @type {Map<number, Look>} */
      this.labelMemo = new Map(); // id (marks) or -1 - id (no marks) -> how it looks
    }

    /** The ids of text; with specials, special-token strings become their one id.
     * @param {string} text @param {boolean} specials @returns {number[]} */
    encode(text, specials) {
      /** @type {number[]} */
      const out = [];
      let pos = 0;
      if (specials && this.specialRe) {
        for (const m of text.matchAll(this.specialRe)) {
          this.ordinary(text.slice(pos, m.index), out);
          out.push(/** @type {number} */ (this.specialIds.get(m[0]))); // the pattern's names are its keys
          pos = m.index + m[0].length;
        }
      }
      this.ordinary(text.slice(pos), out);
      return out;
    }

    /** One piece without special tokens: its chunks (the text between matches is a chunk too).
     * @param {string} piece @param {number[]} out */
    ordinary(piece, out) {
      if (!piece) return;
      if (!this.split) { this.chunk(piece, out); return; }
      let pos = 0;
      for (const m of piece.matchAll(this.split)) {
        const start = m.index, end = start + m[0].length;
        if (end === start) continue;
        if (start > pos) this.chunk(piece.slice(pos, start), out);
        this.chunk(m[0], out);
        pos = end;
      }
      if (pos < piece.length) this.chunk(piece.slice(pos), out);
    }

    /** @param {string} text @param {number[]} out */
    chunk(text, out) {
      let ids = this.cache.get(text);
      if (ids === undefined) {
        ids = this.bpe(utf8.encode(text));
        if (text.length <= CACHE_LONGEST) {
          if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
          this.cache.set(text, ids);
        }
      }
      for (let i = 0; i < ids.length; i++) out.push(ids[i]);
    }

    /** One chunk's ids: the lowest-rank pair merged first, everywhere (left to right), until none is.
     * A merge only makes pairs of higher rank (a token is merged after it is made), so taking the
     * candidates from a heap, lowest rank and then leftmost first, is the server's order.
     * @param {Uint8Array} data @returns {number[]} */
    bpe(data) {
      const n = data.length;
      const ids = new Array(n);
      for (let i = 0; i < n; i++) ids[i] = this.byteIds[data[i]];
      if (n < 2) return ids;
      const rank = this.rank;
      const next = new Int32Array(n), prev = new Int32Array(n), alive = new Uint8Array(n).fill(1);
      const heap = new Heap();
      for (let i = 0; i < n; i++) {
        next[i] = i + 1; prev[i] = i - 1;
        if (i + 1 < n) {
          const r = rank.get(ids[i] * SHIFT + ids[i + 1]);
          if (r !== undefined) heap.push(r, i);
        }
      }
      while (heap.r.length) {
        const [r, i] = heap.pop();
        if (!alive[i]) continue;
        const j = next[i];
        if (j >= n || rank.get(ids[i] * SHIFT + ids[j]) !== r) continue;
        ids[i] = this.mergeIds[r];
        alive[j] = 0;
        next[i] = next[j];
        if (next[j] < n) prev[next[j]] = i;
        const p = prev[i];
        if (p >= 0) {
          const rl = rank.get(ids[p] * SHIFT + ids[i]);
          if (rl !== undefined) heap.push(rl, p);
        }
        if (next[i] < n) {
          const rr = rank.get(ids[i] * SHIFT + ids[next[i]]);
          if (rr !== undefined) heap.push(rr, i);
        }
      }
      const out = [];
      for (let i = 0; i < n; i = next[i]) out.push(ids[i]);
      return out;
    }

    /** The bytes of an id the encoder can make (a byte, a merge's result, a special token).
     * @param {number} id @returns {Uint8Array} */
    bytesOf(id) {
      let b = this.byteMemo.get(id);
      if (b !== undefined) return b;
      const byte = this.byteIds.indexOf(id);
      if (byte >= 0) b = Uint8Array.of(byte);
      else if (this.madeBy.has(id)) {
        const r = /** @type {number} */ (this.madeBy.get(id));
        const left = this.bytesOf(this.pairs[2 * r]), right = this.bytesOf(this.pairs[2 * r + 1]);
        b = new Uint8Array(left.length + right.length);
        b.set(left); b.set(right, left.length);
      } else {
        const name = [...this.specialIds].find((s) => s[1] === id);
        b = utf8.encode(name ? name[0] : "");
      }
      this.byteMemo.set(id, b);
      return b;
    }

    /** A whole character's name when it shows nothing (bpe_core.byte_level.invisible_name), else null.
     * @param {string} ch @returns {string | null} */
    invisibleName(ch) {
      const cp = /** @type {number} */ (ch.codePointAt(0)); // ch is one whole character
      if (cp >= 0xfe00 && cp <= 0xfe0f) return "VS" + (cp - 0xfe00 + 1);
      if (cp >= 0xe0100 && cp <= 0xe01ef) return "VS" + (cp - 0xe0100 + 17);
      if (cp === 0x34f) return "CGJ";
      if (!this.invisible.test(ch)) return null;
      if (Object.prototype.hasOwnProperty.call(this.names, ch)) return this.names[ch];
      if (cp >= 0xe0020 && cp <= 0xe007e) return "TAG " + String.fromCodePoint(cp - 0xe0000);
      return "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
    }

    /** bpe_core.byte_level.readable: whole characters as text, other bytes as <XX>.
     * @param {Uint8Array} bytes @param {boolean} marks */
    readable(bytes, marks) {
      const out = [];
      let i = 0;
      const n = bytes.length;
      while (i < n) {
        const b = bytes[i];
        const w = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
        let ch = null;
        if (w && i + w <= n) {
          try { ch = strict.decode(bytes.subarray(i, i + w)); } catch (e) { ch = null; }
        }
        if (ch === null) {
          out.push("<" + b.toString(16).toUpperCase().padStart(2, "0") + ">");
          i += 1;
          continue;
        }
        if (Object.prototype.hasOwnProperty.call(this.marks, ch)) out.push(marks ? this.marks[ch] : ch);
        else {
          const name = this.invisibleName(ch);
          out.push(name === null ? ch : "⟨" + name + "⟩");
        }
        i += w;
      }
      return out.join("");
    }

    /** How a token looks: [classes, label, title, line breaks after it, accessible name]
     * (html/tokens.py token_span, clickable_tokens.token_name).
     * @param {number} id @param {boolean} marks @returns {Look} */
    look(id, marks) {
      const memoKey = marks ? id : -1 - id;
      let look = this.labelMemo.get(memoKey);
      if (look) return look;
      const bytes = this.bytesOf(id);
      const special = this.specialSet.has(id);
      let whole = true;
      try { strict.decode(bytes); } catch (e) { whole = false; }
      let classes = "ms-t ms-special";
      if (!special) {
        classes = "ms-t " + (id < 256 && bytes.length === 1 ? "ms-byte" : "ms-c" + (id % this.palette));
        if (!whole) classes += " ms-partial";
      }
      const label = special ? new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) : this.readable(bytes, marks);
      const hex = Array.from(bytes.subarray(0, this.titleHex), (b) => b.toString(16).toUpperCase().padStart(2, "0"));
      const title = `id ${id} · ${bytes.length} ${bytes.length === 1 ? "byte" : "bytes"}: ${hex.join(" ")}` +
        (bytes.length > this.titleHex ? " …" : "") + ` · "${this.readable(bytes, true)}"` +
        (special ? " · special token" : "");
      let breaks = 0;
      if (!special) for (const b of bytes) if (b === 10 && breaks < 2) breaks += 1;
      // What a screen reader says (clickable_tokens.token_name): text, id, byte count.
      const name = `"${special ? label : this.readable(bytes, true)}", id ${id}, ${bytes.length} ` +
        (bytes.length === 1 ? "byte" : "bytes") + (special ? ", special token" : "");
      look = [classes, label, title, breaks, name];
      this.labelMemo.set(memoKey, look);
      return look;
    }

    /** The clickable spans of ids (the first max of them) in a new <div class="ms-tokens">.
     * @param {number[]} ids @param {boolean} marks @param {number} max @returns {TokenBox} */
    spans(ids, marks, max) {
      const box = /** @type {TokenBox} */ (document.createElement("div"));
      box.className = "ms-tokens";
      box.setAttribute("role", "list");
      box.setAttribute("aria-label", this.listName);
      this.patch(box, ids, marks, max);
      return box;
    }

    /** Make box show ids, changing as little as it can: each line of tokens (up to a token that
     * holds a newline) is a block of its own, so the browser lays out again only the lines that
     * changed; lines after the change are kept, their positions (data-i) renumbered if they moved.
     * Labels and titles go in with textContent and setAttribute, never as markup.
     * @param {TokenBox} box @param {number[]} ids @param {boolean} marks @param {number} max
     * @returns {TokenBox} */
    patch(box, ids, marks, max) {
      const shown = Math.min(ids.length, max);
      /** @type {Block[]} */
      const fresh = [];
      for (let i = 0, start = 0; i < shown; i++) {
        if (this.look(ids[i], marks)[3] > 0 || i === shown - 1) {
          fresh.push({ start, ids: ids.slice(start, i + 1), key: "", node: null });
          start = i + 1;
        }
      }
      for (const b of fresh) b.key = b.ids.join(",");
      const old = box.msMarks === marks && box.msBlocks ? box.msBlocks : [];
      if (!old.length) box.replaceChildren();
      let p = 0;
      while (p < old.length && p < fresh.length && old[p].key === fresh[p].key && old[p].start === fresh[p].start) {
        fresh[p].node = old[p].node;
        p++;
      }
      let s = 0;
      while (s < old.length - p && s < fresh.length - p &&
             old[old.length - 1 - s].key === fresh[fresh.length - 1 - s].key) s++;
      for (let k = 0; k < s; k++) {
        const was = old[old.length - 1 - k], now = fresh[fresh.length - 1 - k];
        const node = /** @type {HTMLDivElement} */ (was.node); // a block shown has its element
        now.node = node;
        if (was.start !== now.start) {
          let i = now.start;
          for (const span of node.querySelectorAll(".ms-t")) span.setAttribute("data-i", String(i++));
        }
      }
      for (let k = p; k < old.length - s; k++) old[k].node?.remove();
      box.querySelectorAll(":scope > .ms-more, :scope > .ms-empty").forEach((e) => e.remove());
      const before = s ? fresh[fresh.length - s].node : null;
      for (let k = p; k < fresh.length - s; k++) {
        const b = fresh[k];
        b.node = this.line(b.ids, b.start, marks);
        box.insertBefore(b.node, before);
      }
      box.msBlocks = fresh;
      box.msMarks = marks;
      if (!ids.length) {
        const empty = document.createElement("span");
        empty.className = "ms-empty";
        empty.setAttribute("role", "listitem");
        empty.textContent = "(empty text)";
        box.appendChild(empty);
      }
      if (ids.length > shown) {
        const more = document.createElement("span");
        more.className = "ms-more";
        more.setAttribute("role", "listitem");
        more.textContent = ` … ${(ids.length - shown).toLocaleString("en-US")} more tokens not shown`;
        box.appendChild(more);
      }
      return box;
    }

    /** One line of tokens as a block: a span per id (position from start), line breaks after it.
     * @param {number[]} ids @param {number} start @param {boolean} marks */
    line(ids, start, marks) {
      const block = document.createElement("div");
      block.className = "ms-line";
      block.setAttribute("role", "none"); // the list's items are the tokens
      for (let i = 0; i < ids.length; i++) {
        const [classes, label, title, breaks, name] = this.look(ids[i], marks);
        const span = document.createElement("span");
        span.setAttribute("data-i", String(start + i));
        span.setAttribute("role", "listitem");
        span.setAttribute("aria-label", name);
        span.className = classes;
        span.title = title;
        span.textContent = label;
        block.appendChild(span);
        for (let k = 0; k < breaks; k++) block.appendChild(document.createElement("br"));
      }
      return block;
    }
  }

  /** @type {Map<string, Encoder | null>} */
  const tables = new Map(); // key -> Encoder, for this page's life
  globalThis.msEncoder = {
    Encoder,
    /** The encoder for key, made from table when it comes (sent once per session); null if unknown.
     * @param {string} key @param {EncoderTable | null} table */
    get(key, table) {
      if (!key) return null;
      if (table && table.key === key && !tables.has(key)) {
        try { tables.set(key, new Encoder(table)); } catch (e) { tables.set(key, null); }
      }
      return tables.get(key) || null;
    },
  };
}
