"""A page for ``tests/browser/test_job_place.py``: results in a container, then a job's bar in their place.

The first run draws five results in a container; "Run the job" starts a job that never ends
(:func:`tests.ui.shared.test_jobs.forever`; its time limit ends it) whose bar and Cancel
:func:`run_job` draws where the results were.  While the bar shows, none of the old results may.
"""

import streamlit as st

from mergescope_ui.shared.workers.job_wait import run_job
from mergescope_ui.shared.workers.jobs import Limits
from tests.ui.shared.test_jobs import forever

if st.button("Run the job"):
    status = run_job("forever", forever, label="Working", limits=Limits(seconds=5))
    st.write(f"The job ended: {status.state}")
else:
    with st.container():
        for n in range(5):
            st.write(f"old result {n}")
