"""What a person gives a page: the built-in corpora (``corpora``), uploaded texts (``upload``,
``upload_widgets``), long pastes (``paste_guard``), uploaded tokenizer files (``tokenizer_files``),
the one text picker of the sidebars (``text_source``) and the settings widgets (``settings_widgets``).

May import :mod:`mergescope_ui.shared.html` and the top-level modules of ``shared`` (keys, digest).
"""
