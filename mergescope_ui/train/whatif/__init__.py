"""What if? The Train page's two lessons about choices: merge order, and one choice changed in training.

The step panel calls :func:`what_if` (``section``: change one choice at the merge shown; the
branch, ``branch`` kept by ``session``, is compared side by side, ``compare_view``) and
:func:`merge_order` (``order_lesson``).  Session keys: ``keys``; :data:`WHATIF_CSS` (``style``).
"""

from .order_lesson import merge_order
from .section import what_if
from .style import WHATIF_CSS

__all__ = ["WHATIF_CSS", "merge_order", "what_if"]
