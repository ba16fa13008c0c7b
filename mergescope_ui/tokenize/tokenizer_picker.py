"""The Tokenize page's tokenizer picker: which kind, its settings, and the tokenizer they name.

The widgets describe a :class:`~.specs.TokenizerSpec`.  "OpenAI and Hugging Face" lists tiktoken's
encodings and the hub cache's models, and takes any model by name; one not on this machine yet is
fetched in place (:mod:`.fetch_offer`).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import PATTERNS
from bpe_core.hub import ENCODINGS
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.corpora import default_id
from mergescope_ui.shared.inputs.tokenizer_files import MAX_UPLOAD_FILES, UPLOAD_TYPES
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .fetch_offer import offer_fetch
from .live_text import example_buttons
from .resolve import (
    Picked,
    corpus_titles,
    load_upload,
    local_tokenizers,
    remember_used,
    resolve,
    training_run,
)
from .schemes import hooks_of
from .screen import folded
from .specs import (
    LOCAL,
    MAX_QUICK_VOCAB,
    MIN_VOCAB,
    BytesSpec,
    CachedSpec,
    CharSpec,
    HfSpec,
    QuickSpec,
    SessionSpec,
    TiktokenSpec,
    TokenizerSpec,
    UploadSpec,
    parse,
)

DEFAULT_CORPUS = "lighthouse_story"  # the English story (see mergescope_ui.shared.inputs.corpora.default_id)
DEFAULT_VOCAB = 500
AS_RECORDED = "__as_recorded__"
PATTERN_NAMES = [p for p in PATTERNS if p != "cl100k"]  # cl100k is gpt4's other name
CHOICES = {  # the kinds of spec, by their ``choice``
    SessionSpec.choice: "Trained on the Train page",
    LOCAL: "OpenAI and Hugging Face",
    QuickSpec.choice: "Quick-train on a built-in text",
    UploadSpec.choice: "Load tokenizer files",
    CharSpec.choice: "Character baseline",
    BytesSpec.choice: "Raw bytes (no merges)",
}
PRESETS = tuple(TiktokenSpec(name=name).key() for name in ENCODINGS)  # gpt2 ... o200k_base
HF_PRESETS = ("hf:openai-community/gpt2",)
NEWEST = TiktokenSpec(name="o200k_base").key()  # offered first when nothing is on this machine


def without_name(error: str, names: Sequence[str]) -> str:
    """``error`` without the uploaded file's name in front, which the line already names once.

    >>> without_name("notes.txt: holds neither ...", ["notes.txt"])
    'holds neither ...'
    >>> without_name("vocab.json, line 3: bad", ["vocab.json"])
    'line 3: bad'
    >>> without_name("merges.txt: needs its vocab file", ["vocab.json", "merges.txt"])
    'merges.txt: needs its vocab file'
    """
    if len(names) == 1:
        for sep in (": ", ", "):
            if error.startswith(names[0] + sep):
                return error[len(names[0]) + len(sep) :]
    return error


def default_corpus(titles: dict[str, str]) -> str:
    """The built-in text the page starts with."""
    return default_id(list(titles), DEFAULT_CORPUS)


def picker() -> Picked:
    """The picker in a bordered box, resolved; shows the tokenizer's notes and why there is none."""
    # On a projector the picker (with the examples and the notes) folds away under one line: the text
    # and its tokens fill the screen; the tokenizer's name stays above the tokens.  So on a phone.
    presenter = folded()
    box = st.expander("🔧 Tokenizer and examples", expanded=False) if presenter else st.container(border=True)
    with box:
        if presenter:
            example_buttons()
        spec = _picker()
    picked = resolve(spec)
    remember_used(picked)
    for note in picked.notes:
        (box if presenter else st).caption(md_escape(note))
    if isinstance(spec, CachedSpec) and picked.tokenizer is None and picked.quiet:
        offer_fetch(spec)  # not on this machine yet: fetch it here, or load its files
    elif picked.error:
        message = f"{md_escape(picked.label)}: {md_escape(picked.error)}"
        (st.info if picked.quiet else st.error)(message)
    return picked


def _picker() -> TokenizerSpec:
    """The tokenizer picker; returns the spec the widgets describe."""
    titles = corpus_titles()
    run = training_run()
    st.session_state.setdefault(keys.KIND, SessionSpec.choice if run is not None else QuickSpec.choice)
    kind = st.radio(
        "Tokenizer",
        list(CHOICES),
        format_func=CHOICES.__getitem__,
        key=keys.KIND,
        horizontal=True,
        persist_state="session",
    )
    cols = st.columns(3)
    if kind == SessionSpec.choice:
        return _session_widgets(cols, run)
    if kind == LOCAL:
        return _local_widgets(cols)
    if kind == UploadSpec.choice:
        return _upload_widgets(cols)
    if kind in (QuickSpec.choice, CharSpec.choice):
        st.session_state.setdefault(keys.CORPUS, default_corpus(titles))
        corpus = cols[0].selectbox(
            "Built-in text",
            list(titles),
            format_func=titles.__getitem__,
            key=keys.CORPUS,
            persist_state="session",
        )
        if kind == CharSpec.choice:
            cols[1].caption(
                "One token per distinct character of that text; characters it lacks are an error."
            )
            return CharSpec(corpus=corpus)
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
        return QuickSpec(corpus=corpus, vocab_size=int(vocab), pattern=pattern)
    return BytesSpec(pattern=_pattern_select(cols[0]))


def _session_widgets(cols: Sequence[DeltaGenerator], run: TrainingRun | None) -> TokenizerSpec:
    if run is None:
        st.info(
            "Nothing trained on the **Train** page in this session yet. Train there, then come back; "
            "or quick-train here."
        )
        return SessionSpec()
    follow = cols[0].toggle(
        "Follow the Train page's current step", value=True, key=keys.FOLLOW, persist_state="session"
    )
    if follow:
        cols[1].metric("Merges", f"{run.position:,}", help="The Train page's current step.")
        return SessionSpec()
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
    return SessionSpec(step=int(step))


def _rescan() -> None:
    local_tokenizers.clear()
    st.session_state[keys.RELABEL] = True


def _named() -> None:
    """The Hugging Face model typed in the box becomes the choice (checked as a link's would be)."""
    raw = str(st.session_state.get(keys.HF_NAME) or "").strip()
    if not raw:
        return
    try:
        key = HfSpec.read(raw, raw).key()
    except ValueError as exc:
        st.session_state[keys.HF_NAME_PROBLEM] = str(exc)
        return
    st.session_state.pop(keys.HF_NAME_PROBLEM, None)
    named: list[str] = st.session_state.setdefault(keys.HF_NAMED, [])
    if key not in named:
        named.append(key)
    st.session_state[keys.LOCAL] = key


def _local_widgets(cols: Sequence[DeltaGenerator]) -> TokenizerSpec:
    """Every OpenAI encoding, the Hugging Face models on this machine, and any model by name."""
    local = local_tokenizers()
    named = st.session_state.get(keys.HF_NAMED, [])
    options = list(dict.fromkeys([*PRESETS, *(f.key for f in local.found), *HF_PRESETS, *named]))
    wanted = st.session_state.get(keys.LOCAL)
    if wanted and wanted not in options:
        options.append(wanted)  # asked for by a link: resolve says whether it is here
    labels = {f.key: f.label for f in local.found}
    found = [k for k in options if k in labels]
    preferred = next((k for k in ("tiktoken:o200k_base", "tiktoken:cl100k_base") if k in found), None)
    st.session_state.setdefault(keys.LOCAL, preferred or (found or [NEWEST])[0])
    if st.session_state.pop(keys.RELABEL, False):  # "not on this machine yet" became its cache's name:
        st.session_state[keys.LOCAL] = st.session_state[keys.LOCAL]  # the browser shows the new label
    choice = cols[0].selectbox(
        "Tokenizer",
        options,
        format_func=lambda k: labels.get(k) or f"{parse(k).label()}, not on this machine yet",
        key=keys.LOCAL,
        persist_state="session",
        help="OpenAI's encodings and Hugging Face models: those in tiktoken's cache or the Hugging Face "
        "hub cache load at once (once per server); the others are fetched once into those caches.",
    )
    cols[1].text_input(
        "Hugging Face model",
        key=keys.HF_NAME,
        on_change=_named,
        placeholder="org/name, e.g. openai-community/gpt2",
        help="A model on the Hugging Face hub whose tokenizer.json is byte-level BPE (GPT-2 style), "
        "WordPiece or Unigram.",
    )
    cols[2].button("Look again", key=keys.RESCAN, on_click=_rescan, help="Look in the caches again.")
    problem = st.session_state.get(keys.HF_NAME_PROBLEM)
    if problem:
        st.error(md_escape(problem))
    if local.unusable:
        with st.expander(f"{len(local.unusable)} more on this machine that cannot be loaded here"):
            st.markdown(
                "\n".join(
                    f"- **{md_escape(u.name)}** ({md_escape(u.source)}): {md_escape(u.reason)}"
                    for u in local.unusable
                )
            )
    return parse(choice)


def _pattern_select(col: DeltaGenerator) -> str:
    st.session_state.setdefault(keys.PATTERN, "gpt2")
    return col.selectbox(
        "Pre-tokenization",
        PATTERN_NAMES,
        key=keys.PATTERN,
        persist_state="session",
        help="How text is cut into chunks before merging; no token crosses a chunk.",
    )


def _upload_widgets(cols: Sequence[DeltaGenerator]) -> TokenizerSpec:
    files = cols[0].file_uploader(
        "Tokenizer files",
        type=list(UPLOAD_TYPES),
        accept_multiple_files=True,
        key=keys.FILES,
        help=f"tokenizer.json (HF's: BERT, T5, Llama-2, byte-level BPE...), a .tiktoken file, a "
        f"SentencePiece (Unigram or BPE) or minbpe .model file, BERT's vocabulary, or vocab.json + "
        f"merges.txt together "
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
        return UploadSpec()
    loaded = load_upload([(f.name, f.getvalue()) for f in files], pattern=chosen)
    names = md_escape(", ".join(loaded.names))
    if loaded.error:
        st.error(f"Could not load {names}: {md_escape(without_name(loaded.error, loaded.names))}")
    elif (tok := loaded.tokenizer) is not None and (summary := hooks_of(tok).summary) is not None:
        st.success(f"Loaded {names}: {md_escape(summary(tok))}.")
    return UploadSpec(digest=loaded.digest)
