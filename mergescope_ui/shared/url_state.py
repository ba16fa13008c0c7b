"""Query parameters for selectboxes whose options are shown through ``format_func``.

Streamlit's ``bind="query-params"`` writes and reads a selectbox's *label*
(``format_func(option)``), so an id-valued selectbox would put its long title in
the URL and ignore ``?corpus=<id>``.  These two helpers keep the id in the URL:
seed the widget's key from the URL once per session, then mirror the choice back.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import streamlit as st

from .keys import URL_SEEDED


def seed_from_url(key: str, param: str, valid: Collection[str]) -> str | None:
    """Before the widget is created: on the session's first run, set ``key`` from ``?param=`` if valid.

    Returns the URL's value when it is not one of ``valid`` (for a message), else None.
    """
    seeded: set[str] = st.session_state.setdefault(URL_SEEDED, set())
    if key in seeded:
        return None
    seeded.add(key)
    value = st.query_params.get(param)
    if value is None:
        return None
    if value in valid:
        st.session_state[key] = value
        return None
    return value


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
