"""The Tokenize page: paste text, pick a tokenizer, see its tokens, bytes and details.

``pages/views/tokenize_page.py`` calls these sections in order:

- :func:`header` (``intro``): the title, and the link's state applied once a session
  (``link`` reads and writes the URL, ``share`` is its pure side);
- :func:`text_input` (``text_box``): example buttons and the text box, which reports while you
  type (``live_text``, a components v2 element);
- :func:`picker` (``tokenizer_picker``): which tokenizer (``specs``), resolved to one
  (``resolve``: quick-trained and cached, the Train page's run, tiktoken's and the Hugging Face
  caches on this machine, uploaded files);
- :func:`token_view` (``main_view``): two switches (special tokens, whitespace marks), the counts
  and the coloured spans, a page at a time, each token clickable (``clickable_tokens``; ``results``
  holds the records; ``schemes`` what each scheme does differently, looked up once by its name, and
  ``piece_html``/``piece_views`` the tokens of WordPiece and Unigram); while you type the browser
  encodes and draws them itself, with their counts (``encoder_table`` sends the tokenizer,
  ``live_assets/encoder.js`` encodes); the tokens are a list for screen readers, each named by its
  text, id and bytes;
- :func:`tabs` (``tab_views``): token ids (with ids back to text: ``decode_box``), byte ribbon
  (``ribbon``), watch it encode (``watch_encode_view`` mounts the shared stage with the windows
  ``watch_encode`` builds from the engine's encode trace), token details (``details_tab`` on
  ``details``), compare (``compare_tab``, and the
  split patterns side by side: ``split_patterns``), chat (``chat_tab`` on ``chat``),
  files (``file_bundle``), share;
- :func:`write_link`: the link alone, when there is nothing to show.

Its session keys are in ``keys``; the Train page's run comes through the shared key ``RUN``;
``screen`` says whether it is on a projector or a phone (presenter mode and phones draw it more
compactly).
"""

from .intro import header
from .link import write_link
from .main_view import token_view
from .tab_views import tabs
from .text_box import text_input
from .tokenizer_picker import picker

__all__ = ["header", "picker", "tabs", "text_input", "token_view", "write_link"]
