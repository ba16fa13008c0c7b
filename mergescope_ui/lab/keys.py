"""Every ``st.session_state`` key of the Vocab-size lab, declared once (all start with ``lab_``)."""

from __future__ import annotations

from typing import Final

from mergescope_ui.shared.inputs import text_source

# --- training text ----------------------------------------------------------------
CORPORA: Final = "lab_corpora"  # multiselect: built-in corpus ids
PASTED: Final = "lab_pasted"  # text_area: more training text
UPLOAD: Final = "lab_upload"  # file_uploader (its value is lost on a page switch)
UPLOAD_RAW: Final = "lab_upload_raw"  # plain: bytes of the last uploaded file
UPLOAD_NAME: Final = "lab_upload_name"  # plain: its name
UPLOAD_LOSSY: Final = "lab_upload_lossy"  # checkbox: decode invalid UTF-8 with U+FFFD

# --- held-out text ------------------------------------------------------------------
HELDOUT_MODE: Final = "lab_heldout_mode"  # radio: SPLIT or SEPARATE
SPLIT_BY: Final = "lab_split_by"  # radio: DOCUMENTS or FRACTION
DELIMITER: Final = "lab_delimiter"  # selectbox: document delimiter
HELDOUT_SHARE: Final = "lab_heldout_share"  # slider: percent held out
SPLIT_SEED: Final = "lab_split_seed"  # number_input
HELDOUT_SOURCE: Final = "lab_heldout_source"  # selectbox: built-in corpus id or PASTE
HELDOUT_PASTED: Final = "lab_heldout_pasted"  # text_area

# --- tokenizers from files, for comparison ---------------------------------------------
REF_UPLOAD: Final = "lab_ref_upload"  # file_uploader, several files of one tokenizer
REF_FILES: Final = "lab_ref_files"  # plain: list of (name, bytes) of the last upload

# --- settings ---------------------------------------------------------------------
VOCAB: Final = "lab_vocab"  # number_input: the largest vocab size
PATTERN: Final = "lab_pattern"  # selectbox
TIE_BREAK: Final = "lab_tie_break"  # selectbox
SPECIAL_TOKENS: Final = "lab_special_tokens"  # text_area: one a line
SIZES: Final = "lab_sizes"  # text_input: the user's own vocab sizes for the table
SAMPLES: Final = "lab_samples"  # number_input: characters per round-trip check

# --- views ------------------------------------------------------------------------
CURVE_METRIC: Final = "lab_curve_metric"  # radio
SCRIPT_TEXT: Final = "lab_script_text"  # selectbox: which text's scripts
SCRIPT_METRIC: Final = "lab_script_metric"  # radio

# --- speed lesson -----------------------------------------------------------------
SPEED_MERGES: Final = "lab_speed_merges"  # number_input
SPEED_CHARS: Final = "lab_speed_chars"  # number_input: how much of the training text
SPEED_RUN: Final = "lab_speed_run"  # button
SPEED_ASKED: Final = "lab_speed_asked"  # plain: the button was pressed (set by its callback)
SPEED_RESULT: Final = "lab_speed_result"  # plain: mergescope_ui.lab.speed.TimedLesson

# --- the link (plain keys) ---------------------------------------------------------
URL_READ: Final = "lab_url_read"  # the link's settings were applied once this session

# Values of HELDOUT_MODE / SPLIT_BY / HELDOUT_SOURCE.
SPLIT: Final = "split"
SEPARATE: Final = "separate"
DOCUMENTS: Final = "documents"
FRACTION: Final = "fraction"
PASTE: Final = text_source.PASTE  # the shared picker's
