"""How MergeScope caches engine calls (the one rule), and the cached calls the pages share.

- **Per server, with** ``st.cache_resource``: results any user may share (the built-in corpora),
  never changed (``st.cache_data`` would unpickle a copy at every rerun).
- **Per server, with** :class:`~.progress_cache.ProgressCache`: calls that report progress into a bar
  made outside them, kept :data:`~mergescope_ui.shared.settings.CACHE_SECONDS` after their last use
  (``st.cache_*`` replay the bar's updates on a hit, which fails: ``CacheReplayClosureError``).
- **Per session, with** :func:`remember`: what depends on one session, in its ``session_state``.
- **Never cached**: a live trainer, one user's iterator (in a
  :class:`~mergescope_ui.shared.training_run.TrainingRun` in the session).

Pure HTML and chart builders may keep a ``functools.lru_cache``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, MutableMapping
from typing import TypeVar

import streamlit as st

from ..inputs.corpora import Corpus, find_corpus, load_index, load_text
from . import bounded

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@st.cache_resource(show_spinner=False)
def corpus_index() -> list[Corpus]:
    """The built-in corpora (read once per server; do not change the list)."""
    return load_index()


@st.cache_resource(show_spinner=False)
def corpus_text(corpus_id: str) -> str:
    """The text of a built-in corpus (read once per server)."""
    return load_text(find_corpus(corpus_id))


def remember(memo: MutableMapping[K, V], key: K, make: Callable[[], V], *, size: int) -> V:
    """``memo[key]``, made with ``make()`` on a miss; the oldest entry goes when ``memo`` (a dict in one
    session's ``session_state``) holds ``size``.

    >>> memo = {}
    >>> [remember(memo, k, lambda: k * 10, size=2) for k in (1, 2, 1, 3)], sorted(memo)
    ([10, 20, 10, 30], [2, 3])
    """
    if size < 1:
        raise ValueError(f"size must be at least 1, not {size}")
    return bounded.remember(memo, key, make, limit=size)
