"""The vocab-size lab: compression, OOV and round-trip rates against vocab size, from one training run.

``app_pages/vocab_lab.py`` only calls :func:`render`.  The texts and
settings sit in the sidebar; the run is computed with a progress bar and
cached per texts + settings (:mod:`mergescope_ui.lab_compute`); the charts
and tables come from :mod:`mergescope_ui.lab_tables`.
"""

from __future__ import annotations

import hashlib

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import TIE_BREAK_HELP, TIE_BREAKS
from bpe_core.data_split import split_documents, split_fraction
from bpe_core.metrics import DEFAULT_SAMPLES, LESSON_SIZES
from bpe_core.speed_lesson import GPT2_BYTES, GPT2_MERGES, time_trainers

from . import keys
from . import lab_keys as lk
from .engine import corpus_index, corpus_text
from .lab_compute import (
    MAX_VOCAB,
    LabResult,
    LabSettings,
    cached_lab,
    cached_reference_rows,
    digest,
    parse_sizes,
)
from .lab_tables import (
    compression_chart,
    compression_frame,
    gain_chart,
    gain_frame,
    human_duration,
    plot_points,
    reference_frame,
    script_chart,
    script_frame,
    script_summary,
    size_csv,
    size_frame,
)
from .playground_files import MAX_UPLOAD_FILES, load_uploaded
from .settings import parse_special_tokens
from .sources import decode_remembered_upload, remember_upload
from .upload import DEFAULT_MAX_BYTES, MEGABYTE

DEFAULT_CORPORA = ("lighthouse_story", "mixed_scripts")  # matched ignoring - vs _
DEFAULT_HELDOUT = "machine_learning_zh"
DEFAULT_VOCAB = 4096
DEFAULT_SIZES = "1024"
PATTERNS = {
    "gpt2": "GPT-2: words keep a leading space",
    "gpt4": "GPT-4 (cl100k): + digits in 3s",
    "o200k": "GPT-4o (o200k)",
    "whitespace": "whitespace: runs of space / non-space",
    "none": "none: no split (tokens may span words)",
}
DELIMITERS = {"\n\n": "blank lines (paragraphs)", "\n": "lines", "<|endoftext|>": "<|endoftext|>"}
HELDOUT_NAME = "held-out"
MAX_PASTE_CHARS = 2_000_000


# --- texts --------------------------------------------------------------------------


def find_id(ids: list[str], wanted: str) -> str | None:
    """The id in ``ids`` that is ``wanted`` up to ``-`` vs ``_`` (corpus ids have used both), or None.

    >>> find_id(["mixed-scripts", "aaabdaaabac"], "mixed_scripts")
    'mixed-scripts'
    """
    norm = wanted.replace("-", "_")
    return next((i for i in ids if i.replace("-", "_") == norm), None)


def training_text(messages: DeltaGenerator) -> tuple[str, list[str]] | None:
    """The training text (built-in corpora + pasted + uploaded, joined by blank lines) and its parts' names."""
    corpora = corpus_index()
    titles = {c.id: c.title for c in corpora}
    default = [found for c in DEFAULT_CORPORA if (found := find_id(list(titles), c)) is not None]
    if not default:  # the index changed: start from its largest text
        default = [max(corpora, key=lambda c: c.file.stat().st_size).id]
    chosen = st.multiselect(
        "Built-in corpora",
        list(titles),
        default=default,
        format_func=titles.__getitem__,
        key=lk.CORPORA,
        persist_state="session",
        help="Each chosen text becomes one document of the training text.",
    )
    pasted = st.text_area(
        "Your own text (optional)",
        key=lk.PASTED,
        height=100,
        max_chars=MAX_PASTE_CHARS,
        persist_state="session",
        placeholder="Paste text to add to the training text",
    )
    st.file_uploader(
        f"Or upload a UTF-8 .txt file (up to {DEFAULT_MAX_BYTES // MEGABYTE} MB)",
        type=["txt"],
        key=lk.UPLOAD,
        on_change=remember_upload,
        args=(lk.UPLOAD, lk.UPLOAD_RAW, lk.UPLOAD_NAME),
        max_upload_size=DEFAULT_MAX_BYTES // MEGABYTE,
    )
    parts: list[str] = [corpus_text(c) for c in chosen]
    names: list[str] = [titles[c] for c in chosen]
    if pasted.strip():
        parts.append(pasted)
        names.append("pasted text")
    raw = st.session_state.get(lk.UPLOAD_RAW)
    if raw is not None:
        name = st.session_state.get(lk.UPLOAD_NAME, "upload")
        text = decode_remembered_upload(raw, name, lossy_key=lk.UPLOAD_LOSSY, messages=messages)
        if text is None:
            return None
        if text.strip():
            parts.append(text)
            names.append(name)
    if not parts:
        messages.info("Choose a built-in corpus, paste text or upload a file in the sidebar to start.")
        return None
    return "\n\n".join(parts), names


def heldout_text(train: str, messages: DeltaGenerator) -> tuple[str, dict[str, str], str] | None:
    """``(training text, {name: held-out text}, description)``: a split of ``train`` or a separate text."""
    mode = st.radio(
        "Held-out text",
        [lk.SPLIT, lk.SEPARATE],
        key=lk.HELDOUT_MODE,
        persist_state="session",
        format_func={
            lk.SPLIT: "Split off part of the training text",
            lk.SEPARATE: "A separate text",
        }.__getitem__,
        help="Text the tokenizer does not train on: its compression shows how well the merges generalize.",
    )
    if mode == lk.SEPARATE:
        corpora = corpus_index()
        titles = {c.id: c.title for c in corpora}
        titles[lk.PASTE] = "✍️ Paste a held-out text"
        zh = find_id(list(titles), DEFAULT_HELDOUT)
        choice = st.selectbox(
            "Held-out source",
            list(titles),
            format_func=titles.__getitem__,
            key=lk.HELDOUT_SOURCE,
            index=list(titles).index(zh) if zh else 0,
            persist_state="session",
        )
        if choice == lk.PASTE:
            text = st.text_area(
                "Held-out text",
                key=lk.HELDOUT_PASTED,
                height=100,
                max_chars=MAX_PASTE_CHARS,
                persist_state="session",
            )
            if not text.strip():
                messages.info("Paste a held-out text in the sidebar (or split the training text).")
                return None
            return train, {HELDOUT_NAME: text}, "a pasted text"
        return train, {HELDOUT_NAME: corpus_text(choice)}, f"the built-in text “{titles[choice]}”"
    by = st.radio(
        "Split by",
        [lk.DOCUMENTS, lk.FRACTION],
        key=lk.SPLIT_BY,
        persist_state="session",
        horizontal=True,
        format_func={lk.DOCUMENTS: "documents", lk.FRACTION: "the end of the text"}.__getitem__,
    )
    share = st.slider(
        "Held-out share (%)",
        min_value=5,
        max_value=50,
        value=20,
        step=5,
        key=lk.HELDOUT_SHARE,
        persist_state="session",
    )
    try:
        if by == lk.DOCUMENTS:
            delimiter = st.selectbox(
                "Documents are separated by",
                list(DELIMITERS),
                format_func=DELIMITERS.__getitem__,
                key=lk.DELIMITER,
                persist_state="session",
            )
            seed = st.number_input(
                "Seed (which documents are held out)",
                min_value=0,
                max_value=10**6,
                value=0,
                key=lk.SPLIT_SEED,
                persist_state="session",
            )
            split = split_documents(train, delimiter=delimiter, heldout_fraction=share / 100, seed=int(seed))
        else:
            split = split_fraction(train, heldout_fraction=share / 100)
    except ValueError as exc:
        messages.error(f"Cannot split the training text: {exc}.")
        return None
    return split.train, {HELDOUT_NAME: split.heldout}, split.method


def lab_settings(messages: DeltaGenerator) -> LabSettings | None:
    """The training and measuring settings (in the sidebar); None after an error in ``messages``."""
    vocab = st.number_input(
        "Largest vocab size",
        min_value=257,
        max_value=MAX_VOCAB,
        value=DEFAULT_VOCAB,
        step=256,
        key=lk.VOCAB,
        persist_state="session",
        help="One training run to this size gives every smaller tokenizer: merges are a prefix order.",
    )
    pattern = st.selectbox(
        "Pre-tokenization",
        list(PATTERNS),
        format_func=PATTERNS.__getitem__,
        key=lk.PATTERN,
        persist_state="session",
    )
    tie = st.selectbox(
        "Tie rule",
        list(TIE_BREAKS),
        key=lk.TIE_BREAK,
        persist_state="session",
        help="\n".join(f"- **{k}**: {v}" for k, v in TIE_BREAK_HELP.items()),
    )
    specials_text = st.text_area(
        "Special tokens (one a line, optional)",
        key=lk.SPECIAL_TOKENS,
        height=68,
        persist_state="session",
        placeholder="<|endoftext|>",
    )
    sizes_text = st.text_input(
        "Your vocab sizes for the table",
        value=DEFAULT_SIZES,
        key=lk.SIZES,
        persist_state="session",
        help=f"Besides {', '.join(map(str, LESSON_SIZES))} and the largest size; e.g. 1000, 8k.",
    )
    samples = st.number_input(
        "Round-trip sample (characters)",
        min_value=1000,
        max_value=DEFAULT_SAMPLES,
        value=DEFAULT_SAMPLES,
        step=1000,
        key=lk.SAMPLES,
        persist_state="session",
    )
    try:
        specials = parse_special_tokens(specials_text)
        sizes = parse_sizes(sizes_text, smallest=257 + len(specials))
        if vocab < 257 + len(specials):
            raise ValueError(
                f"the largest vocab size must be at least {257 + len(specials)}: 256 bytes + "
                f"{len(specials)} special token(s) + one merge"
            )
    except ValueError as exc:
        messages.error(f"Check the settings: {exc}.")
        return None
    return LabSettings(
        vocab_size=int(vocab),
        pattern=pattern,
        special_tokens=specials,
        tie_break=tie,
        sizes=sizes,
        samples=int(samples),
    )


def _remember_reference() -> None:
    files = st.session_state.get(lk.REF_UPLOAD) or []
    if files:
        st.session_state[lk.REF_FILES] = [(f.name, f.getvalue()) for f in files]
    else:
        st.session_state.pop(lk.REF_FILES, None)


def reference_upload() -> list[tuple[str, bytes]]:
    """An optional tokenizer from files (e.g. GPT-2's vocab.json + merges.txt) to compare at its own size."""
    st.file_uploader(
        "Tokenizer files (optional)",
        accept_multiple_files=True,
        key=lk.REF_UPLOAD,
        on_change=_remember_reference,
        type=["json", "txt", "tiktoken", "model"],
        help=f"tokenizer.json, a .tiktoken or .model file, or vocab.json + merges.txt (up to {MAX_UPLOAD_FILES} "
        "files of one tokenizer): it shows as a point at its own vocab size and as rows of the table.",
    )
    return list(st.session_state.get(lk.REF_FILES, []))


def _reference_rows(
    files: list[tuple[str, bytes]], texts: dict[str, str], samples: int, messages: DeltaGenerator
) -> tuple:
    if not files:
        return ()
    name = " + ".join(n for n, _ in files)
    key = "|".join(f"{n}:{hashlib.sha256(data).hexdigest()}" for n, data in files)
    bar = st.progress(0.0, text=f"Measuring {name}…")
    try:
        return cached_reference_rows(
            key,
            lambda: load_uploaded(files),
            name,
            texts,
            samples=samples,
            progress=lambda f, m: bar.progress(min(1.0, max(0.0, f)), text=m),
        )
    except ValueError as exc:
        messages.error(f"Cannot use the tokenizer files {name}: {exc}.")
        return ()
    finally:
        bar.empty()


# --- results --------------------------------------------------------------------------


def _compute(train: str, heldout: dict[str, str], settings: LabSettings) -> tuple[LabResult, bool]:
    bar = st.progress(0.0, text="Training…")
    try:
        return cached_lab(
            train, heldout, settings, progress=lambda f, m: bar.progress(min(1.0, max(0.0, f)), text=m)
        )
    finally:
        bar.empty()


def _headline(result: LabResult, cached: bool) -> None:
    run = result.run
    K = run.merges
    held = run.heldout[0] if run.heldout else None
    st.caption(
        f"Trained on {run.train.chars:,} characters ({run.train.bytes:,} bytes) to vocab size "
        f"{run.vocab_size(K):,} ({K:,} merges; {run.stop_reason}) in {result.seconds:.2f} s"
        + (" · from the cache" if cached else "")
    )
    if run.vocab_size(K) < run.requested_vocab:
        st.info(
            f"Training stopped at {run.vocab_size(K):,} of the {run.requested_vocab:,} asked for: "
            f"{run.stop_reason}. Bigger sizes in the table show this final tokenizer."
        )
    cols = st.columns(4)
    cols[0].metric(
        "Train bytes/token",
        f"{run.train.bytes_per_token(K):.2f}",
        help=f"At vocab size {run.vocab_size(K):,}; 1.00 before any merge.",
    )
    if held is not None:
        train_bpt = run.train.bytes_per_token(K)
        gap = held.bytes_per_token(K) / train_bpt - 1 if train_bpt else 0.0
        cols[1].metric(
            "Held-out bytes/token",
            f"{held.bytes_per_token(K):.2f}",
            delta=f"{100 * gap:+.1f}% vs train",
            delta_color="off",
            help="The gap to the training text is over-fitting: merges that fit only the training text.",
        )
    bpe = [r for r in result.rows if r.tokenizer == "byte-level BPE" and r.text == HELDOUT_NAME]
    chars = [r for r in result.rows if r.tokenizer == "character baseline" and r.text == HELDOUT_NAME]
    if bpe:
        cols[2].metric(
            "OOV rate, byte-level BPE (held-out)",
            f"{100 * bpe[-1].oov_rate:.2f}%",
            help="Every text is made of bytes, and all 256 are in the vocab: nothing is out of vocabulary.",
        )
    if chars:
        cols[3].metric(
            "OOV rate, character baseline (held-out)",
            f"{100 * chars[0].oov_rate:.2f}%",
            help=f"A vocab of the {chars[0].vocab_size:,} distinct characters of the training text: "
            "any other character cannot be encoded.",
        )


def _curves(result: LabResult, references: tuple, large: bool) -> None:
    run = result.run
    ks = plot_points(run)
    st.subheader("Compression vs vocab size")
    metric = st.radio(
        "Measure",
        ["bytes_per_token", "chars_per_token"],
        key=lk.CURVE_METRIC,
        horizontal=True,
        format_func={
            "bytes_per_token": "bytes per token",
            "chars_per_token": "characters per token",
        }.__getitem__,
        persist_state="session",
    )
    points = reference_frame(references) if references else None
    st.altair_chart(
        compression_chart(compression_frame(run, ks), metric=metric, large=large, points=points),
        width="stretch",
    )
    st.caption(
        "Higher is better compression. Where the held-out line falls below the training line, the "
        "later merges fit the training text more than text in general. Dashed lines: 512, 4096, 32768."
    )
    st.subheader("What each merge saves")
    st.altair_chart(gain_chart(gain_frame(run), large=large), width="stretch")
    st.caption(
        "Tokens removed from the training text by each merge (averaged over bins of merges when there "
        "are many). The first merges save the most; late merges save a handful each: growing the vocab "
        "has diminishing returns."
    )


def _scripts(result: LabResult, large: bool) -> None:
    run = result.run
    curves = {c.name: c for c in (run.train, *run.heldout)}
    st.subheader("Per script")
    c1, c2 = st.columns(2)
    # Default: the text that mixes the most scripts (where the fairness lesson shows).
    richest = max(
        range(len(curves)), key=lambda i: (len(script_frame(list(curves.values())[i], run, [0])), i)
    )
    name = c1.selectbox("Text", list(curves), key=lk.SCRIPT_TEXT, persist_state="session", index=richest)
    metric = c2.radio(
        "Measure",
        ["chars_per_token", "bytes_per_token"],
        key=lk.SCRIPT_METRIC,
        horizontal=True,
        format_func={
            "bytes_per_token": "bytes per token",
            "chars_per_token": "characters per token",
        }.__getitem__,
        persist_state="session",
    )
    curve = curves[name]
    data = script_frame(curve, run, plot_points(run))
    if data["script"].nunique() < 2:
        st.info(
            f"The {name} text is (nearly) all one script; mix scripts to compare them "
            "(e.g. English training text with the Chinese corpus as held-out)."
        )
    st.altair_chart(script_chart(data, metric=metric, large=large), width="stretch")
    st.caption(
        "Each token counts for the script of its first character; spaces and punctuation count for the "
        "script next to them. A tokenizer trained mostly on one language gives other scripts fewer "
        "characters per token: the same sentence costs them more tokens."
    )
    st.dataframe(script_summary(curve, run.merges), hide_index=True, width="stretch")


def _table(result: LabResult, references: tuple) -> None:
    st.subheader("Table of sizes")
    rows = (*result.rows, *references)
    st.dataframe(size_frame(rows), hide_index=True, width="stretch")
    st.caption(
        "Sizes past the end of training show the final tokenizer. The character baseline's vocab is the "
        "distinct characters of the training text; round trips encode and decode random characters drawn "
        "from each text."
    )
    st.download_button(
        "⬇️ Download the table (CSV)", data=size_csv(rows), file_name="vocab_size_lab.csv", mime="text/csv"
    )


def _speed_lesson(train: str, settings: LabSettings) -> None:
    st.subheader("Why the fast trainer matters")
    st.write(
        "The textbook trainer recounts every pair of the whole text at every merge; the fast one only "
        "visits the places where the merged pair occurs. Time both on the start of your training text:"
    )
    c1, c2 = st.columns(2)
    merges = c1.number_input(
        "Merges",
        min_value=10,
        max_value=500,
        value=100,
        step=10,
        key=lk.SPEED_MERGES,
        persist_state="session",
    )
    size = c2.number_input(
        "Characters of the training text",
        min_value=500,
        max_value=20_000,
        value=4000,
        step=500,
        key=lk.SPEED_CHARS,
        persist_state="session",
    )
    sample = train[: int(size)]
    identity = (digest(sample), int(merges), settings.pattern, settings.special_tokens, settings.tie_break)
    if st.button("⏱ Time both trainers", key=lk.SPEED_RUN):
        with st.spinner("Timing the naive trainer, then the fast one…"):
            try:
                lesson = time_trainers(
                    sample,
                    merges=int(merges),
                    pattern=settings.pattern,
                    special_tokens=settings.special_tokens,
                    tie_break=settings.tie_break,
                )
            except ValueError as exc:
                st.error(f"Cannot time the trainers: {exc}.")
                return
        st.session_state[lk.SPEED_RESULT] = (identity, lesson)
    stored = st.session_state.get(lk.SPEED_RESULT)
    if stored is None or stored[0] != identity:
        return
    lesson = stored[1]
    cols = st.columns(3)
    cols[0].metric("Naive trainer", human_duration(lesson.naive_seconds))
    cols[1].metric("Fast trainer", human_duration(lesson.fast_seconds))
    cols[2].metric("Speed-up", f"{lesson.speedup:,.1f}×")
    if lesson.merges == 0:
        st.info("No merge was possible on this text; choose a longer text.")
        return
    est = lesson.extrapolate()
    st.write(
        f"Both learned {lesson.merges:,} merges on {lesson.text_bytes:,} bytes"
        + (
            " and the **same merges** in the same order."
            if lesson.same_merges
            else ", but different merges (a bug: please report it)."
        )
    )
    st.write(
        f"A GPT-2-sized run ({GPT2_MERGES:,} merges on {GPT2_BYTES / 1e9:.0f} GB of text), scaled from these timings: "
        f"naive ≈ **{human_duration(est.naive_seconds)}**, fast ≈ **{human_duration(est.fast_seconds)}**."
    )
    st.caption(
        "The naive time grows with text size × merges; the fast one with the text size (a merge can only "
        "remove tokens that exist). Rough orders of magnitude in pure Python on this machine, not forecasts."
    )


def render() -> None:
    """The whole page."""
    large = bool(st.session_state.get(keys.PRESENTER, False))
    st.title("🧪 Vocab-size lab")
    st.write(
        "“Should we use 8K or 32K?” Train once to the largest size and see compression, OOV and round-trip "
        "rates for every smaller vocabulary, on the training text and on held-out text."
    )
    messages = st.container()
    with st.sidebar:
        st.header("Training text")
        picked = training_text(messages)
        settings = None
        split = None
        if picked is not None:
            st.header("Held-out text")
            split = heldout_text(picked[0], messages)
        st.header("Settings")
        settings = lab_settings(messages)
        st.header("Compare")
        ref_files = reference_upload()
    if picked is None or split is None or settings is None:
        return
    train, heldout, how = split
    if not train.strip():
        messages.error("The training text is empty after the split; hold out less, or add text.")
        return
    st.caption(f"Training text: {', '.join(picked[1])}; held-out: {how}.")
    try:
        result, cached = _compute(train, heldout, settings)
    except ValueError as exc:
        messages.error(f"Cannot compute the curves: {exc}.")
        return
    _headline(result, cached)
    texts = {result.run.train.name: train, **heldout}
    references = _reference_rows(ref_files, texts, settings.samples, messages)
    curves_tab, scripts_tab, table_tab, speed_tab = st.tabs(
        ["📉 Curves", "🌐 Per script", "📋 Table of sizes", "⏱ Speed lesson"]
    )
    with curves_tab:
        _curves(result, references, large)
    with scripts_tab:
        _scripts(result, large)
    with table_tab:
        _table(result, references)
    with speed_tab:
        _speed_lesson(train, settings)
