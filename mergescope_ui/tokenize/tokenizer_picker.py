"""The Tokenize page's tokenizer picker: which kind, its settings, and the tokenizer they name.

The widgets describe a :class:`~mergescope_ui.tokenize.specs.TokenizerSpec`;
:func:`~mergescope_ui.tokenize.resolve.resolve` turns it into a tokenizer.
"Tokenizers on this machine" lists what :mod:`bpe_core.formats.local_caches`
finds in tiktoken's cache and the Hugging Face hub cache.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import PATTERNS
from bpe_core.formats.local_caches import LocalTokenizers
from mergescope_ui.shared.corpora import default_id
from mergescope_ui.shared.safe_text import md_escape
from mergescope_ui.shared.tokenizer_files import MAX_UPLOAD_FILES, UPLOAD_TYPES

from . import keys
from .resolve import (
    Picked,
    corpus_titles,
    load_upload,
    local_tokenizers,
    remember_used,
    resolve,
    training_run,
)
from .screen import presenting
from .specs import (
    BYTES,
    CHAR,
    MAX_QUICK_VOCAB,
    MIN_VOCAB,
    QUICK,
    SESSION,
    TIKTOKEN,
    UPLOAD,
    TokenizerSpec,
)
from .text_box import example_buttons

DEFAULT_CORPUS = "lighthouse_story"  # the English story (see mergescope_ui.shared.corpora.default_id)
DEFAULT_VOCAB = 500
AS_RECORDED = "__as_recorded__"
PATTERN_NAMES = [p for p in PATTERNS if p != "cl100k"]  # cl100k is gpt4's other name
LOCAL = "local"  # the choice "on this machine": a TIKTOKEN or HF spec
CHOICES = {
    SESSION: "Trained on the Train page",
    LOCAL: "On this machine (tiktoken, Hugging Face)",
    QUICK: "Quick-train on a built-in text",
    UPLOAD: "Load tokenizer files",
    CHAR: "Character baseline",
    BYTES: "Raw bytes (no merges)",
}
HOW_TO_GET = (
    "No tiktoken or Hugging Face tokenizer is cached on this machine yet: "
    "`python -c \"import tiktoken; tiktoken.get_encoding('o200k_base')\"` or "
    "`huggingface-cli download openai-community/gpt2 tokenizer.json` puts one where this page looks "
    "(then press Look again), or load the files with **Load tokenizer files**."
)


def default_corpus(titles: dict[str, str]) -> str:
    """The built-in text the page starts with."""
    return default_id(list(titles), DEFAULT_CORPUS)


def choice_of(spec: TokenizerSpec) -> str:
    """The picker's choice that shows ``spec`` (tiktoken and HF tokenizers are "on this machine")."""
    return LOCAL if spec.local else spec.kind


def picker() -> Picked:
    """The picker in a bordered box, resolved; shows the tokenizer's notes and why there is none."""
    # On a projector the picker (with the examples and the notes) folds away under one line: the text
    # and its tokens fill the screen; the tokenizer's name stays above the tokens.
    presenter = presenting()
    box = st.expander("🔧 Tokenizer and examples", expanded=False) if presenter else st.container(border=True)
    with box:
        if presenter:
            example_buttons()
        spec = _picker()
    picked = resolve(spec)
    remember_used(picked)
    for note in picked.notes:
        (box if presenter else st).caption(md_escape(note))
    nothing_local = spec.local and not local_tokenizers().found  # the picker said how to get some
    if picked.error and not nothing_local:
        message = f"{md_escape(picked.label)}: {md_escape(picked.error)}"
        quiet = spec.kind in (SESSION, UPLOAD) or (spec.local and not local_tokenizers().get(spec.key()))
        (st.info if quiet else st.error)(message)
    return picked


def _picker() -> TokenizerSpec:
    """The tokenizer picker; returns the spec the widgets describe."""
    titles = corpus_titles()
    run = training_run()
    st.session_state.setdefault(keys.KIND, SESSION if run is not None else QUICK)
    kind = st.radio(
        "Tokenizer",
        list(CHOICES),
        format_func=CHOICES.__getitem__,
        key=keys.KIND,
        horizontal=True,
        persist_state="session",
    )
    cols = st.columns(3)
    if kind == SESSION:
        return _session_widgets(cols, run)
    if kind == LOCAL:
        return _local_widgets(cols)
    if kind == UPLOAD:
        return _upload_widgets(cols)
    if kind in (QUICK, CHAR):
        st.session_state.setdefault(keys.CORPUS, default_corpus(titles))
        corpus = cols[0].selectbox(
            "Built-in text",
            list(titles),
            format_func=titles.__getitem__,
            key=keys.CORPUS,
            persist_state="session",
        )
        if kind == CHAR:
            cols[1].caption(
                "One token per distinct character of that text; characters it lacks are an error."
            )
            return TokenizerSpec(kind=CHAR, corpus=corpus)
        vocab = cols[1].number_input(
            "Vocab size",
            min_value=MIN_VOCAB,
            max_value=MAX_QUICK_VOCAB,
            value=DEFAULT_VOCAB,
            step=50,
            key=keys.VOCAB,
            persist_state="session",
            help="256 bytes + merges; small texts may stop earlier (no pair left).",
        )
        pattern = _pattern_select(cols[2])
        return TokenizerSpec(kind=QUICK, corpus=corpus, vocab_size=int(vocab), pattern=pattern)
    return TokenizerSpec(kind=BYTES, pattern=_pattern_select(cols[0]))


def _session_widgets(cols: list[DeltaGenerator], run) -> TokenizerSpec:
    if run is None:
        st.info(
            "Nothing trained on the **Train** page in this session yet. Train there, then come back; "
            "or quick-train here."
        )
        return TokenizerSpec(kind=SESSION)
    follow = cols[0].toggle(
        "Follow the Train page's current step", value=True, key=keys.FOLLOW, persist_state="session"
    )
    if follow:
        cols[1].metric("Merges", f"{run.position:,}", help="The Train page's current step.")
        return TokenizerSpec(kind=SESSION)
    if st.session_state.get(keys.STEP, 0) > run.pulled:
        st.session_state[keys.STEP] = run.pulled
    step = cols[1].slider(
        "After k merges",
        min_value=0,
        max_value=max(1, run.pulled),
        value=min(run.position, run.pulled),
        key=keys.STEP,
        disabled=run.pulled == 0,
        help="Any step the Train page has reached: how did this text tokenize after k merges?",
    )
    return TokenizerSpec(kind=SESSION, step=int(step))


def _rescan() -> None:
    local_tokenizers.clear()


def _local_widgets(cols: list[DeltaGenerator]) -> TokenizerSpec:
    local = local_tokenizers()
    wanted = st.session_state.get(keys.LOCAL)
    options = [f.key for f in local.found]
    if wanted and wanted not in options:
        options.append(wanted)  # asked for by a link, not on this machine: resolve says so
    if not options:
        st.info(HOW_TO_GET)
        _searched(local)
        st.button("Look again", key=keys.RESCAN, on_click=_rescan)
        return TokenizerSpec(kind=TIKTOKEN, name="o200k_base")
    labels = {f.key: f.label for f in local.found}
    preferred = next((k for k in ("tiktoken:o200k_base", "tiktoken:cl100k_base") if k in options), options[0])
    st.session_state.setdefault(keys.LOCAL, preferred)
    choice = cols[0].selectbox(
        "Tokenizer",
        options,
        format_func=lambda k: labels.get(k, f"{k} (not on this machine)"),
        key=keys.LOCAL,
        persist_state="session",
        help="Found in tiktoken's cache and the Hugging Face hub cache; loaded on first use, "
        "then shared by every session.",
    )
    cols[1].button("Look again", key=keys.RESCAN, on_click=_rescan, help="Look in the caches again.")
    if local.unusable:
        with st.expander(f"{len(local.unusable)} more on this machine that cannot be loaded here"):
            st.markdown(
                "\n".join(
                    f"- **{md_escape(u.name)}** ({md_escape(u.source)}): {md_escape(u.reason)}"
                    for u in local.unusable
                )
            )
    return TokenizerSpec.parse(choice)


def _searched(local: LocalTokenizers) -> None:
    home = str(Path.home())
    places = [str(p).replace(home, "~", 1) if str(p).startswith(home) else str(p) for p in local.searched]
    st.caption("Looked in: " + md_escape(", ".join(places)))


def _pattern_select(col: DeltaGenerator) -> str:
    st.session_state.setdefault(keys.PATTERN, "gpt2")
    return col.selectbox(
        "Pre-tokenization",
        PATTERN_NAMES,
        key=keys.PATTERN,
        persist_state="session",
        help="How text is cut into chunks before merging; no token crosses a chunk.",
    )


def _upload_widgets(cols: list[DeltaGenerator]) -> TokenizerSpec:
    files = cols[0].file_uploader(
        "Tokenizer files",
        type=list(UPLOAD_TYPES),
        accept_multiple_files=True,
        key=keys.FILES,
        help=f"tokenizer.json (HF), a .tiktoken or minbpe .model file, or vocab.json + merges.txt together "
        f"(up to {MAX_UPLOAD_FILES} files of one tokenizer), with encoding.json if you have it.",
    )
    choices = [AS_RECORDED, *PATTERN_NAMES]
    pattern = cols[1].selectbox(
        "Split pattern",
        choices,
        key=keys.LOAD_PATTERN,
        persist_state="session",
        format_func=lambda p: "as the files say (else gpt2)" if p == AS_RECORDED else p,
        help="vocab.json + merges.txt and .tiktoken files do not record one (encoding.json uploaded with "
        "them does); cl100k_base needs gpt4.",
    )
    chosen = None if pattern == AS_RECORDED else pattern
    if not files:
        return TokenizerSpec(kind=UPLOAD)
    loaded = load_upload([(f.name, f.getvalue()) for f in files], pattern=chosen)
    names = md_escape(", ".join(loaded.names))
    if loaded.error:
        st.error(f"Could not load {names}: {md_escape(loaded.error)}")
    else:
        tok = loaded.tokenizer
        st.success(
            f"Loaded {names}: vocab {tok.vocab_size:,}, {len(tok.merges):,} merges, "
            f"{len(tok.special_tokens)} special tokens, pattern {md_escape(tok.pretokenizer.name)}."
        )
    return TokenizerSpec(kind=UPLOAD, name=loaded.digest)
