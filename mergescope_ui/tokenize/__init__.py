"""The Tokenize page: paste text, pick a tokenizer, see its tokens, bytes and details.

``pages/views/tokenize_page.py`` calls these sections in order:

- :func:`header` (``link``): the title, and the link's state (``share`` is its pure side);
- :func:`text_input` (``live_text``): example buttons and the text box;
- :func:`picker` (``tokenizer_picker``): which tokenizer (``specs``), resolved (``resolve``);
- :func:`token_view` (``main_view``): the switches, the counts and the clickable spans
  (``clickable_tokens``; ``results`` the records, ``schemes`` what differs per scheme, ``piece_html``
  WordPiece's and Unigram's tokens); while you type the browser encodes (``encoder_table``);
- :func:`tabs` (``tab_views``): token ids (``decode_box``), byte ribbon (``ribbon``), watch it encode
  (``watch_encode_view``, ``watch_encode``), details (``details``), compare
  (``compare_tab``, ``split_patterns``), chat (``chat``), files (``file_bundle``), share;
- :func:`write_link`: the link alone, when there is nothing to show.

Its session keys are in ``keys``; ``screen`` says whether it is on a projector or a phone.
"""

from .link import header, write_link
from .live_text import text_input
from .main_view import token_view
from .tab_views import tabs
from .tokenizer_picker import picker

__all__ = ["header", "picker", "tabs", "text_input", "token_view", "write_link"]
