"""A small class on one server (loopback only): no errors, bounded memory, and memory given back after.

``bench/bench_load.py`` runs the whole class (20 students stepping the Train
page 20 times while 5 upload 3 MB texts to the lab) and prints latencies; this
test runs a smaller one that a shared 2-core machine finishes in about a
minute, and asserts what must hold: every session works, and once the class
has gone (short lifetimes, see :data:`tests.browser.load.SHORT_LIFETIMES`) the
server's memory comes back to within 100 MB of where it was after the first
page load.  It failed with ``start_trimmer()`` taken out of ``app.py`` (cycles
never collected on an idle server, freed pages kept by glibc); the whole class
in the bench stayed 238 MB above before this work, 63 MB above after it.
"""

from __future__ import annotations

from tests.browser.load import AFTER_CLASS_SECONDS, SHORT_CACHE, SHORT_LIFETIMES, classroom, settle, text_file
from tests.browser.support import streamlit_process, working

STUDENTS, STEPS, UPLOADERS, UPLOAD_MB = 4, 5, 4, 3.0
GIVEN_BACK_MB = 100


def test_a_small_class_works_and_the_server_gives_its_memory_back(tmp_path):
    files = [text_file(tmp_path / f"upload_{n}.txt", UPLOAD_MB, seed=100 + n) for n in range(UPLOADERS)]
    with streamlit_process(options=SHORT_LIFETIMES, env=SHORT_CACHE) as server:
        pid = server.process.pid
        baseline = settle(server.url, pid)
        result = classroom(server.url, pid, students=STUDENTS, steps=STEPS, uploaders=UPLOADERS, files=files)
        assert not result.errors, result.errors[:10]
        assert len(result.next_ms) == STUDENTS * STEPS and len(result.lab_seconds) == UPLOADERS
        assert working(pid) == []  # no job process left (the runner's idle fork server may stay)
        after = settle(server.url, pid, wait=AFTER_CLASS_SECONDS)
        assert after - baseline < GIVEN_BACK_MB, (
            f"server RSS {baseline:.0f} MB after the first page load, {result.peak_rss:.0f} MB at the "
            f"peak, still {after:.0f} MB {AFTER_CLASS_SECONDS:.0f} s after the class ended"
        )
