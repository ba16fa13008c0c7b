"""The one way user, file and URL strings reach Streamlit's Markdown: escaped, so they show as typed.

``st.warning``, ``st.error``, ``st.info``, ``st.success``, ``st.caption``,
``st.markdown``, ``st.write`` and widget labels and options render Markdown:
``[text](https://...)`` becomes a working link and ``![](http://...)`` an
image fetched from that host.  Any string that came from a URL parameter, a
file name, a file's content or a corpus token goes through :func:`md_escape`
before it is put into such a message (the app's own words around it stay
Markdown).

Backslash escapes stop links, images, emphasis, headings, HTML and
Streamlit's ``:color[...]`` and ``:material/...:`` directives.  They do not
stop GitHub-style autolinks (a bare ``https://`` address, ``www.`` or an
e-mail address becomes a link after escapes are resolved), so a WORD JOINER
(U+2060, invisible) is put after ``:`` before ``//`` or a letter, after
``www`` before ``.``, and before ``@``.  Line breaks stay line breaks.

>>> md_escape("[Click here](https://evil.example/login)")
'\\\\[Click here\\\\]\\\\(https\\\\:\\u2060//evil\\\\.example/login\\\\)'
>>> md_escape("**bold** <b> `x`")
'\\\\*\\\\*bold\\\\*\\\\* \\\\<b\\\\> \\\\`x\\\\`'
"""

from __future__ import annotations

import re

# Markdown's ASCII punctuation that can start or end markup (CommonMark escapes any of them).
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=&\"'^])")
# Where a bare address would be autolinked: break it with an invisible WORD JOINER.
_AUTOLINK = re.compile(r"(?i)(?<=:)(?=//|[a-z])|(?<=www)(?=\.)|(?=@)")
WORD_JOINER = "\u2060"


def md_escape(text: object) -> str:
    """``text`` (any value, shown with ``str``) escaped for Streamlit's Markdown: no link, image or markup.

    >>> md_escape("a\\nb")
    'a  \\nb'
    """
    value = str(text).replace("\r\n", "\n").replace("\r", "\n")
    value = _AUTOLINK.sub(WORD_JOINER, value)
    return _SPECIAL.sub(r"\\\1", value).replace("\n", "  \n")
