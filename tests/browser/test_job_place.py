"""A job's bar takes the place of what was there: the old results never show beside it.

Streamlit's browser side keeps a container's children when a container comes where one was (the empty
sent between the two is dropped when both go in one batch): :func:`run_job` draws its bar and Cancel as
two elements, no container (``mergescope_ui/shared/workers/job_wait.py`` says more).  Checked on
``tests/browser/apps/job_place.py``, where the batch always forms (a container fails each time), twice
over.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .support import ROOT, chromium_page, streamlit_server


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server(app="tests/browser/apps/job_place.py", cwd=ROOT) as url:
        yield url


def test_the_bar_replaces_the_old_results(server: str) -> None:
    with chromium_page() as page:
        page.goto(server)
        old = page.get_by_text("old result 4")
        old.wait_for(timeout=60_000)
        for _ in range(2):
            page.get_by_role("button", name="Run the job").click()
            page.get_by_text("Working: started").wait_for(timeout=60_000)  # the job runs, its bar shows
            assert old.count() == 0, "the old results show beside the new job's bar"
            page.get_by_text("The job ended: timeout").wait_for(timeout=60_000)  # its 5 s are up
            page.reload()
            old.wait_for(timeout=60_000)
