"""How this server is hosted: every ``MERGESCOPE_*`` environment variable, read here and nowhere else.

A host sets them before starting the server (README, "Hosting: the server's settings", lists them
with their defaults: a test keeps that table and :data:`SETTINGS` the same).  The numbers are read
once, when the server starts; the fetch's and the browser encoder's switches are read when a page
asks (:func:`raw`), so a test can give its own environment.

>>> slots = "MERGESCOPE_JOB_SLOTS"
>>> positive_int(slots, {slots: " 3 "}), positive_int(slots, {}), switched_off("MERGESCOPE_FETCH", {})
(3, 2, False)
>>> seconds("MERGESCOPE_CACHE_SECONDS", {"MERGESCOPE_CACHE_SECONDS": "soon"})
Traceback (most recent call last):
...
ValueError: MERGESCOPE_CACHE_SECONDS='soon' is not a positive number of seconds; unset it or give e.g. 120
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True, kw_only=True)
class Setting:
    """One environment variable: its ``name``, its ``default`` as a host would type it, and what it does."""

    name: str
    default: str
    meaning: str


SETTINGS: Final = tuple(
    Setting(name=name, default=default, meaning=meaning)
    for name, default, meaning in (
        (
            "MERGESCOPE_ROOMS",
            "memory",
            "where live rooms are kept: this server's memory, or `redis://HOST:6379/0` shared by servers",
        ),
        ("MERGESCOPE_ROOMS_PER_ADDRESS", "3", "live rooms open at once from one client address"),
        ("MERGESCOPE_ROOM_EMPTY_SECONDS", "600", "a live room nobody joined ends this long after it opened"),
        (
            "MERGESCOPE_JOINS_PER_MINUTE",
            "60",
            "joins to live rooms from one client address a minute (a class behind one address joins at once)",
        ),
        (
            "MERGESCOPE_CODE_GUESSES_PER_MINUTE",
            "10",
            "wrong room codes typed from one client address a minute (then joining waits a minute)",
        ),
        (
            "MERGESCOPE_TRUSTED_PROXIES",
            "0",
            "proxies in front of the server whose `X-Forwarded-For` names the client (0: none)",
        ),
        ("MERGESCOPE_JOB_SLOTS", "2", "heavy jobs (uploads, lab runs) run at once"),
        (
            "MERGESCOPE_SESSION_WORKERS",
            "4",
            "session worker processes (a large text's live trainer) per server",
        ),
        (
            "MERGESCOPE_WORKER_IDLE_SECONDS",
            "600",
            "a session worker with no request for this long ends (rebuilt on the next one)",
        ),
        (
            "MERGESCOPE_IN_PROCESS_CHARS",
            "200000",
            "BPE trains texts up to this many characters in the server, longer ones in a worker",
        ),
        ("MERGESCOPE_SCHEME_IN_PROCESS_CHARS", "50000", "the same line for WordPiece and Unigram"),
        (
            "MERGESCOPE_CACHE_SECONDS",
            "120",
            "a cached result made from one user's text is kept this long after its last use",
        ),
        (
            "MERGESCOPE_BROWSER_ENCODE",
            "on",
            "`off`: the server encodes every key press instead of the browser",
        ),
        ("MERGESCOPE_FETCH", "on", "`off`: never fetch tokenizers; offer the upload"),
        (
            "MERGESCOPE_OPENAI_URL",
            "https://openaipublic.blob.core.windows.net",
            "the host OpenAI's encodings are fetched from (a mirror)",
        ),
        (
            "MERGESCOPE_HF_URL",
            "https://huggingface.co",
            "the host Hugging Face models are fetched from (a mirror)",
        ),
        ("MERGESCOPE_FETCH_MAX_MB", "64", "the largest file fetched, in MiB"),
    )
)
NAMES: Final = frozenset(s.name for s in SETTINGS)


def environment() -> Mapping[str, str]:
    """The process's environment, for the callers that also read other programs' variables
    (tiktoken's and the hub's cache folders)."""
    return os.environ


def raw(name: str, env: Mapping[str, str] | None = None) -> str:
    """The value of setting ``name``, stripped ("" when unset); ``env``: another environment (tests)."""
    if name not in NAMES:
        raise ValueError(f"{name} is no MergeScope setting; add it to SETTINGS in shared/hosting.py")
    return (os.environ if env is None else env).get(name, "").strip()


def positive_int(name: str, env: Mapping[str, str] | None = None) -> int:
    """Setting ``name`` as a whole number of at least 1 (its default when unset)."""
    text = raw(name, env) or _default(name)
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(
            f"{name}={text!r} is not a whole number of at least 1; unset it or give e.g. {_default(name)}"
        )
    return value


def whole(name: str, env: Mapping[str, str] | None = None) -> int:
    """Setting ``name`` as a whole number of at least 0 (its default when unset).

    >>> proxies = "MERGESCOPE_TRUSTED_PROXIES"
    >>> whole(proxies, {}), whole(proxies, {proxies: "1"})
    (0, 1)
    """
    text = raw(name, env) or _default(name)
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise ValueError(
            f"{name}={text!r} is not a whole number of at least 0; unset it or give e.g. {_default(name)}"
        )
    return value


def seconds(name: str, env: Mapping[str, str] | None = None) -> float:
    """Setting ``name`` as a positive number of seconds (its default when unset)."""
    text = raw(name, env) or _default(name)
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise ValueError(f"{name}={text!r} is not a positive number of seconds; unset it or give e.g. 120")
    return value


def switched_off(name: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether switch ``name`` is off (``off``, ``0``, ``no`` or ``false``, in any case)."""
    return raw(name, env).lower() in ("off", "0", "no", "false")


def _default(name: str) -> str:
    return next(s.default for s in SETTINGS if s.name == name)
