"""Every ``st.session_state`` key of the Compare schemes page, declared once (all start with ``schemes_``)."""

from __future__ import annotations

from typing import Final

from mergescope_ui.shared.inputs import text_source

# --- the text (sidebar) -----------------------------------------------------------------
SOURCE: Final = "schemes_source"  # selectbox: a built-in corpus id, PASTE or UPLOAD
PASTED: Final = "schemes_pasted"  # text_area
UPLOAD: Final = "schemes_upload"  # file_uploader (its value is lost on a page switch)
UPLOAD_RAW: Final = "schemes_upload_raw"  # plain: bytes of the last uploaded file
UPLOAD_NAME: Final = "schemes_upload_name"  # plain: its name
UPLOAD_LOSSY: Final = "schemes_upload_lossy"  # checkbox: decode invalid UTF-8 with U+FFFD
HELDOUT_SHARE: Final = "schemes_heldout_share"  # slider: percent of the text held out (its end)
SIZES: Final = "schemes_sizes"  # text_input: the chart's vocab sizes

# --- the comparison (main area) ----------------------------------------------------------
VOCAB: Final = "schemes_vocab"  # number_input: the vocab size the four schemes train to
SENTENCE: Final = "schemes_sentence"  # text_input: the sentence each scheme cuts
METRIC: Final = "schemes_metric"  # radio: the chart's metric
CHART_TEXT: Final = "schemes_chart_text"  # radio: the chart's text (training or held-out)

# Values of SOURCE besides the corpus ids (the shared picker's).
PASTE: Final = text_source.PASTE
UPLOAD_CHOICE: Final = text_source.UPLOAD
