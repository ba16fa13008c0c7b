"""Waiting for a worker job in a page: a progress bar, a Cancel button, and the job's end (Streamlit side).

:func:`run_job` hands the work to the server's :func:`~.jobs.runner` and waits for it in this
session's script run, sleeping between looks (the other sessions never wait for the job), showing
its progress and Cancel, and asking about the job several times a second (which keeps it alive).

A click stops this script run and starts another; the job goes on, and the next run's :func:`run_job`
with the same ``key`` waits for it.  Cancel (:func:`stop`) also leaves a note for the run its click
starts, which would otherwise start the job again when the waiting run saw the end first.

The bar and Cancel are two elements, not a container: Streamlit's browser side keeps a container's
children when a container comes where one was, so the run before's results showed under the new bar
(a block of another kind breaks with "Bad delta path index").
"""

from __future__ import annotations

import secrets
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from bpe_core import SchemeTokenizer, Tokenizer

from .. import keys
from ..digest import digest
from ..html.safe_text import md_escape
from ..inputs.tokenizer_files import SchemeLoad, load_packed, unpack
from .jobs import CANCELLED, FAILED, QUEUED, REAPED, STOPPED_MESSAGE, Limits, Progress, Status, runner

LOOK_EVERY = 0.1  # seconds between two looks at a job (each look is a few microseconds)


def owner() -> str:
    """This browser session's name for the runner (a random token kept in ``session_state``)."""
    return str(st.session_state.setdefault(keys.JOB_OWNER, secrets.token_hex(8)))


def run_job(
    key: str,
    fn: Callable[..., Any],
    *args: Any,
    label: str,
    limits: Limits | None = None,
    where: Any = None,
    **kwargs: Any,
) -> Status:
    """Run ``fn(*args, progress=..., **kwargs)`` in a worker and wait for it; the ended
    :class:`~.jobs.Status` (``ok`` with its ``value``, or a ``message``).

    ``key`` names the work (with a digest of its inputs): a rerun with the same key waits for the same
    job.  ``label`` is the bar's text (escaped here); ``where``: the container for the bar (default: here).
    """
    jobs: dict[str, str] = st.session_state.setdefault(keys.JOBS, {})
    r = runner()
    stopped: set[str] = st.session_state.setdefault(keys.STOPPED, set())
    if key in stopped:  # Cancel was pressed: this is the run the click started
        stopped.discard(key)
        if key in jobs:
            r.forget(jobs.pop(key))
        return Status(key, CANCELLED, Progress(), message=STOPPED_MESSAGE)
    job = jobs.get(key)
    if job is not None and (not r.known(job) or r.status(job).state == REAPED):
        r.forget(job)  # it was stopped while nobody waited (the page was left): start it again
        job = None
    if job is None:
        try:
            job = r.submit(fn, *args, owner=owner(), limits=limits, **kwargs)
        except ValueError as exc:
            return Status(key, FAILED, Progress(), message=str(exc))
        jobs[key] = job
    place = where if where is not None else st
    box, cancel = place.empty(), place.empty()  # two elements, no container: see the module's docstring
    bar = box.progress(0.0, text=md_escape(label))
    cancel.button("Cancel", key=f"cancel-{key}", on_click=stop, args=(job, key), help="Stop this job.")
    status = r.status(job)
    try:
        while not status.ended:
            bar.progress(status.progress.fraction, text=md_escape(_describe(label, status)))
            time.sleep(LOOK_EVERY)
            status = r.status(job)
    finally:
        if status.ended:
            jobs.pop(key, None)
            r.forget(job)
    box.empty()
    cancel.empty()
    return status


def stop(job: str, key: str) -> None:
    """Cancel's callback: end ``job``, and have the next :func:`run_job` with ``key`` return it cancelled."""
    runner().cancel(job)
    st.session_state.setdefault(keys.STOPPED, set()).add(key)


def _describe(label: str, status: Status) -> str:
    """The bar's text: what the job does, or its place in the queue.

    >>> _describe("Loading", Status("j", "queued", Progress(), ahead=2))
    'Loading: waiting for a free worker (2 jobs ahead)'
    >>> _describe("Loading", Status("j", "running", Progress(3, 4, "merges")))
    'Loading: merges'
    """
    if status.state == QUEUED:
        return f"{label}: waiting for a free worker ({status.ahead} jobs ahead)"
    return f"{label}: {status.progress.note}" if status.progress.note else label


UPLOAD_LIMITS = Limits(seconds=300, memory_bytes=2048 * 1024 * 1024)
"""A 10 MB tokenizer file loads in a few seconds of CPU and under 1 GB (a busy server: up to 2 minutes)."""
SESSION_TOKENS = 1_000_000
"""The memory budget of one session for uploaded tokenizers, in tokens (about 700 bytes each on the
server: some 700 MB, one 10 MB file and a few small ones); an upload past it is refused."""
SERVER_TOKENS = 3_000_000
"""The same budget for every session of the server together (some 2 GB)."""

_held: weakref.WeakKeyDictionary[Tokenizer | SchemeTokenizer, tuple[str, int]] = weakref.WeakKeyDictionary()
"""Every uploaded tokenizer the server holds (while a session keeps it): its owner and size in tokens."""


def held_tokens(owner: str | None = None) -> int:
    """Tokens of the uploaded tokenizers held now, by ``owner`` (None: by every session)."""
    return sum(n for who, n in list(_held.values()) if owner is None or who == owner)


def check_budget(tokens: int, *, mine: int, everyone: int) -> None:
    """Refuse (ValueError) an upload of ``tokens`` tokens past this session's or the server's budget.

    >>> check_budget(850_000, mine=0, everyone=0)
    >>> check_budget(850_000, mine=400_000, everyone=400_000)
    Traceback (most recent call last):
    ...
    ValueError: the files hold 850,000 tokens and this session already holds 400,000 tokens of uploaded \
tokenizers, over its budget of 1,000,000: reload the page to start afresh, or upload a smaller tokenizer
    """
    if mine + tokens > SESSION_TOKENS:
        raise ValueError(
            f"the files hold {tokens:,} tokens and this session already holds {mine:,} tokens of uploaded "
            f"tokenizers, over its budget of {SESSION_TOKENS:,}: reload the page to start afresh, or upload "
            "a smaller tokenizer"
        )
    if everyone + tokens > SERVER_TOKENS:
        raise ValueError(
            f"the files hold {tokens:,} tokens and the server already holds {everyone:,} tokens of other "
            f"sessions' uploads, over its budget of {SERVER_TOKENS:,}; try again in a few minutes (uploads "
            "are let go when their sessions end)"
        )


def load_uploaded_in_worker(
    files: Sequence[tuple[str, bytes]],
    *,
    pattern: str | None,
    notes: list[str] | None = None,
    any_scheme: bool = False,
) -> Tokenizer | SchemeTokenizer:
    """:func:`~mergescope_ui.shared.inputs.tokenizer_files.load_uploaded` run in a worker process (a bar
    and Cancel here), within the session's and the server's budgets; the loader's, the job's or the
    budget's message is a ValueError.  What the loader assumed is appended to ``notes``; with
    ``any_scheme`` WordPiece and Unigram files load too (``load_uploaded_any``)."""
    key = "load:" + digest(repr(pattern), repr(any_scheme), *[part for file in files for part in file])
    label = "Loading " + ", ".join(name for name, _ in files)
    status = run_job(
        key, load_packed, [*files], label=label, limits=UPLOAD_LIMITS, pattern=pattern, any_scheme=any_scheme
    )
    if not status.ok:
        raise ValueError(status.message)
    who = owner()
    value = status.value
    tokens = value.tokenizer.vocab_size if isinstance(value, SchemeLoad) else len(value.ids)
    check_budget(tokens, mine=held_tokens(who), everyone=held_tokens())
    tok = value.tokenizer if isinstance(value, SchemeLoad) else unpack(value)
    _held[tok] = (who, tokens)
    if notes is not None:
        notes.extend(status.value.notes)
    return tok
