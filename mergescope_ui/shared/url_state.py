"""Query parameters for selectboxes whose options are shown through ``format_func``.

Streamlit's ``bind="query-params"`` writes and reads a selectbox's *label*
(``format_func(option)``), so an id-valued selectbox would put its long title in
the URL and ignore ``?corpus=<id>``.  These two helpers keep the id in the URL:
seed the widget's key from the URL once per session, then mirror the choice back.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import streamlit as st

from bpe_core.pretokenizer import excerpt

from .keys import URL_SEEDED


def seed_from_url(key: str, param: str, valid: Collection[str]) -> str | None:
    """Before the widget is created: on the session's first run, set ``key`` from ``?param=`` if valid.

    Returns the URL's value when it is not one of ``valid`` (for a message), else None.
    """
    value = _first_look(key, param)
    if value is None:
        return None
    if value in valid:
        st.session_state[key] = value
        return None
    return value


def seed_number_from_url(key: str, param: str, *, low: int, high: int) -> str | None:
    """Like :func:`seed_from_url` for a whole number from ``low`` to ``high``; returns the URL's value
    when it is not one (for a message).

    A number input is not bound to the URL with ``bind="query-params"``: Streamlit 1.67 parses such a
    value as a float and raises OverflowError on ``?merges=1e400`` (or 400 nines) before the page can
    answer.
    """
    value = _first_look(key, param)
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit() and len(text) <= 9 and low <= int(text) <= high:
        st.session_state[key] = int(text)
        return None
    return value


def _first_look(key: str, param: str) -> str | None:
    """``?param=``'s value on the first look for ``key`` in this session, else None."""
    seeded: set[str] = st.session_state.setdefault(URL_SEEDED, set())
    if key in seeded:
        return None
    seeded.add(key)
    return st.query_params.get(param)


def mirror_to_url(param: str, value: str, *, default: str) -> None:
    """Show ``value`` as ``?param=`` (removed when it is the default), so the URL can be shared."""
    if value == default:
        if param in st.query_params:
            del st.query_params[param]
    elif st.query_params.get(param) != value:
        st.query_params[param] = value


def write_params(names: Collection[str], wanted: Mapping[str, str]) -> None:
    """Make the URL hold ``wanted`` for the parameters ``names`` (a page's own): set what changed,
    drop what is no longer wanted, leave every other parameter alone."""
    for name in names:
        if name in wanted:
            if st.query_params.get(name) != wanted[name]:
                st.query_params[name] = wanted[name]
        elif name in st.query_params:
            del st.query_params[name]


def read_params_once(read_key: str, names: Collection[str]) -> dict[str, list[str]]:
    """On a session's first run only (marked in ``session_state[read_key]``): the URL's values of
    the parameters ``names`` (a page's own) that it holds; otherwise, and later, ``{}``."""
    if st.session_state.get(read_key):
        return {}
    st.session_state[read_key] = True
    return {name: st.query_params.get_all(name) for name in names if name in st.query_params}


def ignored_value(given: Mapping[str, list[str]], param: str, value: object, rule: str) -> str | None:
    """A note when the link gave ``param`` (a ``bind="query-params"`` widget's) a value the widget did
    not take: Streamlit drops an invalid one without a word.  ``given`` is what
    :func:`read_params_once` returned, ``value`` the widget's value now, ``rule`` what a valid value is.
    A long value is quoted as a short, cut prefix.

    >>> ignored_value({"merges": ["12"]}, "merges", 12, "a whole number") is None
    True
    >>> ignored_value({"merges": ["x" * 500]}, "merges", 100, "give a whole number")  # doctest: +ELLIPSIS
    "the link's merges='xxxxxxx...xxx'... (500 characters) was ignored: give a whole number; using 100"
    """
    values = given.get(param)
    if not values or _denotes(values[-1], value):
        return None
    shown = str(value).lower() if isinstance(value, bool) else value
    return f"the link's {param}={excerpt(values[-1])} was ignored: {rule}; using {shown}"


def _denotes(text: str, value: object) -> bool:
    """Whether the URL text ``text`` stands for ``value`` (so the widget took it)."""
    text = text.strip()
    if isinstance(value, bool):
        return text.lower() == str(value).lower()
    if isinstance(value, int | float):
        try:
            return float(text) == value
        except ValueError:
            return False
    return text == value
