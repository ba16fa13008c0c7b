"""The CSS of the "What if?" sections (in the Train page's CSS).  Boxes are sized in ``em`` of their
tokens, so they hold as many lines in presenter mode and the comparison fits one screen."""

from __future__ import annotations

WHATIF_CSS = """
<style>
.ms-whatif-bar{border:2px solid var(--ms-info-line);border-radius:.8rem;padding:.4rem .9rem;
  background:rgba(25,113,194,.06);line-height:1.4;}
.ms-whatif-bar b{color:var(--ms-info-text);}
.ms-whatif-bar .ms-note{font-size:.85em;opacity:.75;}
.ms-whatif .ms-tokens{max-height:calc(3 * 1.9em + .6rem);line-height:1.9;
  font-size:min(var(--ms-token-size,1.05rem),1rem);}
/* "… 50 more tokens not shown" in a small box: words, not a token */
:is(.ms-whatif,.ms-order) .ms-tokens .ms-more{font-family:"Source Sans Pro",sans-serif;font-size:.8em;
  word-break:normal;line-break:auto;}
/* the merge-order lesson's two cuts: four lines each */
.ms-order .ms-tokens{max-height:calc(4 * 1.9em + .6rem);line-height:1.9;
  font-size:min(var(--ms-token-size,1.05rem),1rem);}
/* a token starting with : ; ! ) is no break opportunity by the Unicode line rules, so a long one
   ran out of the box: allow a break between any two tokens */
:is(.ms-whatif,.ms-only,.ms-order) .ms-tokens{line-break:anywhere;}
:is(.ms-whatif,.ms-whatif-key) .ms-caption{font-size:.8rem;margin:.2rem 0 0 0;line-height:1.4;}
.ms-whatif table.ms-table{font-size:.8rem;}
.ms-whatif table.ms-table :is(td,th){white-space:normal;padding:.15rem .4rem;line-height:1.3;}
/* the figures are words and numbers, not tokens: the text font, narrower than the tokens' monospace,
   so the end's five columns fit a presenter column without wrapping a cell */
.ms-figures-box table.ms-table td{font-family:inherit;font-variant-numeric:tabular-nums;}
.ms-figures-box table.ms-table th{white-space:nowrap;}
table.ms-table tr.ms-same td{background:light-dark(#ebfbee,#12291c);}
table.ms-table tr.ms-part td{background:light-dark(#fff4e6,#4a2a0e);font-weight:700;}
/* the tokens only one side has: a line under that side's text, the count first */
.ms-whatif .ms-only .ms-tokens{max-height:calc(1.9em + .9rem);margin-top:.3rem;}
/* a box's label on its first line, before the tokens: which history, and what the strip holds */
:is(.ms-side,.ms-only-label){font-family:"Source Sans Pro",sans-serif;margin-right:.5em;}
.ms-side{font-weight:700;font-size:.9em;}
.ms-only-label{font-size:.8em;opacity:.7;}
/* the what-if's buttons a little lower than presenter mode's 3.2rem, for one screen */
[data-testid="stMain"]
  :is(.st-key-whatif_back,.st-key-whatif_to_end,.st-key-order_earlier,.st-key-order_later) .stButton button{
  min-height:2.6rem;}
/* token spans inside a line of text (the merge-order lesson) */
.ms-tokens.ms-inline{border:none;font-family:inherit;max-height:none;padding:.2rem 0;margin-bottom:.5rem;}
.ms-tokens.ms-abc{line-height:1.9;margin:0;padding:0;font-size:1rem;word-break:normal;}
.ms-abc .ms-abc-note{opacity:.7;font-size:.9em;}
</style>
"""
