"""What the pages share: nothing here imports a page package.

- ``keys``: the session-state keys more than one page uses (presenter mode, the Train page's run).
- ``cache``: how engine calls are cached (the one rule), and the cached calls the pages share.
- ``progress_cache``: the LRU for calls that report progress (why it exists: see ``cache``).
- ``digest``: the one fingerprint of texts and uploaded bytes.
- ``corpora``: the built-in texts and the rule for a page's default text.
- ``upload`` (decoding uploaded bytes) and ``upload_widgets`` (keeping and decoding an upload in a page).
- ``tokenizer_files``: loading a tokenizer from uploaded files.
- ``csv_cells``: CSV downloads with no cell a spreadsheet would run as a formula.
- ``settings``: the training settings record and special tokens typed one a line.
- ``training_run``: a trainer and the records pulled from it, stepped across reruns.
- ``jobs``: heavy work in worker processes (forkserver, bounded, time and memory limits, cancel);
  ``job_wait``: a page waits for a job with a progress bar and Cancel, and the upload budgets.
- ``token_html``, ``blocks``, ``html_tables``, ``theme``: escaped HTML and the page-wide CSS.
- ``stage_contract``: the records a page sends to the stage component (steps, spans with their
  marks, token labels) and the one function that turns them into JSON.
- ``url_state``: selectboxes whose value is an id in the URL.
- ``entry``: :func:`~mergescope_ui.shared.entry.run_app`, for the files in ``pages/`` Streamlit runs alone.
- ``no_such_page``: the unlisted pages for an unknown URL and for ``/home``.
"""
