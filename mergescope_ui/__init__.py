"""MergeScope's UI layer: what the Streamlit pages share.

Imports go one way: ``app_pages/`` -> ``mergescope_ui`` -> ``bpe_core``.  The
modules that build HTML, tables and charts are pure (no Streamlit calls) and
have their own unit tests; the ones that talk to Streamlit are ``keys``
(session-state names), ``engine`` (cached calls), ``sources`` (corpus picker,
paste, upload), ``theme`` and ``train_page``.
"""
