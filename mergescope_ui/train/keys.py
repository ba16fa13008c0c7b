"""Every ``st.session_state`` key of the Train page, declared once.

Widget keys keep their value across page switches (``persist_state="session"``); several are also the
names of their URL parameters, so they keep short names.  BPE's run is a shared key
(:data:`mergescope_ui.shared.keys.RUN`): the Tokenize page reads it.
"""

from __future__ import annotations

from typing import Final

from mergescope_ui.shared.inputs import text_source

# --- the text (mergescope_ui.train.inputs, through shared.inputs.text_source) ------
PRESET: Final = "preset"  # selectbox: a lesson preset's id (mergescope_ui.train.presets), "" for none
SOURCE: Final = "source"  # selectbox: a built-in corpus id, PASTE or UPLOADED
PASTED_TEXT: Final = "pasted_text"  # text_area
UPLOAD: Final = "upload"  # file_uploader (its value is lost on a page switch)
UPLOAD_RAW: Final = "upload_raw"  # plain: bytes of the last uploaded file
UPLOAD_NAME: Final = "upload_name"  # plain: its file name
UPLOAD_LOSSY: Final = "upload_lossy"  # checkbox: decode invalid UTF-8 with U+FFFD

# --- training settings (mergescope_ui.train.settings_form) -------------------------
MERGES: Final = "merges"  # number_input: merges to learn
PATTERN: Final = "pattern"  # selectbox: a name from bpe_core.PATTERNS or CUSTOM
CUSTOM_REGEX: Final = "custom_regex"  # text_input shown for CUSTOM
TIE_BREAK: Final = "tie_break"  # selectbox: one of bpe_core.TIE_BREAKS
SPECIAL_TOKENS: Final = "special_tokens"  # text_area: one special token a line
MIN_FREQUENCY: Final = "min_frequency"  # number_input

# --- the run and the stage (plain keys unless said) ----------------------------------
DRIVER: Final = "train_driver"  # plain: the run the page shows, as a train.scheme_driver.Driver
BPE_DRIVER: Final = "train_bpe_driver"  # plain: the BPE run (shared RUN) as a driver, with its StageViews
STAGE: Final = "train_stage"  # the stage component (mergescope_ui.train.stage): its state is the step shown
STAGE_SERIAL: Final = "train_stage_serial"  # plain int: bumped when the server moves the stage itself
STAGE_TAB: Final = "train_stage_tab"  # plain: the sequences' tab shown, "places" or "head" (in the link)
STAGE_NOTICE: Final = "train_stage_notice"  # plain: a sentence for the stage's status line, shown once
STAGE_PART: Final = "train_stage_part"  # fragment key: the stage and the quiz (mergescope_ui.train.panel)
BELOW_PART: Final = "train_below_part"  # fragment key: the sections below the stage (panel)
STAGE_SENT: Final = "train_stage_sent"  # plain int: the serial of the last window sent to the stage
STAGE_SETTLE: Final = "train_stage_settle"  # plain int: the settle_ms the stage was last sent
JUMP_PENDING: Final = "jump_pending"  # plain: a step to pull up to on the next run
JUMP_CANCEL: Final = "jump_cancel"  # button: stops a long jump (its click interrupts the run; #28)
PLAY_SPEED: Final = "play_speed"  # selectbox: seconds per step
ANIMATE: Final = "animate"  # toggle: the two tokens slide into one at each merge
ALL_PAIRS: Final = "all_pairs"  # toggle: every pair counted at the step shown (off: the engine's top pairs)
ALL_MERGES: Final = "all_merges"  # toggle: every merge in a sortable table (off: the latest few, lighter)
DOWNLOAD_MERGES: Final = "download_merges"  # download_button: the merges as CSV

# --- the link to this moment (mergescope_ui.train.link) -----------------------------
LINK_READ: Final = "train_link_read"  # plain: the link's step, text, regex, specials were read this session
COPY_LINK: Final = "train_copy_link"  # component: the Copy-link button
QR_ENTRY: Final = "train_qr_entry"  # expander: the QR code of the link (built only while open)
DOWNLOAD_TEXT: Final = "train_download_text"  # download_button: a text too long for a link, as a file
LESSON_FIRST: Final = "train_lesson_first"  # number_input: the lesson file's first step
LESSON_LAST: Final = "train_lesson_last"  # number_input: the lesson file's last step
LESSON_DOWNLOAD: Final = "train_lesson_download"  # download_button: the offline lesson file (.html)

# --- WordPiece and Unigram (mergescope_ui.train.scheme_form, scheme_panel) -------------
SCHEME: Final = "scheme"  # radio: bpe, wordpiece or unigram (?scheme=, through shared.url_state)
WP_MERGES: Final = "wp_merges"  # number_input: WordPiece merges to learn (?wp_merges=)
UG_VOCAB: Final = "ug_vocab"  # number_input: Unigram's target vocabulary size (?ug_vocab=)
UG_SHRINK: Final = "ug_shrink"  # selectbox: Unigram's shrinking factor
SCHEME_RUN: Final = "train_scheme_run"  # plain: the run, a SchemeDriver or RemoteSchemeDriver
SCHEME_CANCELLED: Final = "train_scheme_cancelled"  # plain: the SchemeIdentity whose start was cancelled
SCHEME_RESTART: Final = "train_scheme_restart"  # button: start a cancelled or stopped run again
SCHEME_CANCEL: Final = "train_scheme_cancel"  # button: stops a large run's start
LATTICE_WORD: Final = "lattice_word"  # pills: the word whose Viterbi lattice is drawn
LATTICE_TYPED: Final = "lattice_typed"  # text_input: a word typed for the lattice

# --- quiz ------------------------------------------------------------------------------
QUIZ: Final = "quiz"  # toggle
LINK_CHECKED: Final = "train_link_checked"  # plain: the link's tie_break and quiz were checked
QUIZ_HINT: Final = "quiz_hint"  # toggle: the ranked counts stay in sight during a question
QUIZ_LOG: Final = "quiz_log"  # plain: dict step index -> mergescope_ui.train.quiz.QuizResult (as reported)

# Special values of SOURCE (the shared picker's).
PASTE: Final = text_source.PASTE
UPLOADED: Final = text_source.UPLOAD
# Special value of PATTERN.
CUSTOM: Final = "custom"
