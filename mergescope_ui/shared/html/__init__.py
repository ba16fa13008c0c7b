"""Escaped HTML and text for Streamlit: token spans (``tokens``, ``schemes``), small tables (``tables``),
headings and figures (``blocks``), Markdown-safe strings (``safe_text``), spreadsheet-safe CSV
(``csv_cells``), numbers a student reads (``numbers``) and the page-wide CSS (``theme``).

May import :mod:`mergescope_ui.shared.stage` (a token's label), nothing else from the UI.
"""
