"""Whether the page is on a projector (presenter mode) or a phone: it then keeps the tokens within the
first screen (no intro line, a shorter text box, the examples and the picker folded under one line).
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from mergescope_ui.shared import keys as shared_keys

from .assets import style

# On a narrow screen the page's title and the tokenizer's name take two lines, not four.
PHONE_CSS = style("phone.css")


def presenting() -> bool:
    """True in presenter mode (the toggle in the sidebar, or ``?presenter=true``)."""
    return bool(st.session_state.get(shared_keys.PRESENTER, False))


def is_phone(headers: Mapping[str, str]) -> bool:
    """Whether the browser that sent ``headers`` says it is a phone (a client hint, or its user agent).

    >>> is_phone({"Sec-CH-UA-Mobile": "?1"}), is_phone({"User-Agent": "Mozilla/5.0 (iPhone) Mobile/15E148"})
    (True, True)
    >>> is_phone({"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0"}), is_phone({})
    (False, False)
    """
    hint = headers.get("Sec-CH-UA-Mobile") or headers.get("sec-ch-ua-mobile") or ""
    agent = headers.get("User-Agent") or headers.get("user-agent") or ""
    return hint.strip() == "?1" or "Mobi" in agent


def on_phone() -> bool:
    """True when this session's browser is a phone (no headers, as in headless tests: False)."""
    try:
        headers = st.context.headers
    except Exception:
        return False
    return is_phone({k: headers.get(k) or "" for k in ("Sec-CH-UA-Mobile", "User-Agent")})


def folded() -> bool:
    """True when the examples and the picker fold away under one line: presenter mode or a phone."""
    return presenting() or on_phone()
