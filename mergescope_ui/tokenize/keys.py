"""Every ``st.session_state`` key of the Tokenize page, declared once (all start with ``tokenize_``).

The page reads the Train page's run through the shared key
:data:`mergescope_ui.shared.keys.RUN`.  Its link parameters (``t``, ``tok``,
``cmp``, ``page``) are not widget keys: :mod:`mergescope_ui.tokenize.link`
reads and writes them.
"""

from __future__ import annotations

from typing import Final

# --- the text ------------------------------------------------------------------------
TEXT: Final = "tokenize_text"  # text_area
EXAMPLE: Final = "tokenize_ex_"  # + an example's name: its button

# --- the picker ------------------------------------------------------------------------
KIND: Final = "tokenize_kind"  # radio: a kind from mergescope_ui.tokenize.specs.KINDS
CORPUS: Final = "tokenize_corpus"  # selectbox: a built-in corpus id (quick-train, character baseline)
VOCAB: Final = "tokenize_vocab"  # number_input: quick-train vocab size
PATTERN: Final = "tokenize_pattern"  # selectbox: pre-tokenization (quick-train, raw bytes)
FOLLOW: Final = "tokenize_follow"  # toggle: follow the Train page's current step
STEP: Final = "tokenize_step"  # slider: the Train page's run after k merges
FILES: Final = "tokenize_files"  # file_uploader: tokenizer files
LOAD_PATTERN: Final = "tokenize_load_pattern"  # selectbox: split pattern for loaded files

# --- the views -----------------------------------------------------------------------------
PAGE: Final = "tokenize_page"  # number_input: page of tokens
DETAIL: Final = "tokenize_detail"  # selectbox: the token whose details are shown
COMPARE: Final = "tokenize_compare"  # multiselect: tokenizer spec keys to compare
DOWNLOAD_IDS: Final = "tokenize_dl_ids"  # download_button: all ids as text
DOWNLOAD_ZIP: Final = "tokenize_dl_zip"  # download_button: every file format in a zip

# --- the link (plain keys) -------------------------------------------------------------------
URL_READ: Final = "tokenize_url_read"  # the link's state was applied once this session
URL_NOTES: Final = "tokenize_url_notes"  # what the link asked for that could not be used

# --- memos (plain keys; see mergescope_ui.shared.cache) ------------------------------------------
UPLOADED: Final = "tokenize_uploaded"  # LoadedUpload: the last files uploaded and what loading them gave
SESSION_MEMO: Final = "tokenize_session_memo"  # SessionMemo: the Train page's tokenizer, cut by step
RESULT_MEMO: Final = "tokenize_result_memo"  # dict: (tokenizer identity, text digest) -> Tokenized
BUNDLE_MEMO: Final = "tokenize_bundle_memo"  # dict: tokenizer identity -> FileBundle (the last one)
