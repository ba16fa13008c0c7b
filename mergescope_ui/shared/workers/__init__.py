"""Heavy work off the server's thread, and memory given back: jobs (``jobs``, waited for by ``job_wait``),
a session's worker (``session_worker``, ``remote``, ``remote_trainer``), the caches of engine calls
(``cache``, ``progress_cache``, ``bounded``), the memory thread (``memory``) and ``stack_dump``.

May import :mod:`mergescope_ui.shared.inputs`, :mod:`mergescope_ui.shared.html` and the top-level
modules of ``shared``.
"""
