"""The Tokenize page's tabs (user text only reaches the page escaped: ``st.html``, ``st.code``, tables)."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from bpe_core import SchemeTokenizer
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.workers.cache import remember

from . import keys
from .assets import style
from .chat import chat_tab
from .compare_tab import compare_tab
from .decode_box import decode_box
from .details import details_tab, piece_details_tab
from .file_bundle import tokenizer_bundle
from .health_view import health_tab
from .link import write_link
from .main_view import DETAILS_TAB, Shown
from .resolve import Picked
from .results import Page, Tokenized, byte_start_of
from .ribbon import byte_ribbon_html
from .schemes import HOOKS, hooks_of
from .screen import presenting
from .share import MAX_SHARED_CHARS, ShareState, text_fits, to_query
from .specs import parse
from .split_patterns import split_patterns_view
from .watch_encode_view import encode_tab

RIBBON_LINE_BYTES = 24  # bytes a ribbon line holds before it may break (fits a 1400 px window)
RIBBON_LINE_BYTES_LARGE = 10  # in presenter mode (fits a 1400 px window at the large font)
WATCH_TAB = "🎬 Watch it encode"
TAB_NAMES = [
    "🔢 Token ids",
    "🧬 Byte ribbon",
    WATCH_TAB,
    DETAILS_TAB,
    "⚖️ Compare",
    "💬 Chat",
    "💾 Files",
    "🔗 Share",
    "🩺 Health",
]
# Presenter mode: the tab row wraps onto a second line instead of scrolling labels out of sight.  The ids
# fill their box (on a phone the space at a line's end would hang out of it).
TABS_CSS = style("tabs.css")


def tabs(text: str, picked: Picked, shown: Shown) -> None:
    """The nine tabs, each drawn only while open (ids, ribbon, details need the text encoded); the link."""
    result, page = shown.result, shown.page
    st.html(TABS_CSS)
    ids, ribbon, watch, details, compare, chat, files, share, checkup = st.tabs(
        TAB_NAMES, key=keys.TABS, on_change="rerun"
    )
    if ids.open and not result.error:
        with ids:
            _ids_tab(result, page, picked.tokenizer)
    if ribbon.open and not result.error:
        with ribbon:
            if result.pieces:
                st.info(
                    "WordPiece and Unigram cut between characters, never inside one: their tokens are "
                    "pieces of text, not bytes, so there is no byte ribbon to show. The counts above give "
                    "bytes per token; the Details tab shows what each token covers."
                )
            else:
                _ribbon_tab(text, result, page)
    if watch.open:
        with watch:
            encode_tab(text, picked, specials=bool(st.session_state.get(keys.SPECIALS, True)))
    if details.open and not result.error:
        with details:
            if result.pieces and picked.tokenizer is not None:
                piece_details_tab(picked.tokenizer, shown)
            else:
                details_tab(picked, shown)
    if compare.open:
        with compare:
            compare_tab(text, picked)
            split_patterns_view(text)
    if chat.open:
        with chat:
            chat_tab(picked)
    if files.open:
        with files:
            _files_tab(picked)
    state = write_link(text, picked.spec, page=page.number)
    if share.open:
        with share:
            _share_tab(state, text)
    if checkup.open:
        with checkup:
            health_tab(picked, shown)


def _ids_tab(result: Tokenized, page: Page, tok: SchemeTokenizer | None) -> None:
    ids = result.ids[page.start : page.stop]
    st.caption(f"Token ids {page.start + 1:,}–{page.stop:,} (copy with the button at the top right)")
    st.code(", ".join(map(str, ids)) or "(none)", language=None, wrap_lines=True)
    st.download_button(
        "Download all ids (.txt)",
        data=" ".join(map(str, result.ids)),
        file_name="token_ids.txt",
        mime="text/plain",
        key=keys.DOWNLOAD_IDS,
        on_click="ignore",
    )
    decode_box(result, tok=tok)


def _ribbon_tab(text: str, result: Tokenized, page: Page) -> None:
    st.caption(
        "Each column is one byte. Top: the characters; middle: their UTF-8 bytes; bottom: the tokens. "
        "A red striped character is cut by a token boundary: a token ends inside it."
    )
    data = text.encode("utf-8", errors="surrogatepass")[byte_start_of(result, page.start) :]
    st.html(
        byte_ribbon_html(
            data,
            result.ids[page.start : page.stop],
            result.vocab,
            special_ids=result.special_ids,
            line_bytes=RIBBON_LINE_BYTES_LARGE if presenting() else RIBBON_LINE_BYTES,
        )
    )


def _files_tab(picked: Picked) -> None:
    tok = picked.tokenizer
    bpe = tok.as_bpe() if tok is not None else None
    if bpe is None:  # no files to write: say why (no tokenizer: as for the character baseline)
        hooks = hooks_of(tok) if tok is not None else HOOKS["char"]
        st.info(hooks.no_files)
        return
    memo = st.session_state.setdefault(keys.BUNDLE_MEMO, {})
    try:
        bundle = remember(memo, picked.identity, lambda: tokenizer_bundle(bpe), size=1)
    except ValueError as exc:
        st.error(f"Could not write this tokenizer's files: {md_escape(exc)}")
        return
    st.caption(
        f"{md_escape(picked.label)}: {len(bundle.files)} files, every format MergeScope writes. "
        "Load them back here (Load tokenizer files), with the CLI, HF tokenizers or tiktoken."
    )
    st.dataframe(
        {"file": sorted(bundle.files), "bytes": [len(bundle.files[n]) for n in sorted(bundle.files)]},
        hide_index=True,
    )
    for note in bundle.notes:
        st.caption(md_escape(note))
    st.download_button(
        "⬇ Download all formats (.zip)",
        data=bundle.zip_bytes(),
        file_name="mergescope_tokenizer.zip",
        mime="application/zip",
        key=keys.DOWNLOAD_ZIP,
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
    if state.spec and parse(state.spec).in_session:
        st.caption(
            "This tokenizer lives in your session (trained or uploaded here); whoever opens the link "
            "needs to train or upload it too."
        )
