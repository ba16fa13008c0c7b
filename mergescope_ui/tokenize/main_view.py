"""The Tokenize page's main view: the counts and the text as coloured token spans, a page at a time (a
click opens the Details tab on one), and what WordPiece's and Unigram's round trip loses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.html.schemes import SCHEME_CSS, cuts_html, lost_html
from mergescope_ui.shared.html.tokens import token_spans_html
from mergescope_ui.shared.workers.cache import remember

from . import keys
from .clickable_tokens import clickable_spans_html, clickable_tokens, missing_table
from .encoder_table import EncoderTable, LiveView, browser_encoding, encoder_table
from .live_text import LIVE_BYTES
from .piece_html import PIECE_CSS, clickable_pieces_html, lost_summary
from .resolve import Picked, tokenized
from .results import COUNT_LABELS, PAGE_SIZE, Page, Tokenized, page_of
from .schemes import hooks_named, hooks_of

DETAILS_TAB = "🔎 Details"
MAX_LOST_CHARS = 5000  # characters of the text shown with what is lost marked


@dataclass(frozen=True, slots=True)
class Shown:
    """What the main view shows: the tokenization of the text, the page of it on screen, and a name
    for the pair (tokenizer, text) that a picked position refers to."""

    result: Tokenized
    page: Page
    signature: str = ""


@dataclass(slots=True)
class PickedToken:
    """The token whose details are shown (its position, for ``signature``); ``fresh`` until the Details
    tab has shown it once (then its selectbox may move on)."""

    signature: str
    position: int
    fresh: bool = True


def pick_token(signature: str, position: int) -> None:
    """A click on the token at ``position``: remember it and open the details tab."""
    st.session_state[keys.PICKED] = PickedToken(signature, position)
    st.session_state[keys.TABS] = DETAILS_TAB


def picked_position(shown: Shown) -> int | None:
    """The picked token's position, if it belongs to what is shown now."""
    picked: PickedToken | None = st.session_state.get(keys.PICKED)
    if picked is None or picked.signature != shown.signature or picked.position >= len(shown.result.ids):
        return None
    return picked.position


def choose_token(
    shown: Shown,
    options: list[int],
    *,
    key: str,
    of_position: Callable[[int], int],
    longest: Callable[[int], Any],
    position_of: Callable[[Any], int | None],
    label: Callable[[int], str],
) -> int:
    """The Details tab's selectbox ``key`` over ``options``: the token clicked above (``of_position``,
    taken once per click), else the choice kept, else the ``longest``; a choice here is outlined in the
    text (at ``position_of(choice)``)."""
    clicked = picked_position(shown)
    mark: PickedToken | None = st.session_state.get(keys.PICKED)
    if clicked is not None and mark is not None and (mark.fresh or st.session_state.get(key) is None):
        mark.fresh = False
        choice = of_position(clicked)
        if choice not in options:
            options.append(choice)
        st.session_state[key] = choice
    elif st.session_state.get(key) not in options:
        st.session_state[key] = max(options, key=longest)

    def follow() -> None:
        position = position_of(st.session_state.get(key))
        if position is not None:
            st.session_state[keys.PICKED] = PickedToken(shown.signature, position, fresh=False)

    label_text = "Token (click one in the text above, or pick it here)"
    return st.selectbox(label_text, options, key=key, on_change=follow, format_func=label)


def token_view(picked: Picked, text: str) -> Shown | None:
    """The tokenizer's name, the counts and the spans (or why it cannot encode the text); None without one."""
    specials, marks = switches(picked)
    result = tokenized(picked, text, specials=specials)
    if result is None:
        return None
    st.subheader(md_escape(result.label))
    # Names the ids a picked position points into (special tokens off gives other ids).
    signature = f"{picked.identity}|{digest(text)}" + ("" if specials else "|plain")
    if result.error:
        counts_row(result)
        st.error(f"This tokenizer cannot encode the text: {md_escape(result.error)}")
        tok = picked.tokenizer
        unknown = hooks_of(tok).unknown(tok, text) if tok is not None else []
        if unknown:
            distinct = sorted({c for _, c in unknown})
            st.caption(
                f"{len(unknown):,} characters ({len(distinct):,} distinct) are not in its vocabulary: "
                + " ".join(f"U+{ord(c):04X}" for c in distinct[:30])
            )
        return Shown(result, page_of(0, page=1), signature)
    page = _page_choice(result)
    shown = Shown(result, page, signature)
    pieces = hooks_of(picked.tokenizer).pieces if picked.tokenizer is not None else None
    if pieces is not None:  # WordPiece, Unigram: the pieces as their vocabulary writes them
        st.html(PIECE_CSS)
        spans = clickable_pieces_html(
            result.cuts[page.start : page.stop],
            start=page.start,
            special_ids=result.special_ids,
            scores=pieces.scores(picked.tokenizer),
            marks=marks,
        )
    else:
        spans = clickable_spans_html(
            result.ids[page.start : page.stop],
            result.vocab,
            start=page.start,
            special_ids=result.special_ids,
            marks=marks,
        )
    clickable_tokens(
        spans,
        key=keys.SPANS,
        signature=f"{signature}|{page.number}|{marks}",
        page=page.number,
        picked=picked_position(shown),
        on_pick=lambda position: pick_token(signature, position),
        counts=result.counts,
        live=_live(picked, specials=specials, marks=marks),
    )
    if pieces is not None:
        unknown_metric(result)  # the other counts are drawn with the tokens
        round_trip_view(result, text)
        st.caption(
            f"Click a token for its details: the piece as the vocabulary writes it ({pieces.marks}), "
            "the text it covers, and what an unknown token lost."
        )
    else:
        st.caption("Click a token for its story: the merge that made it, its genealogy, its bytes.")
    return shown


def switches(picked: Picked) -> tuple[bool, bool]:
    """Two switches: special tokens in the text are special (else plain text); whitespace marks shown."""
    with st.container(horizontal=True):
        # WordPiece cuts its special tokens out of the text always (as HF does): no switch for it
        bpe = picked.tokenizer.as_bpe() if picked.tokenizer is not None else None
        has = bpe is not None and bool(bpe.special_tokens)
        specials = st.toggle(
            "Special tokens as special",
            value=True,
            key=keys.SPECIALS,
            disabled=not has,
            help="On: a special token's text (such as <|endoftext|>) in the text is its one id. "
            "Off: it is plain text, cut like any other."
            + ("" if has else " This tokenizer has no special tokens."),
        )
        marks = st.toggle(
            "Show whitespace marks",
            value=True,
            key=keys.MARKS,
            help="On: a space shows as ␣, a newline as ↵, a tab as ⇥ in the tokens.",
        )
    return bool(specials), bool(marks)


def _live(picked: Picked, *, specials: bool, marks: bool) -> LiveView:
    """How the token view follows the typing: with the tokenizer's table when the browser can encode."""
    live = LiveView(box=keys.TEXT_BOX, specials=specials, marks=marks)
    if not browser_encoding():
        return live
    memo: dict[str, EncoderTable | None] = st.session_state.setdefault(keys.TABLE_MEMO, {})
    tok = picked.tokenizer
    table = remember(memo, picked.identity, lambda: encoder_table(tok, key=picked.identity), size=2)
    if table is None:
        return live
    sent: set[str] = st.session_state.setdefault(keys.TABLES_SENT, set())
    first = table.key not in sent or missing_table(keys.SPANS) == table.key
    sent.add(table.key)
    return replace(
        live, table_key=table.key, table=table if first else None, max_tokens=PAGE_SIZE, live_chars=LIVE_BYTES
    )


def counts_row(result: Tokenized) -> None:
    """Characters, bytes, tokens and the two ratios, as a row of metrics that wraps on a phone (the main
    view's counts are drawn with its tokens, by ``live_assets/view.js``)."""
    with st.container(horizontal=True, gap="medium"):
        for name, label in COUNT_LABELS:
            value = getattr(result.counts, name)
            shown = "—" if value is None else f"{value:,}" if isinstance(value, int) else f"{value:.2f}"
            st.metric(label, shown, width="content")
        if result.pieces:
            unknown_metric(result)


def unknown_metric(result: Tokenized) -> None:
    """WordPiece, Unigram: how many tokens are the unknown token, whose text is lost."""
    unknown = result.unknown
    lost = result.loss.unknown_chars if result.loss is not None else None
    st.metric(
        "Unknown tokens",
        "—" if unknown is None else f"{unknown:,}",
        help="Tokens that are the unknown token ([UNK], <unk>): the text they stand for is lost"
        + ("" if lost is None else f" ({lost:,} characters here)."),
        width="content",
    )


def _page_choice(result: Tokenized) -> Page:
    total = len(result.ids)
    pages = page_of(total, page=1).pages
    if pages == 1:
        return page_of(total, page=1)
    if st.session_state.get(keys.PAGE, 1) > pages:
        st.session_state[keys.PAGE] = pages
    left, right = st.columns([1, 4])
    number = left.number_input(
        f"Page (of {pages})", min_value=1, max_value=pages, value=1, step=1, key=keys.PAGE
    )
    page = page_of(total, page=int(number))
    right.info(
        f"Long text: showing tokens {page.start + 1:,}–{page.stop:,} of {total:,} ({PAGE_SIZE:,} a page). "
        "The counts above cover the whole text."
    )
    return page


def spans_html(result: Tokenized, page: Page, *, max_tokens: int = PAGE_SIZE) -> str:
    """The tokens of ``page`` as coloured spans (the first ``max_tokens``; not clickable)."""
    if result.pieces:
        return SCHEME_CSS + cuts_html(result.cuts[page.start : page.stop], css=False, max_tokens=max_tokens)
    return token_spans_html(
        result.ids[page.start : page.stop],
        result.vocab,
        special_ids=result.special_ids,
        max_tokens=max_tokens,
        css=False,
    )


def round_trip_view(result: Tokenized, text: str) -> None:
    """``decode(encode(text))`` and what it lost: the unknown token's words marked in the text."""
    loss = result.loss
    if loss is None or not result.ok:
        return
    summary = lost_summary(
        len(text),
        unknown_chars=loss.unknown_chars,
        unknown_spans=len(loss.unknown),
        spacing=loss.spacing,
        changed=loss.changed,
    )
    name = hooks_named(result.scheme).name
    with st.expander(
        f"Decoded back: {'exact' if loss.round_trip else 'lossy'} ({name})", expanded=not loss.round_trip
    ):
        st.caption(md_escape(summary))
        st.code(loss.decoded[:MAX_LOST_CHARS] or "(empty)", language=None, wrap_lines=True)
        if loss.unknown:
            st.caption("The text, with what became the unknown token marked (dark red):")
            shown = text[:MAX_LOST_CHARS]
            spans = [(a, min(b, len(shown))) for a, b in loss.unknown if a < len(shown)]
            st.html(PIECE_CSS + '<div class="ms-piece-lost">' + lost_html(shown, spans) + "</div>")
        if len(text) > MAX_LOST_CHARS:
            st.caption(f"The first {MAX_LOST_CHARS:,} characters are shown; the counts cover the whole text.")
