"""Who is asking a room for something: the client's address and the session's own id (the pages' side).

The rooms count what one client address does (rooms open, joins, wrong codes: :class:`~.model.Limits`).
The address is the connection's own (``st.context.ip_address``; a browser on the server's machine is
:data:`LOCAL`), unless the host says proxies stand in front (``MERGESCOPE_TRUSTED_PROXIES``): then the
client is the address the farthest of them wrote in ``X-Forwarded-For`` (what a client writes there
itself, to the left, is never believed).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import streamlit as st

from .. import hosting

LOCAL = "localhost"  # the address of a browser on the server's own machine (Streamlit gives none)
TRUSTED_PROXIES = hosting.whole("MERGESCOPE_TRUSTED_PROXIES")  # read once, when the server starts
SESSION = "_room_session"  # plain: this browser session's own id (it holds one open room at a time)


def address_of(ip: str | None, forwarded: Sequence[str], *, proxies: int) -> str:
    """The client's address: the connection's ``ip`` (None: this machine, :data:`LOCAL`), or with ``proxies``
    trusted proxies in front, the one the farthest of them added to ``forwarded`` (the ``X-Forwarded-For``
    headers; each proxy adds the address it was reached from, at the right).

    >>> address_of("10.0.0.9", ["6.6.6.6"], proxies=0), address_of(None, [], proxies=0)
    ('10.0.0.9', 'localhost')
    >>> address_of("10.0.0.1", ["6.6.6.6, 203.0.113.7"], proxies=1)  # 6.6.6.6: what the client wrote
    '203.0.113.7'
    >>> address_of("10.0.0.1", ["203.0.113.7, 10.0.0.2", "10.0.0.3"], proxies=2)
    '10.0.0.2'
    >>> address_of("10.0.0.1", [], proxies=1)  # no header: the proxy's own address
    '10.0.0.1'
    """
    if proxies > 0:
        hops = [hop.strip() for line in forwarded for hop in line.split(",") if hop.strip()]
        if hops:
            return hops[-min(proxies, len(hops))][:64]
    return (ip or LOCAL)[:64]


def client_address() -> str:
    """The address of the browser this session serves (:func:`address_of` with the host's setting)."""
    forwarded = st.context.headers.get_all("X-Forwarded-For") if TRUSTED_PROXIES else []
    ip = st.context.ip_address
    lines = [line for line in forwarded if isinstance(line, str)]  # (text only, as a server gives it)
    return address_of(ip if isinstance(ip, str) else None, lines, proxies=TRUSTED_PROXIES)


def session_id() -> str:
    """This browser session's own id (made on its first use, kept in its ``session_state``)."""
    return str(st.session_state.setdefault(SESSION, secrets.token_urlsafe(12)))
