"""The CSS of the "What if?" sections (constant; it goes into the Train page's CSS, sent once per run)."""

from __future__ import annotations

WHATIF_CSS = """
<style>
.ms-whatif-bar{border:2px solid #1971c2;border-radius:.8rem;padding:.5rem 1rem;
  background:rgba(25,113,194,.06);}
.ms-whatif-bar b{color:#1864ab;}
.ms-whatif-bar .ms-note{font-size:.85em;opacity:.75;}
.ms-whatif .ms-tokens{max-height:var(--ms-whatif-height,7.6rem);
  font-size:min(var(--ms-token-size,1.05rem),1.1rem);}
/* a token starting with : ; ! ) is no break opportunity by the Unicode line rules, so a long one
   ran out of the box: allow a break between any two tokens */
:is(.ms-whatif,.ms-only) .ms-tokens{line-break:anywhere;}
.ms-whatif .ms-h3{font-size:1.25rem;padding:.5rem 0 .4rem 0;}
.ms-whatif table.ms-table{font-size:.92rem;}
.ms-whatif table.ms-table :is(td,th){white-space:normal;padding:.2rem .4rem;}
table.ms-table tr.ms-same td{background:#ebfbee;}
table.ms-table tr.ms-part td{background:#fff4e6;font-weight:700;}
.ms-only .ms-tokens{max-height:6rem;}
/* token spans inside a line of text (the merge-order lesson) */
.ms-tokens.ms-inline{border:none;font-family:inherit;max-height:none;padding:.2rem 0;margin-bottom:.5rem;}
</style>
"""
