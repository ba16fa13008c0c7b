"""MergeScope's UI: one subpackage per page, and ``shared`` for what the pages share.

- ``train/``: the Train page (step through training, merge by merge).
- ``tokenize/``: the Tokenize page (paste text, pick a tokenizer, see its tokens).
- ``lab/``: the Vocab-size lab (compression, OOV and round-trip rates against vocab size).
- ``shared/``: HTML blocks, theme, token spans, tables, corpora, uploads, the
  training run record, cached engine calls, URL state and the shared session keys.

The page files in ``pages/views/`` call their package's sections in order; ``app.py``
lists the pages for ``st.navigation``.  Imports go one way:
``pages/`` -> ``mergescope_ui.<page>`` -> ``mergescope_ui.shared`` -> ``bpe_core``;
a page package never imports another one (``tests/ui/test_import_direction.py``
checks it).  Each page package keeps its session-state keys in its ``keys.py``.
"""
