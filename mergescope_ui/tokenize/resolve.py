"""Turning a :class:`~mergescope_ui.tokenize.specs.TokenizerSpec` into a tokenizer (Streamlit side).

- SESSION reads the Train page's :class:`~mergescope_ui.shared.training_run.TrainingRun`
  (the shared key ``RUN``) and cuts its tokenizer to step k with ``Tokenizer.with_merges``;
- QUICK trains on a built-in corpus, cached per server with ``st.cache_resource``
  (the tokenizer is never changed after training; see :mod:`mergescope_ui.shared.cache`);
- TIKTOKEN and HF load a tokenizer found on this machine
  (:mod:`bpe_core.formats.local_caches`), once per server for every session;
- UPLOAD uses what :func:`load_upload` stored for this session (every upload
  of the session, by digest; a bare ``upload`` is the last one);
- CHAR builds ``bpe_core.CharTokenizer`` from a built-in corpus, TEXT_CHARS
  from the text being tokenized (so it never meets an unknown character);
- BYTES is a tokenizer without merges.

Every failure is a :class:`Picked` with ``error`` set, never an exception.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import streamlit as st

import bpe_core
from bpe_core import CharTokenizer, Tokenizer
from bpe_core.formats.local_caches import LocalLoad, LocalTokenizers, find_local_tokenizers, load_local
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.cache import corpus_index, corpus_text, remember
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.job_wait import load_uploaded_in_worker
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .results import AnyTokenizer, Tokenized, tokenize
from .specs import BYTES, CHAR, QUICK, SESSION, TEXT_CHARS, UPLOAD, TokenizerSpec

MEMO_SIZE = 8  # entries of each per-session memo
MAX_UPLOADS = 4  # uploads kept per session (each one is offered in Compare)
MAX_USED = 12  # tokenizers remembered per session for Compare
LOCAL_SCAN_SECONDS = 60  # how long a look into the caches holds (a new download shows after this)


@dataclass(frozen=True, slots=True)
class Picked:
    """A resolved tokenizer: what to call it, the tokenizer, the pair count of each merge when known."""

    spec: TokenizerSpec
    label: str
    tokenizer: AnyTokenizer | None
    identity: str  # changes whenever the tokenizer could change (for memos)
    counts: tuple[int, ...] | None = None
    notes: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True, slots=True)
class QuickTrained:
    """A tokenizer trained here, the pair count of each of its merges, and why training stopped."""

    tokenizer: Tokenizer
    counts: tuple[int, ...]
    stop_reason: str | None


@dataclass(slots=True)
class LoadedUpload:
    """The files of the last upload (by digest) and the tokenizer or the loader's message."""

    digest: str
    names: tuple[str, ...]
    pattern: str | None
    tokenizer: Tokenizer | None = None
    error: str | None = None


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
    """One found tokenizer, loaded once per server (``stamp``: its files' sizes and times).

    Three at most: o200k_base holds some 120 MB in Python (GPT-2's 50,257 tokens hold 28 MB).
    """
    found = local_tokenizers().get(key)
    if found is None or found.stamp() != stamp:
        raise ValueError("its files changed while loading; look again")
    return load_local(found)


def corpus_titles() -> dict[str, str]:
    return {c.id: c.title for c in corpus_index()}


def _session_tokenizer(run: TrainingRun, step: int) -> tuple[Tokenizer, int]:
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


def resolve(spec: TokenizerSpec, *, text: str = "") -> Picked:
    """The tokenizer ``spec`` names, or a Picked whose ``error`` says why there is none.

    ``text`` is the text being tokenized: the TEXT_CHARS baseline is built from it.
    """
    titles = corpus_titles()
    label = spec.label(titles=titles)
    try:
        if spec.kind == SESSION:
            return _resolve_session(spec)
        if spec.kind == QUICK:
            trained = quick_train(spec.corpus, spec.vocab_size, spec.pattern)
            merges = len(trained.tokenizer.merges)
            notes = ()
            if trained.tokenizer.vocab_size < spec.vocab_size:
                notes = (
                    f"training stopped at vocab {trained.tokenizer.vocab_size} ({merges} merges): "
                    f"{trained.stop_reason}",
                )
            return Picked(spec, label, trained.tokenizer, spec.key(), trained.counts, notes)
        if spec.kind == CHAR:
            return Picked(spec, label, char_baseline(spec.corpus), spec.key())
        if spec.kind == TEXT_CHARS:
            key = f"{TEXT_CHARS}:{digest(text)}"
            return Picked(spec, label, CharTokenizer(text) if text else CharTokenizer(" "), key)
        if spec.kind == BYTES:
            return Picked(spec, label, bytes_only(spec.pattern), spec.key())
        if spec.local:
            return _resolve_local(spec, label)
        return _resolve_upload(spec, label)
    except ValueError as exc:
        return Picked(spec, label, None, spec.key(), error=str(exc))


def _resolve_local(spec: TokenizerSpec, label: str) -> Picked:
    found = local_tokenizers().get(spec.key())
    if found is None:
        where = "tiktoken's cache" if spec.kind == "tiktoken" else "the Hugging Face hub cache"
        return Picked(
            spec,
            label,
            None,
            spec.key(),
            error=f"{spec.name} is not in {where} on this machine; pick one it has, or load its files",
        )
    try:
        loaded = _local_load(found.key, found.stamp())
    except OSError as exc:
        return Picked(spec, label, None, spec.key(), error=f"cannot read its files ({exc.strerror or exc})")
    return Picked(spec, found.label, loaded.tokenizer, f"{found.key}:{found.stamp()}", notes=loaded.notes)


def _resolve_upload(spec: TokenizerSpec, label: str) -> Picked:
    uploads: dict[str, LoadedUpload] = st.session_state.get(keys.UPLOADS, {})
    wanted = spec.name or st.session_state.get(keys.LAST_UPLOAD, "")
    loaded = uploads.get(wanted)
    if loaded is None:
        problem = (
            "no tokenizer files loaded yet: upload them above"
            if not spec.name
            else "these files were uploaded in another session: upload them here too"
        )
        return Picked(spec, label, None, spec.key(), error=problem)
    names = ", ".join(loaded.names)
    if loaded.tokenizer is None:
        return Picked(spec, f"uploaded {names}", None, spec.key(), error=f"{names}: {loaded.error}")
    return Picked(spec, f"uploaded {names}", loaded.tokenizer, f"upload:{loaded.digest}")


def remember_used(picked: Picked) -> None:
    """Keep ``picked`` among the tokenizers used this session (Compare offers them all)."""
    if picked.tokenizer is None:
        return
    spec = picked.spec
    if spec.kind == UPLOAD and not spec.name:
        spec = TokenizerSpec(kind=UPLOAD, name=picked.identity.removeprefix("upload:"))
    used: list[str] = st.session_state.setdefault(keys.USED, [])
    key = spec.key()
    if key in used:
        used.remove(key)
    used.insert(0, key)
    del used[MAX_USED:]


def _resolve_session(spec: TokenizerSpec) -> Picked:
    run = training_run()
    if run is None:
        return Picked(
            spec,
            spec.label(),
            None,
            spec.key(),
            error="nothing trained on the Train page in this session yet: "
            "train there first, or pick another tokenizer",
        )
    notes: list[str] = []
    step = run.position if spec.step is None else spec.step
    if step > run.pulled:
        notes.append(
            f"the Train page has made {run.pulled} merges so far; showing step {run.pulled}, not {step}"
        )
        step = run.pulled
    tok, serial = _session_tokenizer(run, step)
    counts = tuple(r.count for r in run.records[:step])
    label = f"Train page after {step} merges" + (" (its current step)" if spec.step is None else "")
    return Picked(spec, label, tok, f"session:{serial}:{step}", counts, tuple(notes))


def load_upload(files: Sequence[tuple[str, bytes]], *, pattern: str | None) -> LoadedUpload:
    """Load ``files`` unless they were loaded already this session; each upload is kept (by digest)."""
    key = digest(repr(pattern), *itertools.chain.from_iterable(files))  # the pattern, then name, bytes, ...
    uploads: dict[str, LoadedUpload] = st.session_state.setdefault(keys.UPLOADS, {})
    st.session_state[keys.LAST_UPLOAD] = key
    if key in uploads:
        return uploads[key]
    names = tuple(name for name, _ in files)
    try:
        loaded = LoadedUpload(key, names, pattern, tokenizer=load_uploaded_in_worker(files, pattern=pattern))
    except ValueError as exc:
        loaded = LoadedUpload(key, names, pattern, error=str(exc))
    return remember(uploads, key, lambda: loaded, size=MAX_UPLOADS)


def tokenized(picked: Picked, text: str) -> Tokenized | None:
    """``picked``'s tokenization of ``text``, memoized per session (None when nothing was picked)."""
    if picked.tokenizer is None:
        return None
    tok = picked.tokenizer
    memo: dict[tuple[str, str], Tokenized] = st.session_state.setdefault(keys.RESULT_MEMO, {})
    return remember(
        memo, (picked.identity, digest(text)), lambda: tokenize(tok, text, label=picked.label), size=MEMO_SIZE
    )
