"""The Tokenize page: paste text, pick a tokenizer, see its tokens, bytes and details.

``pages/tokenize.py`` calls these sections in order:

- :func:`header`: the title, and the link's state applied once a session (``link``, ``share``);
- :func:`text_input`: example buttons and the text box;
- :func:`picker`: which tokenizer (``specs``), resolved to one (``resolve``, with the per-session memos);
- :func:`token_view`: the counts and the coloured spans, a page at a time (``results``);
- :func:`tabs`: token ids, byte ribbon (``ribbon``), token details (``details``, ``details_tab``),
  compare (``compare_tab``), files (``file_bundle``) and the share link;
- :func:`write_link`: the link alone, when there is nothing to show.

Its session keys are in ``keys``.  The Train page's run comes from the shared key ``RUN``.
"""

from .intro import header
from .link import write_link
from .main_view import token_view
from .tab_views import tabs
from .text_box import text_input
from .tokenizer_picker import picker

__all__ = ["header", "picker", "tabs", "text_input", "token_view", "write_link"]
