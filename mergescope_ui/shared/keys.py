"""The ``st.session_state`` keys more than one page uses, declared once.

Each page keeps its own keys in its package's ``keys`` module
(:mod:`mergescope_ui.train.keys`, :mod:`mergescope_ui.tokenize.keys`,
:mod:`mergescope_ui.lab.keys`).
"""

from __future__ import annotations

from typing import Final

PRESENTER: Final = (
    "presenter"  # toggle in app.py's sidebar (and ?presenter=true): large fonts for a projector
)
TEXT_SIZE: Final = "text_size"  # selectbox in app.py's sidebar in presenter mode (?text_size=S|M|L|XL)
RUN: Final = "run"  # plain: the Train page's TrainingRun (shared.training_run); the Tokenize page reads it
URL_SEEDED: Final = (
    "_url_seeded"  # plain: widget keys already set from the URL (mergescope_ui.shared.url_state)
)
DECODED_UPLOADS: Final = (
    "_decoded_uploads"  # plain: per uploader, its bytes and their decoding (shared.upload_widgets)
)
JOB_OWNER: Final = "_job_owner"  # plain: this session's name for the job runner (shared.job_wait)
JOBS: Final = "_jobs"  # plain: work key -> job id of the jobs this session waits for (shared.job_wait)
STOPPED: Final = "_stopped"  # plain: work keys whose Cancel was pressed, for its run (shared.job_wait)
