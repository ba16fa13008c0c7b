"""Every ``st.session_state`` key the app uses, declared once.

Widget keys keep their value across page switches with
``persist_state="session"``; plain keys (no widget) live for the session.
"""

from __future__ import annotations

from typing import Final

# --- app-wide widgets (sidebar, set in app.py) -------------------------------
PRESENTER: Final = "presenter"  # toggle: large fonts for a projector

# --- corpus choice (mergescope_ui.sources) -----------------------------------
SOURCE: Final = "source"  # selectbox: a built-in corpus id, PASTE or UPLOAD
PASTED_TEXT: Final = "pasted_text"  # text_area
UPLOAD: Final = "upload"  # file_uploader (its value is lost on a page switch)
UPLOAD_RAW: Final = "upload_raw"  # plain: bytes of the last uploaded file
UPLOAD_NAME: Final = "upload_name"  # plain: its file name
UPLOAD_LOSSY: Final = "upload_lossy"  # checkbox: decode invalid UTF-8 with U+FFFD

# --- training settings (sidebar of the training page) ------------------------
MERGES: Final = "merges"  # number_input: merges to learn
PATTERN: Final = "pattern"  # selectbox: a name from bpe_core.PATTERNS or CUSTOM
CUSTOM_REGEX: Final = "custom_regex"  # text_input shown for CUSTOM
TIE_BREAK: Final = "tie_break"  # selectbox: one of bpe_core.TIE_BREAKS
SPECIAL_TOKENS: Final = "special_tokens"  # text_area: one special token a line
MIN_FREQUENCY: Final = "min_frequency"  # number_input

# --- the training run (plain keys) --------------------------------------------
RUN: Final = "run"  # mergescope_ui.stepper.TrainingRun: the trainer and its records
RUN_NOTICE: Final = "run_notice"  # plain: a sentence saying training restarted and why
PLAYING: Final = "playing"  # plain bool
PLAY_SPEED: Final = "play_speed"  # select_slider: seconds per step
JUMP_TO: Final = "jump_to"  # number_input: target step
JUMP_PENDING: Final = "jump_pending"  # plain: a step to pull up to on the next run
WHOLE_PREVIEW: Final = "whole_preview"  # toggle: show the engine's whole preview, not the first WINDOW_CHARS

# --- quiz ----------------------------------------------------------------------
QUIZ: Final = "quiz"  # toggle
QUIZ_GUESS: Final = "quiz_guess"  # radio: the guessed pair label (None until chosen)
QUIZ_LOG: Final = "quiz_log"  # plain: dict step index -> mergescope_ui.quiz.QuizResult

# Special values of SOURCE.
PASTE: Final = "__paste__"
UPLOADED: Final = "__upload__"
# Special value of PATTERN.
CUSTOM: Final = "custom"
ALL_MERGES: Final = (
    "all_merges"  # widget: show every merge in a sortable table (off: the latest few, lighter to redraw)
)
