"""Every ``st.session_state`` key of the Tokenize page, declared once (all start with ``tokenize_``)."""

from __future__ import annotations

from typing import Final

# --- the text ------------------------------------------------------------------------
TEXT: Final = "tokenize_text"  # plain: the text being tokenized (what the box last reported)
TEXT_REV: Final = "tokenize_text_rev"  # plain: bumped when the page sets the text (example, link)
TEXT_BOX: Final = "tokenize_text_box"  # components v2 text box (mergescope_ui.tokenize.live_text)
EXAMPLE: Final = "tokenize_ex_"  # + an example's name: its button

# --- the picker ------------------------------------------------------------------------
KIND: Final = "tokenize_kind"  # radio: a choice of mergescope_ui.tokenize.tokenizer_picker.CHOICES
LOCAL: Final = "tokenize_local"  # selectbox: a tokenizer found on this machine (its spec key)
CORPUS: Final = "tokenize_corpus"  # selectbox: a built-in corpus id (quick-train, character baseline)
VOCAB: Final = "tokenize_vocab"  # number_input: quick-train vocab size
PATTERN: Final = "tokenize_pattern"  # selectbox: pre-tokenization (quick-train, raw bytes)
FOLLOW: Final = "tokenize_follow"  # toggle: follow the Train page's current step
STEP: Final = "tokenize_step"  # slider: the Train page's run after k merges
FILES: Final = "tokenize_files"  # file_uploader: tokenizer files
LOAD_PATTERN: Final = "tokenize_load_pattern"  # selectbox: split pattern for loaded files
RESCAN: Final = "tokenize_rescan"  # button: look in the caches again
HF_NAME: Final = "tokenize_hf_name"  # text_input: a Hugging Face model's name, to fetch or use
HF_NAME_PROBLEM: Final = "tokenize_hf_name_problem"  # plain: why the name typed is not a model name
HF_NAMED: Final = "tokenize_hf_named"  # plain: list of hf: spec keys named in this session
FETCH: Final = "tokenize_fetch"  # button: fetch the tokenizer picked (not on this machine yet)
FETCH_PROBLEM: Final = "tokenize_fetch_problem"  # plain: (spec key, message) of the last failed fetch
RELABEL: Final = "tokenize_relabel"  # plain: set the picker's choice again (its label changed)
TO_UPLOAD: Final = "tokenize_to_upload"  # button: load the files instead of fetching

# --- the views -----------------------------------------------------------------------------
SPANS: Final = "tokenize_spans"  # components v2 token spans: a click reports the token's position
PICKED: Final = "tokenize_picked"  # plain: (position, id) of the token whose details are shown
TABS: Final = "tokenize_tabs"  # st.tabs (lazy): the open tab's label
SPECIALS: Final = "tokenize_specials"  # toggle: special tokens in the text are special (else plain text)
MARKS: Final = "tokenize_marks"  # toggle: whitespace in the tokens shows as ␣ ↵ ⇥
DECODE: Final = "tokenize_decode"  # text_input: token ids to turn back into text
PAGE: Final = "tokenize_page"  # number_input: page of tokens
DETAIL: Final = "tokenize_detail"  # selectbox: the token whose details are shown (an id)
PIECE_DETAIL: Final = "tokenize_piece_detail"  # selectbox: position of the WordPiece/Unigram token shown
COMPARE: Final = "tokenize_compare"  # multiselect: tokenizer spec keys to compare
COMPARE_EDITED: Final = "tokenize_compare_edited"  # plain: the user (or a link) chose the compare list
CHAT: Final = "tokenize_chat"  # plain: the chat's message numbers, in order
CHAT_ROLE: Final = "tokenize_chat_role_"  # + message number: selectbox of its role
CHAT_TEXT: Final = "tokenize_chat_text_"  # + message number: plain, its text
CHAT_BOX: Final = "tokenize_chat_box_"  # + message number: its live text box
CHAT_ADD: Final = "tokenize_chat_add"  # button
CHAT_DROP: Final = "tokenize_chat_drop_"  # + message number: button
ENCODE_STAGE: Final = "tokenize_encode_stage"  # components v2 stage: Watch it encode (reports the step shown)
DOWNLOAD_IDS: Final = "tokenize_dl_ids"  # download_button: all ids as text
DOWNLOAD_ZIP: Final = "tokenize_dl_zip"  # download_button: every file format in a zip

# --- the link (plain keys) -------------------------------------------------------------------
URL_READ: Final = "tokenize_url_read"  # the link's state was applied once this session
URL_NOTES: Final = "tokenize_url_notes"  # what the link asked for that could not be used

# --- memos (plain keys; see mergescope_ui.shared.workers.cache) ------------------------------------------
UPLOADS: Final = "tokenize_uploads"  # dict: digest -> LoadedUpload, the files uploaded this session
LAST_UPLOAD: Final = "tokenize_last_upload"  # the digest of the files uploaded last
USED: Final = "tokenize_used"  # list: spec keys of every tokenizer used this session (for Compare)
SESSION_MEMO: Final = "tokenize_session_memo"  # SessionMemo: the Train page's tokenizer, cut by step
RESULT_MEMO: Final = "tokenize_result_memo"  # dict: (tokenizer identity, text digest) -> Tokenized
TABLE_MEMO: Final = "tokenize_table_memo"  # dict: tokenizer identity -> EncoderTable | None (the last 2)
TABLES_SENT: Final = "tokenize_tables_sent"  # set: the identities whose EncoderTable this session sent
ENCODE_MEMO: Final = "tokenize_encode_memo"  # dict: (tokenizer, text, switch) -> EncodeViews (the last 2)
ENCODE_STAGE_STATE: Final = "tokenize_encode_stage_state"  # EncodeStage: the trace shown and its step
BUNDLE_MEMO: Final = "tokenize_bundle_memo"  # dict: tokenizer identity -> FileBundle (the last one)

# --- the Health tab (mergescope_ui.tokenize.health_view) ----------------------------------------------
HEALTH_MEMO: Final = "tokenize_health_memo"  # dict: tokenizer identity -> Checked (the last one)
HEALTH_SUMMARY: Final = "tokenize_health_summary"  # dataframe: one row a kind of finding
HEALTH_TABLE: Final = "tokenize_health_table_"  # + a kind of finding: its dataframe
HEALTH_SELFTEST: Final = "tokenize_health_selftest"  # dataframe: the self-test's table
DOWNLOAD_SELFTEST: Final = "tokenize_dl_selftest"  # download_button: the self-test as CSV
