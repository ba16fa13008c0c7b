"""The one way user, file and URL strings reach Streamlit's Markdown: escaped, so they show as typed.

``st.warning``, ``st.error``, ``st.info``, ``st.success``, ``st.caption``,
``st.markdown``, ``st.write``, ``st.table`` cells, ``st.metric``, ``st.tabs``,
``st.expander``, ``st.progress`` and ``st.spinner`` texts, widget labels,
``help=`` tooltips and radio options render Markdown: ``[text](https://...)``
becomes a working link and ``![](http://...)`` an image fetched from that
host.  Any string that came from a URL parameter, a file name, a file's
content, an error about them or a corpus token goes through :func:`md_escape`
before it is put into such a text (the app's own words around it stay
Markdown).  Selectbox and multiselect options, ``st.text``, ``st.code`` and
dataframe cells are plain text: they need no escaping (it would show).

Backslash escapes stop links, images, emphasis, headings, lists, tables, HTML,
LaTeX and Streamlit's ``:color[...]`` and ``:material/...:`` directives.  They
do not stop GitHub-style autolinks (a bare ``https://`` address, ``www.`` or an
e-mail address becomes a link after escapes are resolved), so a WORD JOINER
(U+2060, invisible) is put after ``:`` before ``//`` or a letter, after
``www`` before ``.``, and before ``@``.  Line breaks stay line breaks; spaces
that start a line stay spaces (not an indented code block); the controls that
reorder text right to left (U+202A-U+202E, U+2066-U+2069) are shown by name,
so a file name cannot display as something else.  ``tests/browser/test_markup.py``
sends every kind through every page and finds no link or image.

>>> md_escape("[Click here](https://evil.example/login)")
'\\\\[Click here\\\\]\\\\(https\\\\:\\u2060//evil\\\\.example/login\\\\)'
>>> md_escape("**bold** <b> `x`")
'\\\\*\\\\*bold\\\\*\\\\* \\\\<b\\\\> \\\\`x\\\\`'
>>> md_escape("report\\u202etxt.exe")
'report⟨U\\\\+202E⟩txt\\\\.exe'
"""

from __future__ import annotations

import re

# Markdown's ASCII punctuation that can start or end markup (CommonMark escapes any of them).
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=&\"'^])")
# Where a bare address would be autolinked: break it with an invisible WORD JOINER.
_AUTOLINK = re.compile(r"(?i)(?<=:)(?=//|[a-z])|(?<=www)(?=\.)|(?=@)")
WORD_JOINER = "\u2060"
NO_BREAK_SPACE = "\u00a0"
# Bidirectional overrides and isolates: they make text display in another order than it is.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
# Spaces and tabs that start a line (four would start an indented code block).
_INDENT = re.compile(r"(?m)^[ \t]+")


def md_escape(text: object, *, limit: int | None = None) -> str:
    """``text`` (any value, shown with ``str``) escaped for Streamlit's Markdown: no link, image or markup.

    ``limit`` cuts a longer text to its first ``limit`` characters and says how
    long it was (for a URL parameter or a line of a file quoted in a message).

    >>> md_escape("a\\nb")
    'a  \\nb'
    >>> md_escape("x" * 50, limit=3)
    'xxx… (50 characters)'
    >>> md_escape("    four spaces")
    '\\xa0\\xa0\\xa0\\xa0four spaces'
    """
    value = str(text).replace("\r\n", "\n").replace("\r", "\n")
    suffix = ""
    if limit is not None and len(value) > limit:
        value, suffix = value[:limit], f"… ({len(value):,} characters)"
    value = _BIDI.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", value)
    value = _INDENT.sub(lambda m: NO_BREAK_SPACE * len(m.group().replace("\t", "    ")), value)
    value = _AUTOLINK.sub(WORD_JOINER, value)
    return _SPECIAL.sub(r"\\\1", value).replace("\n", "  \n") + suffix


_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~$:=&\"'^])")


def displayed(markdown: str) -> str:
    """What a reader sees of :func:`md_escape`'s output: the escapes and word joiners gone (for tests).

    >>> displayed(md_escape("Right! [x](https://e.example) a + b"))
    'Right! [x](https://e.example) a + b'
    """
    return _ESCAPED.sub(r"\1", markdown).replace(WORD_JOINER, "").replace("  \n", "\n")
