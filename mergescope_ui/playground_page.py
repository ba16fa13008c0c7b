"""The playground page: paste text, pick a tokenizer, see its tokens, bytes and details.

``app_pages/playground.py`` only calls :func:`render`.  The picker lives in
:mod:`~mergescope_ui.playground_picker`; the views are built by the pure
``playground_*`` modules and :mod:`~mergescope_ui.token_html`.  User text only
reaches the page escaped, through ``st.html``, ``st.code`` or tables.
"""

from __future__ import annotations

from urllib.parse import urlencode

import altair as alt
import streamlit as st

from bpe_core import PATTERNS, CharTokenizer, Tokenizer
from bpe_core import readable as screen_label

from . import keys
from .playground_core import PAGE_SIZE, Page, Tokenized, byte_start_of, compare_table, page_of
from .playground_details import (
    DETAIL_CSS,
    describe,
    first_positions,
    genealogy,
    genealogy_html,
    later_tokens_html,
    token_detail,
)
from .playground_files import MAX_UPLOAD_FILES, UPLOAD_TYPES, tokenizer_bundle
from .playground_picker import Picked, corpus_titles, load_upload, resolve, tokenized, training_run
from .playground_ribbon import byte_ribbon_html
from .playground_share import (
    MAX_COMPARE,
    MAX_SHARED_CHARS,
    PARAM_NAMES,
    ShareState,
    from_query,
    text_fits,
    to_query,
)
from .playground_specs import (
    BYTES,
    CHAR,
    KIND_LABELS,
    KINDS,
    MAX_QUICK_VOCAB,
    MIN_VOCAB,
    QUICK,
    SESSION,
    UPLOAD,
    TokenizerSpec,
)
from .token_html import TOKEN_CSS, token_span, token_spans_html

# Widget keys (persisted across page switches) and plain keys of this page.
K_TEXT = "pg_text"
K_KIND = "pg_kind"
K_CORPUS = "pg_corpus"
K_VOCAB = "pg_vocab"
K_PATTERN = "pg_pattern"
K_FOLLOW = "pg_follow"
K_STEP = "pg_step"
K_FILES = "pg_files"
K_LOAD_PATTERN = "pg_load_pattern"
K_PAGE = "pg_page"
K_DETAIL = "pg_detail"
K_COMPARE = "pg_compare"
K_URL_READ = "pg_url_read"  # plain: the link's state was applied once this session
K_URL_NOTES = "pg_url_notes"  # plain: what the link asked for that could not be used

DEFAULT_CORPUS_WORD = "lighthouse"  # the default built-in text: the first whose id contains this
DEFAULT_VOCAB = 500
AS_RECORDED = "__as_recorded__"
MAX_TEXT_CHARS = 2_000_000
COMPARE_SPAN_TOKENS = 600
RIBBON_LINE_BYTES = 24  # bytes a ribbon line holds before it may break (fits a 1400 px window)
RIBBON_LINE_BYTES_LARGE = 10  # in presenter mode (fits a 1400 px window at the large font)
MAX_DETAIL_CHOICES = 3000

EXAMPLES: dict[str, str] = {
    "English": "The lighthouse keeper climbed the stairs, lit the lamp, and watched the ships come home.",
    "Chinese": "机器学习是人工智能的一个分支。我们用数据训练模型。",
    "Code": 'def greet(name: str) -> str:\n    """Say hello."""\n    return f"Hello, {name}!"\n',
    "Emoji & ZWJ": "Family: 👨‍👩‍👧‍👦  flags: 🇯🇵🇫🇷  skin tone: 👋🏽  heart: ❤️ <3",
    "Numbers": "In 2024, 1,234,567 visitors paid $3.14 each; π ≈ 3.14159265358979.",
    "Whitespace": "a  b\tc\n\n    indented\n\t\ttabs   trailing   \n",
    "HTML": '<script>alert("hi")</script> </span> & "quotes" \'single\'',
}
PATTERN_NAMES = [p for p in PATTERNS if p != "cl100k"]  # cl100k is gpt4's other name


def default_corpus(titles: dict[str, str]) -> str:
    """The built-in text the page starts with (an English story when there is one)."""
    return next((c for c in titles if DEFAULT_CORPUS_WORD in c), next(iter(titles)))


# --- the link ------------------------------------------------------------------


def _apply_link() -> None:
    """Once a session: fill the widgets from the URL (before they are drawn)."""
    if st.session_state.get(K_URL_READ):
        return
    st.session_state[K_URL_READ] = True
    params = {name: st.query_params.get_all(name) for name in PARAM_NAMES if name in st.query_params}
    if not params:
        return
    state, notes = from_query(params)
    st.session_state[K_URL_NOTES] = notes
    if state.text is not None:
        st.session_state[K_TEXT] = state.text
    if state.spec is not None:
        _set_picker(TokenizerSpec.parse(state.spec))
    if state.compare:
        st.session_state[K_COMPARE] = list(state.compare)
    st.session_state[K_PAGE] = state.page


def _set_picker(spec: TokenizerSpec) -> None:
    st.session_state[K_KIND] = spec.kind
    if spec.kind in (QUICK, CHAR) and spec.corpus in corpus_titles():
        st.session_state[K_CORPUS] = spec.corpus
    if spec.kind == QUICK:
        st.session_state[K_VOCAB] = spec.vocab_size
    if spec.kind in (QUICK, BYTES):
        st.session_state[K_PATTERN] = spec.pattern
    if spec.kind == SESSION:
        st.session_state[K_FOLLOW] = spec.step is None
        if spec.step is not None:
            st.session_state[K_STEP] = spec.step


def _write_link(text: str, spec: TokenizerSpec, compare: list[str], page: int) -> ShareState:
    """Put this view into the URL (only this page's parameters; others' bound ones are left alone)."""
    state = ShareState(text=text, spec=spec.key(), compare=tuple(compare), page=page)
    wanted = to_query(state)
    for name in PARAM_NAMES:
        if name in wanted:
            if st.query_params.get(name) != wanted[name]:
                st.query_params[name] = wanted[name]
        elif name in st.query_params:
            del st.query_params[name]
    return state


# --- inputs --------------------------------------------------------------------


def _use_example(name: str) -> None:
    st.session_state[K_TEXT] = EXAMPLES[name]
    st.session_state[K_PAGE] = 1


def _text_input() -> str:
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption("Try an example:")
        for name in EXAMPLES:
            st.button(name, key=f"pg_ex_{name}", on_click=_use_example, args=(name,))
    st.session_state.setdefault(K_TEXT, EXAMPLES["English"])
    text = st.text_area(
        "Text to tokenize",
        key=K_TEXT,
        height=130,
        max_chars=MAX_TEXT_CHARS,
        persist_state="session",
        help="Anything: several languages, code, emoji. Ctrl+Enter applies it.",
    )
    return text or ""


def _picker() -> TokenizerSpec:
    """The tokenizer picker; returns the spec the widgets describe."""
    titles = corpus_titles()
    run = training_run()
    st.session_state.setdefault(K_KIND, SESSION if run is not None else QUICK)
    kind = st.radio(
        "Tokenizer",
        list(KINDS),
        format_func=KIND_LABELS.__getitem__,
        key=K_KIND,
        horizontal=True,
        persist_state="session",
    )
    cols = st.columns(3)
    if kind == SESSION:
        if run is None:
            st.info(
                "Nothing trained on the **Train** page in this session yet. Train there, then come back; "
                "or quick-train here."
            )
            return TokenizerSpec(kind=SESSION)
        follow = cols[0].toggle(
            "Follow the Train page's current step", value=True, key=K_FOLLOW, persist_state="session"
        )
        if follow:
            cols[1].metric("Merges", f"{run.position:,}", help="The Train page's current step.")
            return TokenizerSpec(kind=SESSION)
        if st.session_state.get(K_STEP, 0) > run.pulled:
            st.session_state[K_STEP] = run.pulled
        step = cols[1].slider(
            "After k merges",
            min_value=0,
            max_value=max(1, run.pulled),
            value=min(run.position, run.pulled),
            key=K_STEP,
            disabled=run.pulled == 0,
            help="Any step the Train page has reached: how did this text tokenize after k merges?",
        )
        return TokenizerSpec(kind=SESSION, step=int(step))
    if kind == UPLOAD:
        return _upload_widgets(cols)
    if kind in (QUICK, CHAR):
        st.session_state.setdefault(K_CORPUS, default_corpus(titles))
        corpus = cols[0].selectbox(
            "Built-in text",
            list(titles),
            format_func=titles.__getitem__,
            key=K_CORPUS,
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
            key=K_VOCAB,
            persist_state="session",
            help="256 bytes + merges; small texts may stop earlier (no pair left).",
        )
        pattern = _pattern_select(cols[2])
        return TokenizerSpec(kind=QUICK, corpus=corpus, vocab_size=int(vocab), pattern=pattern)
    return TokenizerSpec(kind=BYTES, pattern=_pattern_select(cols[0]))


def _pattern_select(col) -> str:
    st.session_state.setdefault(K_PATTERN, "gpt2")
    return col.selectbox(
        "Pre-tokenization",
        PATTERN_NAMES,
        key=K_PATTERN,
        persist_state="session",
        help="How text is cut into chunks before merging; no token crosses a chunk.",
    )


def _upload_widgets(cols) -> TokenizerSpec:
    files = cols[0].file_uploader(
        "Tokenizer files",
        type=list(UPLOAD_TYPES),
        accept_multiple_files=True,
        key=K_FILES,
        help=f"tokenizer.json (HF), a .tiktoken or minbpe .model file, or vocab.json + merges.txt together "
        f"(up to {MAX_UPLOAD_FILES} files of one tokenizer).",
    )
    choices = [AS_RECORDED, *PATTERN_NAMES]
    pattern = cols[1].selectbox(
        "Split pattern",
        choices,
        key=K_LOAD_PATTERN,
        persist_state="session",
        format_func=lambda p: "as the files say (else gpt2)" if p == AS_RECORDED else p,
        help="vocab.json + merges.txt and .tiktoken files do not record one; cl100k_base needs gpt4.",
    )
    chosen = None if pattern == AS_RECORDED else pattern
    if files:
        loaded = load_upload([(f.name, f.getvalue()) for f in files], pattern=chosen)
        if loaded.error:
            st.error(f"Could not load {', '.join(loaded.names)}: {loaded.error}")
        else:
            tok = loaded.tokenizer
            st.success(
                f"Loaded {', '.join(loaded.names)}: vocab {tok.vocab_size:,}, {len(tok.merges):,} merges, "
                f"{len(tok.special_tokens)} special tokens, pattern {tok.pretokenizer.name}."
            )
    return TokenizerSpec(kind=UPLOAD)


# --- outputs -------------------------------------------------------------------


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _counts(result: Tokenized) -> None:
    c = result.counts
    cols = st.columns(5)
    cols[0].metric("Characters", f"{c.characters:,}")
    cols[1].metric("Bytes (UTF-8)", f"{c.bytes:,}")
    cols[2].metric("Tokens", "—" if c.tokens is None else f"{c.tokens:,}")
    cols[3].metric("Bytes / token", _fmt(c.bytes_per_token))
    cols[4].metric("Chars / token", _fmt(c.chars_per_token))


def _page_choice(result: Tokenized) -> Page:
    total = len(result.ids)
    pages = max(1, -(-total // PAGE_SIZE))
    if pages == 1:
        return page_of(total, page=1)
    if st.session_state.get(K_PAGE, 1) > pages:
        st.session_state[K_PAGE] = pages
    left, right = st.columns([1, 4])
    number = left.number_input(
        f"Page (of {pages})", min_value=1, max_value=pages, value=1, step=1, key=K_PAGE
    )
    page = page_of(total, page=int(number))
    right.info(
        f"Long text: showing tokens {page.start + 1:,}–{page.stop:,} of {total:,} ({PAGE_SIZE:,} a page). "
        "The counts above cover the whole text."
    )
    return page


def _spans(result: Tokenized, page: Page, *, max_tokens: int = PAGE_SIZE) -> str:
    return token_spans_html(
        result.ids[page.start : page.stop],
        result.vocab,
        special_ids=result.special_ids,
        max_tokens=max_tokens,
    )


def _ids_tab(result: Tokenized, page: Page) -> None:
    ids = result.ids[page.start : page.stop]
    st.caption(f"Token ids {page.start + 1:,}–{page.stop:,} (copy with the button at the top right)")
    st.code(", ".join(map(str, ids)) or "(none)", language=None, wrap_lines=True)
    st.download_button(
        "Download all ids (.txt)",
        data=" ".join(map(str, result.ids)),
        file_name="token_ids.txt",
        mime="text/plain",
        key="pg_dl_ids",
        on_click="ignore",
    )


def _ribbon_tab(text: str, result: Tokenized, page: Page) -> None:
    st.caption(
        "Each column is one byte. Top: the characters; middle: their UTF-8 bytes; bottom: the tokens. "
        "A red striped character is cut by a token boundary: a token ends inside it."
    )
    data = text.encode("utf-8", errors="surrogatepass")[byte_start_of(result, page.start) :]
    large = bool(st.session_state.get(keys.PRESENTER, False))
    st.html(
        byte_ribbon_html(
            data,
            result.ids[page.start : page.stop],
            result.vocab,
            special_ids=result.special_ids,
            line_bytes=RIBBON_LINE_BYTES_LARGE if large else RIBBON_LINE_BYTES,
        )
    )


def _details_tab(picked: Picked, result: Tokenized, page: Page) -> None:
    tok = picked.tokenizer
    if not isinstance(tok, Tokenizer):
        st.info("The character baseline has no merges: each token is one character of its corpus.")
        return
    firsts = first_positions(result.ids[page.start : page.stop], start=page.start)
    options = list(firsts)[:MAX_DETAIL_CHOICES]
    if not options:
        st.info("No tokens to inspect.")
        return
    if st.session_state.get(K_DETAIL) not in options:
        longest = max(options, key=lambda i: (len(result.vocab[i]), -firsts[i]))
        st.session_state[K_DETAIL] = longest
    token_id = st.selectbox(
        "Token (hover a token above for its id; pick it here for its story)",
        options,
        key=K_DETAIL,
        format_func=lambda i: (
            f"{tok.vocab[i].decode('utf-8', 'replace') if i in result.special_ids else _label(tok, i)}"
            f"  · id {i} · first at token {firsts[i] + 1:,}"
        ),
    )
    detail = token_detail(tok, token_id, counts=picked.counts)
    left, right = st.columns([1, 1.3], gap="large")
    with left:
        st.html(
            TOKEN_CSS
            + '<div class="ms-tokens" style="font-size:2.2em;border:none;max-height:none">'
            + token_span(detail.id, detail.token, special=detail.special)
            + "</div>"
            + f'<p style="font-size:1.1em">{describe(detail)}</p>'
        )
        st.dataframe(
            {
                "field": [
                    "id",
                    "readable",
                    "bytes (hex)",
                    "length",
                    "merge step",
                    "pair count then",
                    "later tokens built on it",
                ],
                "value": [
                    str(detail.id),
                    detail.readable,
                    detail.hex,
                    f"{len(detail.token)} bytes",
                    "—" if detail.step is None else str(detail.step),
                    "—" if detail.count is None else f"{detail.count:,}",
                    f"{detail.descendants:,}",
                ],
            },
            hide_index=True,
            width="stretch",
        )
    with right:
        st.markdown("**Genealogy: how it was built, down to bytes**")
        st.html(genealogy_html(genealogy(tok, token_id)))
        st.markdown(f"**Later tokens made directly from it** ({len(detail.children):,})")
        st.html(TOKEN_CSS + DETAIL_CSS + later_tokens_html(tok, list(detail.children)))


def _label(tok: Tokenizer, token_id: int) -> str:
    return screen_label(tok.vocab[token_id])


def _compare_tab(text: str, current: TokenizerSpec, picked: Picked) -> None:
    titles = corpus_titles()
    options = _compare_options(current, titles)
    chosen = st.session_state.get(K_COMPARE)
    if chosen is None:
        chosen = [current.key(), TokenizerSpec(kind=BYTES, pattern="gpt2").key()]
        corpus = current.corpus if current.corpus in titles else default_corpus(titles)
        chosen.append(TokenizerSpec(kind=CHAR, corpus=corpus).key())
        st.session_state[K_COMPARE] = chosen
    for key in st.session_state[K_COMPARE]:
        if key not in options:
            options.append(key)
    labels = {k: TokenizerSpec.parse(k).label(titles=titles) for k in options}
    picked_keys = st.multiselect(
        f"Tokenizers to compare (2 to {MAX_COMPARE})",
        options,
        key=K_COMPARE,
        max_selections=MAX_COMPARE,
        format_func=labels.__getitem__,
        persist_state="session",
    )
    if len(picked_keys) < 2:
        st.info("Pick at least two tokenizers to compare.")
        return
    rows: list[Tokenized] = []
    for key in picked_keys:
        p = picked if key == current.key() else resolve(TokenizerSpec.parse(key))
        r = tokenized(p, text)
        if r is None:
            r = Tokenized(p.label, (), {}, _no_counts(text), 0, error=p.error or "not available")
        rows.append(r)
    table = compare_table(rows)
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        column_config={
            "bytes/token": st.column_config.NumberColumn(format="%.2f"),
            "chars/token": st.column_config.NumberColumn(format="%.2f"),
        },
    )
    chart_data = table.dropna(subset=["tokens"])[["tokenizer", "tokens"]]
    if not chart_data.empty:
        large = bool(st.session_state.get(keys.PRESENTER, False))
        st.altair_chart(compare_chart(chart_data, large=large), width="stretch")
    cols = st.columns(2)
    for n, r in enumerate(rows):
        with cols[n % 2]:
            st.markdown(f"**{r.label}**")
            if r.error:
                st.error(r.error)
            else:
                st.html(_spans(r, page_of(len(r.ids), page=1), max_tokens=COMPARE_SPAN_TOKENS))


def compare_chart(data, *, large: bool = False) -> alt.Chart:
    """Horizontal bars: tokens per tokenizer, fewest on top, the count printed at each bar's end."""
    size = 20 if large else 13
    base = alt.Chart(data).encode(
        y=alt.Y("tokenizer:N", sort="x", title=None, axis=alt.Axis(labelLimit=420, labelFontSize=size)),
        x=alt.X(
            "tokens:Q",
            title="tokens for this text (fewer = better compression)",
            axis=alt.Axis(labelFontSize=size, titleFontSize=size),
        ),
        tooltip=["tokenizer", "tokens"],
    )
    bars = base.mark_bar(color="#e8590c")
    text = base.mark_text(align="left", dx=4, fontSize=size).encode(text="tokens:Q")
    return (bars + text).properties(height=max(120, 48 * len(data)))


def _no_counts(text: str):
    from .playground_core import text_counts

    return text_counts(text, None)


def _compare_options(current: TokenizerSpec, titles: dict[str, str]) -> list[str]:
    opts: list[str] = [current.key()]
    if training_run() is not None:
        opts.append(TokenizerSpec(kind=SESSION).key())
    if st.session_state.get("pg_uploaded") is not None:
        opts.append(TokenizerSpec(kind=UPLOAD).key())
    vocab = current.vocab_size if current.kind == QUICK else DEFAULT_VOCAB
    pattern = current.pattern if current.kind in (QUICK, BYTES) else "gpt2"
    focus = current.corpus if current.corpus in titles else default_corpus(titles)
    for size in sorted({300, vocab, 1000, 2000}):
        opts.append(TokenizerSpec(kind=QUICK, corpus=focus, vocab_size=size, pattern=pattern).key())
    for corpus in titles:
        opts.append(TokenizerSpec(kind=QUICK, corpus=corpus, vocab_size=vocab, pattern=pattern).key())
    opts.append(TokenizerSpec(kind=BYTES, pattern="gpt2").key())
    opts.extend(TokenizerSpec(kind=CHAR, corpus=c).key() for c in titles)
    return list(dict.fromkeys(opts))


def _files_tab(picked: Picked) -> None:
    tok = picked.tokenizer
    if not isinstance(tok, Tokenizer):
        st.info("The character baseline has no file format; pick a BPE tokenizer to download its files.")
        return
    memo = st.session_state.setdefault("pg_bundle_memo", {})
    bundle = memo.get(picked.identity)
    if bundle is None:
        try:
            bundle = tokenizer_bundle(tok)
        except (ValueError, ImportError) as exc:
            st.error(f"Could not write this tokenizer's files: {exc}")
            return
        memo.clear()
        memo[picked.identity] = bundle
    st.caption(
        f"{picked.label}: {len(bundle.files)} files, every format MergeScope writes. "
        "Load them back here (Load tokenizer files), with the CLI, HF tokenizers or tiktoken."
    )
    st.dataframe(
        {"file": sorted(bundle.files), "bytes": [len(bundle.files[n]) for n in sorted(bundle.files)]},
        hide_index=True,
    )
    for note in bundle.notes:
        st.caption(note)
    st.download_button(
        "⬇ Download all formats (.zip)",
        data=bundle.zip_bytes(),
        file_name="mergescope_tokenizer.zip",
        mime="application/zip",
        key="pg_dl_zip",
        type="primary",
        on_click="ignore",
    )


def _share_tab(state: ShareState, text: str) -> None:
    query = urlencode(to_query(state))
    st.caption("The address bar now holds this view: copy it to share. The query part:")
    st.code("?" + query if query else "(nothing to share yet)", language=None, wrap_lines=True)
    if not text_fits(text):
        st.warning(
            f"The text is {len(text):,} characters, over the {MAX_SHARED_CHARS:,} a link carries; "
            "the link keeps the tokenizer and the compare list only."
        )
    if state.spec and state.spec.startswith((SESSION, UPLOAD)):
        st.caption(
            "This tokenizer lives in your session (trained or uploaded here); whoever opens the link "
            "needs to train or upload it too."
        )


# --- the page ------------------------------------------------------------------


def render() -> None:
    st.title("🔤 Playground: paste text, see tokens")
    st.caption(
        "Pick a tokenizer (trained here or on the Train page, loaded from files, or a baseline) and "
        "see exactly how your text splits, byte by byte. Hover a token for its id and bytes."
    )
    _apply_link()
    for note in st.session_state.pop(K_URL_NOTES, []):
        st.warning(f"From the link: {note}")
    text = _text_input()
    with st.container(border=True):
        spec = _picker()
    picked = resolve(spec)
    for note in picked.notes:
        st.caption(note)
    compare_keys = list(st.session_state.get(K_COMPARE) or [])
    if picked.error:
        (st.info if spec.kind in (SESSION, UPLOAD) else st.error)(f"{picked.label}: {picked.error}")
    result = tokenized(picked, text)
    if result is None:
        _write_link(text, spec, compare_keys, 1)
        return
    st.subheader(result.label)
    _counts(result)
    if result.error:
        st.error(f"This tokenizer cannot encode the text: {result.error}")
        unknown = picked.tokenizer.unknown(text) if isinstance(picked.tokenizer, CharTokenizer) else []
        if unknown:
            distinct = sorted({c for _, c in unknown})
            st.caption(
                f"{len(unknown):,} characters ({len(distinct):,} distinct) are not in its vocabulary: "
                + " ".join(f"U+{ord(c):04X}" for c in distinct[:30])
            )
        page = page_of(0, page=1)
    else:
        page = _page_choice(result)
        st.html(_spans(result, page))
    tabs = st.tabs(
        ["🔢 Token ids", "🧬 Byte ribbon", "🔎 Token details", "⚖️ Compare", "💾 Files", "🔗 Share"]
    )
    if not result.error:
        with tabs[0]:
            _ids_tab(result, page)
        with tabs[1]:
            _ribbon_tab(text, result, page)
        with tabs[2]:
            _details_tab(picked, result, page)
    with tabs[3]:
        _compare_tab(text, spec, picked)
    with tabs[4]:
        _files_tab(picked)
    state = _write_link(text, spec, list(st.session_state.get(K_COMPARE) or []), page.number)
    with tabs[5]:
        _share_tab(state, text)
