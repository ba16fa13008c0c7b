"""Heavy work off the server's thread, and memory given back: worker processes for one-off jobs
(``jobs``, waited for in a page by ``job_wait``), a session's long-lived worker (``session_worker``) and
the trainer that runs in it (``remote_trainer``), the caches of engine calls (``cache``,
``progress_cache``, ``bounded``), the memory thread (``memory``) and the stack dump (``stack_dump``).

May import :mod:`mergescope_ui.shared.inputs`, :mod:`mergescope_ui.shared.html` and the top-level
modules of ``shared``.
"""
