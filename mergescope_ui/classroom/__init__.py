"""The room page (``/room``): a student joins a teacher's live room (``join``) and follows it (``follow``).

The rooms are :mod:`mergescope_ui.shared.rooms`; the teacher's side :mod:`mergescope_ui.shared.rooms.host`.
"""

from .follow import follow
from .join import join_form

__all__ = ["follow", "join_form"]
