"""Every ``st.session_state`` key of the room page (the students' side of a live room), declared once."""

from __future__ import annotations

from typing import Final

CODE: Final = "room_code"  # text_input: the room code typed (or given by ?code=)
NAME: Final = "room_name"  # text_input: the display name the student chooses
JOINED: Final = "_room_joined"  # plain: a Joined (the room, the student's id and name) once joined
SERIAL: Final = "_room_serial"  # plain: the stage's serial (a new one moves it to the step sent)
FOLLOWING: Final = "_room_following"  # plain: True while the stage follows the teacher ("live")
LOOKING_AT: Final = "_room_looking_at"  # plain: the step a student looking back is at
LIVE_SENT: Final = "_room_live_sent"  # plain: the teacher's step the stage was last moved to
STARTS: Final = "_room_starts"  # plain: step -> the first place the student's stage asked for there
INLINE: Final = "_room_poll_inline"  # plain: the poll runs next inside the page's own run (no waiting)
SEEN: Final = "_room_seen"  # plain: the room's version this page was drawn for
STAGE: Final = "room_stage"  # the stage component
NOTE: Final = "_room_answer_note"  # plain: a sentence about the answer just tapped (not taken, not sent)
FORGET: Final = "_room_forget"  # plain: the tab should forget the room joined (the student left it)
BROWSER: Final = "room_browser_id"  # the tab memory component keeping this browser's own id (its seat)
MEMORY: Final = "room_tab_memory"  # the tab memory component (the room joined, across reloads)
IN_ROOM: Final = (JOINED, SERIAL, FOLLOWING, LOOKING_AT, LIVE_SENT, SEEN, STARTS)  # forgotten on leaving
