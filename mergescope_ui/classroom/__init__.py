"""The room page: a student joins a teacher's live room and follows it (issue 26).

``pages/views/classroom.py`` (URL ``/room``) calls :func:`room_page`: the join form
(``join``: the code, often given by the link, and a display name), then the room
(``follow``): the teacher's step on the stage within a second, the question when
the teacher asks, the reveal, and a word when the room has ended.  The rooms
themselves are :mod:`mergescope_ui.shared.rooms`; the teacher's side is
:mod:`mergescope_ui.shared.rooms.host`.
"""

from .follow import follow
from .join import join_form

__all__ = ["follow", "join_form"]
