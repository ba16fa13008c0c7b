"""What the pages share: nothing here imports a page package.

Five folders by concern, lowest first; each may import the folders before it and the modules directly
here, never one after it (``tests/ui/test_import_direction.py``):

- ``stage/``: the records a producer sends to the stage component, the component, its assets.
- ``html/``: escaped HTML and text (token spans, tables, blocks, Markdown-safe strings, CSV, the CSS).
- ``inputs/``: what a person gives a page (built-in corpora, uploads, pastes, tokenizer files).
- ``workers/``: heavy work in worker processes, the caches of engine calls, memory given back.
- ``rooms/``: live classroom rooms (one process's or one Redis's) and the teacher's side of one.

And a few modules used everywhere: ``keys`` (session-state keys more than one page uses), ``digest``
(the one fingerprint of texts and bytes), ``settings`` (the training settings record), ``training_run``
(a trainer stepped across reruns), ``url_state``, ``tab_memory``, ``scroll_to``, ``chart_data``,
``entry`` and ``no_such_page`` (URLs).
"""
