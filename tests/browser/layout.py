"""Layout checks run in the page: what sticks out of its column, and what lies outside the viewport.

Used by the Train page's browser tests and by ``bench/bench_training_page.py``.
"""

from __future__ import annotations

# Every visible element of the main area (or of the element the selector passed names) that sticks out:
# past the viewport's right edge, out of a
# parent that does not clip it, or out of sight inside a box that clips or scrolls sideways (a table
# column hidden behind a scroll bar).  Text cut with an ellipsis on purpose is not sticking out.
STICKING_OUT = """
(root) => {
  const main = document.querySelector(root || '[data-testid="stMain"]');
  const vw = document.documentElement.clientWidth;
  const out = [];
  const name = (el) => (el.tagName + '.' + String(el.className).trim().split(/\\s+/).slice(0, 2).join('.'))
    .slice(0, 50);
  for (const el of main.querySelectorAll('*')) {
    if (!el.checkVisibility() || el.closest('[data-testid="stVegaLiteChart"], svg')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const style = getComputedStyle(el);
    if (r.right > vw + 1) out.push(`${name(el)} ends ${Math.round(r.right - vw)} px past the viewport`);
    const p = el.parentElement;
    if (p && getComputedStyle(p).overflowX === 'visible' && getComputedStyle(p).display !== 'inline') {
      const pr = p.getBoundingClientRect();
      if (pr.width > 0 && r.right > pr.right + 1.5)
        out.push(`${name(el)} sticks out of ${name(p)} by ${Math.round(r.right - pr.right)} px`);
    }
    // (an element 1 px wide is a screen reader's label, hidden on purpose)
    const clips = style.overflowX !== 'visible' && style.textOverflow !== 'ellipsis' && el.clientWidth > 1;
    if (clips && el.scrollWidth > el.clientWidth + 1)
      out.push(`${name(el)} hides ${el.scrollWidth - el.clientWidth} px of its content sideways`);
  }
  return [...new Set(out)].slice(0, 20);
}
"""

# The boxes of the stage's parts, and whether the page scrolled.
STAGE_BOXES = """
() => {
  const box = (sel) => {
    const els = [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility());
    if (!els.length) return null;
    const rs = els.map((e) => e.getBoundingClientRect());
    return {left: Math.min(...rs.map((r) => r.left)), top: Math.min(...rs.map((r) => r.top)),
            right: Math.max(...rs.map((r) => r.right)), bottom: Math.max(...rs.map((r) => r.bottom)),
            count: els.length};
  };
  const main = document.querySelector('[data-testid="stMain"]');
  return {
    width: document.documentElement.clientWidth, height: window.innerHeight, scrolled: main.scrollTop,
    stepline: box('.ms-stage .ms-stepline'), next: box('.ms-stage .ms-next'), back: box('.ms-stage .ms-back'),
    jump: box('.ms-stage .ms-jump-in'), card: box('.ms-stage .ms-card'), chart: box('.ms-stage .ms-bars'),
    before: box('.ms-stage .ms-before .ms-t'), after: box('.ms-stage .ms-after .ms-t'),
    fused: box('.ms-stage .ms-before .ms-fuse'), fresh: box('.ms-stage .ms-after .ms-new'),
  };
}
"""


def outside_viewport(boxes: dict) -> list[str]:
    """The parts in ``boxes`` (from :data:`STAGE_BOXES`) that are missing or not wholly in the viewport."""
    bad = []
    for part in ("stepline", "next", "back", "jump", "card", "chart", "before", "after"):
        b = boxes.get(part)
        if b is None:
            bad.append(f"{part}: not on the page")
        elif b["left"] < 0 or b["top"] < 0 or b["right"] > boxes["width"] or b["bottom"] > boxes["height"]:
            bad.append(f"{part}: {b} is not inside {boxes['width']}x{boxes['height']}")
    if boxes["scrolled"]:
        bad.append(f"the page is scrolled by {boxes['scrolled']} px")
    return bad


# Number and word cells of the tables (token cells may wrap anywhere) holding one word (no space) that
# the browser broke over two lines to fit their column ("chose|n", an id "28|2").
SPLIT_WORDS = """
() => {
  const out = [];
  for (const td of document.querySelectorAll('table.ms-table :is(td.ms-num, td.ms-word)')) {
    const text = td.textContent.trim();
    if (!text || /\\s/.test(text) || !td.checkVisibility()) continue;
    const range = document.createRange();
    range.selectNodeContents(td);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (lines.size > 1) out.push(`${text} takes ${lines.size} lines`);
  }
  return out.slice(0, 10);
}
"""

# Pair-chart rows whose " + " is out of sight (a too-narrow label clipped at its end).
HIDDEN_PLUS = """
() => [...document.querySelectorAll('.ms-stage .ms-bar-l')].filter((label) => {
  const plus = label.querySelector('.ms-bar-op');
  if (!plus) return true;
  const l = label.getBoundingClientRect(), p = plus.getBoundingClientRect();
  return p.width === 0 || p.left < l.left - 1 || p.right > l.right + 1;
}).map((label) => label.textContent)
"""
