"""Page-wide CSS: a few base touches, and the presenter (projector) mode.

Only constant CSS goes through here (no user text), rendered with ``st.html``.
"""

from __future__ import annotations

from .blocks import BLOCK_CSS
from .tables import TABLE_CSS
from .tokens import TOKEN_CSS

BASE_CSS = """
<style>
/* The page's colours for the light and the dark theme (the viewer's system setting by default, or their pick
   in the app menu): light-dark() picks by the color-scheme Streamlit sets on the app, where the variable is
   used.  Text colours are 4.5:1 or more on the page's and the sidebar's backgrounds in both themes. */
:root{--ms-muted:light-dark(#696867,#aaa7a2);--ms-note:light-dark(#495057,#b8bec5);
  --ms-accent-text:light-dark(#b5400c,#ff8f57);--ms-accent-line:light-dark(#c2410c,#f76707);
  --ms-info-text:light-dark(#1864ab,#74c0fc);--ms-info-line:light-dark(#1971c2,#4dabf7);
  --ms-panel:light-dark(#f1f3f5,#2d2b27);--ms-rule:light-dark(#dee2e6,#45423d);}
/* Big, obvious step controls. */
[data-testid="stMain"] .stButton button{min-height:2.6rem;}
/* The training page's step buttons (one horizontal row): Next the widest. */
:is(.st-key-back,.st-key-play,.st-key-reset) button{min-width:6rem;}
.st-key-next button{min-width:8rem;}
[data-testid="stMetricValue"]{font-variant-numeric:tabular-nums;}
/* A slider's value is drawn in the primary colour, 3.1:1 on the dark sidebar (white on a primary button needs
   it dark): the accent text colour instead. */
[data-testid="stSliderThumbValue"]{color:var(--ms-accent-text);}
/* Captions carry real information: Streamlit draws them at 60% opacity (3.9:1 on white, inline code in
   them 3.0:1); full opacity in a grey of 5.2:1 on white and on the sidebar's grey (6.8:1 and more in the
   dark theme). */
[data-testid="stCaptionContainer"],[data-testid="stCaptionContainer"] p{color:var(--ms-muted);opacity:1;}
/* A file the browser refused (over the upload cap, or of the wrong type): Streamlit marks its chip with an
   icon and keeps the reason ("File must be 10.0MB or smaller.") for screen readers only; show it. */
/* Phones (390 px wide): a two-line title, not three; a row of tabs wraps rather than cut its last tab
   ("Speed l…"); a row of figures (st.metric in columns) two to a line, not one; inline code (a file name, a
   long identifier) breaks anywhere rather than stick out of its line, and a space in it that ends a line
   wraps rather than hangs past the edge (pre-wrap's does); spaces kept, they can be part of a token. */
@media (max-width:640px){
  [data-testid="stMain"] h1{font-size:1.9rem;}
  [data-testid="stMain"] :not(pre) > code{overflow-wrap:anywhere;white-space:break-spaces;}
  [data-testid="stTabs"] [role="tablist"]{flex-wrap:wrap;row-gap:.25rem;}
  [data-testid="stMetricLabel"] *{white-space:normal !important;}  /* a long label wraps, not cut */
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] [data-testid="stMetric"]){flex-wrap:wrap;
    flex-direction:row;gap:.5rem 1rem;}
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] [data-testid="stMetric"])
    > [data-testid="stColumn"]{min-width:calc(50% - .5rem);flex:1 1 calc(50% - .5rem);}
}
[data-testid="stFileChip"][aria-invalid="true"]{flex-wrap:wrap;}
[data-testid="stFileChip"][aria-invalid="true"] [role="alert"]{position:static;width:auto;height:auto;
  margin:0;padding:.15rem 0 0 0;clip:auto;overflow:visible;white-space:normal;flex-basis:100%;color:inherit;
  font-size:.875rem;line-height:1.3;}
</style>
"""

# Presenter mode: readable from the back of a room.  Streamlit sizes text in
# rem, so raising the root font size scales nearly everything at once: 22 px on a
# 1280x720 projector, and in proportion to the window (33 px at 1920x1080), so the
# same screen fills any projector; times the room's text size (:data:`TEXT_SIZES`).
PRESENTER_CSS = """
<style>
html{font-size:calc(var(--ms-text-scale,1) * clamp(14px, min(1.72vw, 3.06vh), 60px));}
/* One screen on a projector: less room above the page, a one-line title. */
[data-testid="stMainBlockContainer"]{padding:3.2rem 1.6rem 3rem 1.6rem;}
[data-testid="stMain"] h1{font-size:1.9rem;padding:.1rem 0 .45rem 0;}
/* The title keeps one height whatever font draws its emoji (one that loads late made it 2 px taller and
   moved the stage below it once): one line, cut with … where the window is narrow (a phone). */
[data-testid="stMain"] h1{box-sizing:border-box;height:calc(1.9rem * 1.2 + .55rem);line-height:1.2;
  white-space:nowrap;overflow:hidden;text-overflow:ellipsis;}
:root{--ms-token-size:1.5rem;--ms-token-height:32rem;--ms-card-size:1.25rem;}
[data-testid="stMain"] .stButton button{min-height:3.2rem;font-size:1.15rem;}
[data-testid="stMetricValue"],[data-testid="stMetricValue"] *{font-size:2.4rem !important;line-height:1.2;}
[data-testid="stMetricLabel"],[data-testid="stMetricLabel"] *{font-size:1.05rem !important;}
.ms-figure .ms-value{font-size:2.4rem;line-height:1.2;}
.ms-figure .ms-label{font-size:1.05rem;}
.ms-caption,.ms-status{font-size:1.1rem;}
[data-testid="stMain"] [data-testid="stMarkdownContainer"] p{font-size:1.1rem;}
[data-testid="stDataFrame"]{font-size:1.1rem;}
:root{--ms-table-height:24rem;}
table.ms-table{font-size:1.05rem;}
</style>
"""


# The room's text size in presenter mode (app.py's sidebar, ?text_size=): a factor on the sizes above.
TEXT_SIZES = {"S": 0.85, "M": 1.0, "L": 1.2, "XL": 1.4}
DEFAULT_TEXT_SIZE = "M"


def page_css(*, presenter: bool, pages: str = "", text_size: str = DEFAULT_TEXT_SIZE) -> str:
    """The CSS for the current mode, token spans, tables and blocks included (one ``st.html`` call).

    ``pages`` is CSS the pages' own blocks need (the Train page's merge card:
    ``mergescope_ui.train.PAGE_CSS``).  Sent once per run from ``app.py`` and
    unchanged between reruns, so the browser does not restyle the page at
    every step the way a ``<style>`` inside each redrawn block would.
    """
    mode = PRESENTER_CSS if presenter else ""
    if presenter and text_size != DEFAULT_TEXT_SIZE:
        mode += f"<style>:root{{--ms-text-scale:{TEXT_SIZES.get(text_size, 1.0)};}}</style>"
    return BASE_CSS + TOKEN_CSS + pages + TABLE_CSS + BLOCK_CSS + mode
