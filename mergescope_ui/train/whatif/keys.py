"""Every ``st.session_state`` key of the Train page's "What if?" sections, declared once.

Apart from :mod:`mergescope_ui.train.keys` so the sections stay self-contained; each starts with
``whatif_`` or ``order_``.
"""

from __future__ import annotations

from typing import Final

URL_PARAM: Final = "whatif"  # ?whatif=step.kind.left-right carries the branch (see .branch.WhatIf)

# --- the branch (mergescope_ui.train.whatif.section) ------------------------------------
BRANCH: Final = "whatif_branch"  # plain: the ActiveBranch of this session, or absent
URL_SEEDED: Final = "whatif_url_seeded"  # plain: the link's ?whatif= was read once this session
MESSAGE: Final = "whatif_message"  # plain: a sentence from a callback for the next run (why it failed)
ENTRY: Final = "whatif_entry"  # expander: "What if?" (its content is built only while open)
KIND: Final = "whatif_kind"  # radio: tie, block or pick
TIE_PAIR: Final = "whatif_tie_pair"  # selectbox: the tied pair to merge instead
PICK_PAIR: Final = "whatif_pick_pair"  # selectbox: the table's pair to merge instead
START: Final = "whatif_start"  # button
BACK_TO_REAL: Final = "whatif_back"  # button: back to the real history
HELDOUT: Final = "whatif_heldout"  # selectbox: the built-in text held out for compression
TO_END: Final = "whatif_to_end"  # button: train both histories to the end
TO_END_PENDING: Final = "whatif_to_end_pending"  # plain: the button was pressed; train on this run
SCROLL: Final = "whatif_scroll"  # plain int: bumped when a branch starts from the page (scroll to it)
SCROLLED: Final = "whatif_scrolled"  # plain int: the SCROLL value last brought into view
SCROLLER: Final = "whatif_scroller"  # component: scrolls the new branch into view (shared.scroll_to)
SUMMARIES: Final = "whatif_summaries"  # plain: cache of summaries by (branch, positions, held-out)

# --- the merge-order lesson (mergescope_ui.train.whatif.order_lesson) -----------------
ORDER_ENTRY: Final = "order_entry"  # expander
ORDER_OPENED: Final = "order_opened"  # plain int: the merge-order section's openings so far
ORDER_JUST_OPENED: Final = "order_just_opened"  # plain int: set as it opens, popped as it comes into view
ORDER_SCROLLER: Final = "order_scroller"  # component: brings it into view as it opens (shared.scroll_to)
ORDER_HOW: Final = "order_how"  # radio: reverse, shuffle or swap
ORDER_SEED: Final = "order_seed"  # number_input: the shuffle's seed
ORDER_SWAP_A: Final = "order_swap_a"  # number_input: merge number
ORDER_SWAP_B: Final = "order_swap_b"  # number_input: merge number
ORDER_TEXT: Final = "order_text"  # text_area: the text to tokenize both ways
ORDER_PLACE: Final = "order_place"  # plain: (what was asked, the place cut differently shown first)
ORDER_EARLIER: Final = "order_earlier"  # button: the earlier places cut differently
ORDER_LATER: Final = "order_later"  # button: the later places cut differently
ORDER_OFFER: Final = "order_offer_"  # buttons (+ a number): a swap that changes the text's cut
