"""How MergeScope caches engine calls (the one rule), and the cached calls the pages share.

- **Per server, with** ``st.cache_resource``: results any user may share (the built-in corpora, a
  tokenizer quick-trained on a built-in text), keyed by small hashable arguments and never changed;
  ``st.cache_data`` would unpickle a copy (of a whole tokenizer) at every rerun.
- **Per server, with** :class:`~.progress_cache.ProgressCache`: calls that report progress into a bar
  made outside them (the lab's training run, its measurement of uploaded files), each kept
  :data:`~mergescope_ui.shared.settings.CACHE_SECONDS` after its last use.  ``st.cache_*`` replay
  the elements a call updates on a hit, and replaying an update of a bar made outside the call fails
  (``CacheReplayClosureError``).
- **Per session, with** :func:`remember`: what depends on one session (the Train page's run cut at a
  step, the files uploaded here, the tokens of the text in the box), in its ``session_state``.
- **Never cached**: a live trainer, one user's iterator, kept in the user's ``session_state`` inside
  a :class:`~mergescope_ui.shared.training_run.TrainingRun`.

Pure HTML and chart builders may keep a ``functools.lru_cache``: they touch neither Streamlit nor
the engine's state.
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
