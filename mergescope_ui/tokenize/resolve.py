"""Turning a :class:`~mergescope_ui.tokenize.specs.TokenizerSpec` into a tokenizer (Streamlit side).

Each spec resolves itself with this module's :class:`~.specs.Here`: quick-trained tokenizers and those
of tiktoken's and the hub cache, once per server (``st.cache_resource``); the Train page's run, cut
to step k; what :func:`load_upload` stored for this session.  Every failure is a :class:`Picked`
with ``error`` set, never an exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import streamlit as st

import bpe_core
from bpe_core import CharTokenizer, Tokenizer
from bpe_core.hub import FoundTokenizer, LocalLoad, LocalTokenizers, find_local_tokenizers, load_local
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.training_run import TrainingRun
from mergescope_ui.shared.workers.cache import corpus_index, corpus_text, remember
from mergescope_ui.shared.workers.job_wait import load_uploaded_in_worker

from . import keys
from .results import Tokenized, tokenize
from .schemes import shows
from .specs import LoadedUpload, Picked, QuickTrained, TokenizerSpec, UploadSpec

__all__ = ["LoadedUpload", "Picked", "QuickTrained", "load_upload", "resolve", "tokenized"]

MEMO_SIZE = 8  # entries of each per-session memo
MAX_UPLOADS = 4  # uploads kept per session (each one is offered in Compare)
MAX_USED = 12  # tokenizers remembered per session for Compare
LOCAL_SCAN_SECONDS = 60  # how long a look into the caches holds (a new download shows after this)


@dataclass(slots=True)
class SessionMemo:
    """The training run's tokenizer with every merge pulled so far, and cuts of it by step."""

    run: TrainingRun
    pulled: int
    full: Tokenizer
    serial: int  # bumped on every rebuild, so memo keys never mix two runs
    cuts: dict[int, Tokenizer] = field(default_factory=dict)


@st.cache_resource(show_spinner="Training…", max_entries=32)
def quick_train(corpus_id: str, vocab_size: int, pattern: str) -> QuickTrained:
    """Train on a built-in corpus (one per server per setting)."""
    trainer = bpe_core.train_steps(
        corpus_text(corpus_id), vocab_size=vocab_size, pattern=pattern, top_k=0, preview_chars=0
    )
    counts = tuple(step.count for step in trainer)
    return QuickTrained(trainer.tokenizer(), counts, trainer.stop_reason)


@st.cache_resource(show_spinner=False, max_entries=16)
def char_baseline(corpus_id: str) -> CharTokenizer:
    return CharTokenizer(corpus_text(corpus_id))


@st.cache_resource(show_spinner=False, max_entries=8)
def bytes_only(pattern: str) -> Tokenizer:
    return Tokenizer({b: bytes([b]) for b in range(256)}, [], pattern=pattern)


@st.cache_resource(show_spinner=False, ttl=LOCAL_SCAN_SECONDS)
def local_tokenizers() -> LocalTokenizers:
    """The tokenizers in tiktoken's cache and the Hugging Face hub cache (looked up once a minute)."""
    return find_local_tokenizers()


@st.cache_resource(show_spinner="Loading the tokenizer (once for this server)…", max_entries=3)
def _local_load(key: str, stamp: tuple[tuple[str, int, int], ...]) -> LocalLoad:
    """One found tokenizer, loaded once per server (``stamp``: its files' sizes and times); three at
    most, as o200k_base holds some 120 MB in Python."""
    found = local_tokenizers().get(key)
    if found is None or found.stamp() != stamp:
        raise ValueError("its files changed while loading; look again")
    return load_local(found)


def corpus_titles() -> dict[str, str]:
    return {c.id: c.title for c in corpus_index()}


def _cut(run: TrainingRun, step: int) -> tuple[Tokenizer, int]:
    """The run's tokenizer cut to ``step`` merges, and the memo's serial."""
    memo: SessionMemo | None = st.session_state.get(keys.SESSION_MEMO)
    if memo is None or memo.run is not run or memo.pulled != run.pulled:
        serial = 1 if memo is None else memo.serial + 1
        memo = SessionMemo(run=run, pulled=run.pulled, full=run.trainer.tokenizer(), serial=serial)
        st.session_state[keys.SESSION_MEMO] = memo
    if step >= len(memo.full.merges):
        return memo.full, memo.serial
    full = memo.full
    return remember(memo.cuts, step, lambda: full.with_merges(step), size=MEMO_SIZE), memo.serial


def training_run() -> TrainingRun | None:
    """The Train page's run in this session, if any."""
    run = st.session_state.get(shared_keys.RUN)
    return run if isinstance(run, TrainingRun) else None


class _Here:
    """What specs resolve with: this server's caches and this session's state."""

    quick_train = staticmethod(quick_train)
    char_baseline = staticmethod(char_baseline)
    bytes_only = staticmethod(bytes_only)
    training_run = staticmethod(training_run)
    cut = staticmethod(_cut)

    def found(self, key: str) -> FoundTokenizer | None:
        return local_tokenizers().get(key)

    def why_not(self, key: str) -> str | None:
        source, _, name = key.partition(":")
        return next(
            (u.reason for u in local_tokenizers().unusable if (u.source, u.name) == (source, name)), None
        )

    def load_found(self, found: FoundTokenizer) -> LocalLoad:
        return _local_load(found.key, found.stamp())

    def upload(self, digest: str) -> LoadedUpload | None:
        uploads: dict[str, LoadedUpload] = st.session_state.get(keys.UPLOADS, {})
        return uploads.get(digest or st.session_state.get(keys.LAST_UPLOAD, ""))


def resolve(spec: TokenizerSpec, *, text: str = "") -> Picked:
    """The tokenizer ``spec`` names (``text``: the text being tokenized), or a Picked saying why not."""
    titles = corpus_titles()
    try:
        return spec.resolve(_Here(), text=text, titles=titles)
    except ValueError as exc:
        return Picked(spec, spec.label(titles=titles), None, spec.key(), error=str(exc))


def remember_used(picked: Picked) -> None:
    """Keep ``picked`` among the tokenizers used this session (Compare offers them all)."""
    if picked.tokenizer is None:
        return
    spec = picked.spec
    if isinstance(spec, UploadSpec) and not spec.digest:
        spec = UploadSpec(digest=picked.identity.removeprefix("upload:"))
    used: list[str] = st.session_state.setdefault(keys.USED, [])
    used[:] = list(dict.fromkeys([spec.key(), *used]))[:MAX_USED]  # the newest first, each once


def load_upload(files: Sequence[tuple[str, bytes]], *, pattern: str | None) -> LoadedUpload:
    """Load ``files`` unless they were loaded already this session; each upload is kept (by digest)."""
    parts: list[str | bytes] = [part for name, raw in files for part in (name, raw)]
    key = digest(repr(pattern), *parts)  # the pattern, then name, bytes, name, bytes...
    uploads: dict[str, LoadedUpload] = st.session_state.setdefault(keys.UPLOADS, {})
    st.session_state[keys.LAST_UPLOAD] = key
    if key in uploads:
        return uploads[key]
    names = tuple(name for name, _ in files)
    notes: list[str] = []
    try:
        tok = load_uploaded_in_worker(files, pattern=pattern, notes=notes, any_scheme=True)
        if not shows(tok):
            raise ValueError(f"the files hold a {tok.scheme} tokenizer, which this page cannot show")
        loaded = LoadedUpload(key, names, pattern, tokenizer=tok, notes=tuple(notes))
    except ValueError as exc:
        loaded = LoadedUpload(key, names, pattern, error=str(exc))
    return remember(uploads, key, lambda: loaded, size=MAX_UPLOADS)


def tokenized(picked: Picked, text: str, *, specials: bool = True) -> Tokenized | None:
    """``picked``'s tokenization of ``text``, memoized per session (None when nothing was picked)."""
    if picked.tokenizer is None:
        return None
    tok = picked.tokenizer
    memo: dict[tuple[str, str, bool], Tokenized] = st.session_state.setdefault(keys.RESULT_MEMO, {})
    return remember(
        memo,
        (picked.identity, digest(text), specials),
        lambda: tokenize(tok, text, label=picked.label, specials=specials),
        size=MEMO_SIZE,
    )
