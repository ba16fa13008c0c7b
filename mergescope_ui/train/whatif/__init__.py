"""What if? The Train page's two lessons about choices: merge order, and one choice changed in training.

The page's step panel calls these sections after the step itself:

- :func:`what_if` (``section``): at the merge shown (``entry``), break the tie the
  other way, block the pair, or merge another pair of the table; the branch
  (``branch``, kept by ``session``) then runs beside the real history, compared side
  by side (``compare_view``, ``figures``, built by ``compare``);
- :func:`merge_order` (``order_lesson``): the ``abc`` example, and this run's merges
  applied in another order.

Their session keys are in ``keys``; :data:`WHATIF_CSS` (``style``) goes into the Train page's CSS.
"""

from .order_lesson import merge_order
from .section import what_if
from .style import WHATIF_CSS

__all__ = ["WHATIF_CSS", "merge_order", "what_if"]
