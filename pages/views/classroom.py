"""Live room: a student joins a teacher's room and follows it (the sections: mergescope_ui.classroom)."""

from mergescope_ui import classroom

joined = classroom.join_form()  # the title, then the room joined or the form to join one
if joined is not None:
    classroom.follow(joined)  # the teacher's step, the question, the reveal; reruns when the room changes
