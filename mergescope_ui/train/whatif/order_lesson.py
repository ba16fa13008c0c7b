"""The merge-order lesson: the same merges applied in another order cut the same text differently.

First the built-in ``abc`` example (``ab c`` in training order, ``a bc`` the other way), then this run's
merges so far reversed, shuffled or with two swapped, on any text: both cuts side by side from a little
before the first place they differ, and whether both decode to the text.  One screen, as a what-if's
comparison (presenter mode at 1280x720 included).

>>> html = abc_lesson_html()  # 6 token spans for the two merges, then ab|c and a|bc
>>> html.count('class="ms-t '), "both decode to abc" in html
(10, True)
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core import Tokenizer
from bpe_core.analysis import compare_cuts
from bpe_core.bpe import (
    OrderSearch,
    abc_tokenizer,
    reordered,
    reversed_order,
    shuffled_order,
    swapped_order,
    swaps_that_change,
)
from bpe_core.byte_level import readable as label
from mergescope_ui.shared.html.blocks import caption_html
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.html.tokens import token_span
from mergescope_ui.shared.scroll_to import scroll_to
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .compare import SequencePair, labelled, sequences_html

HOWS: dict[str, str] = {"reverse": "reversed", "shuffle": "shuffled", "swap": "two swapped"}
MAX_TEXT = 5_000  # characters tokenized both ways
DEFAULT_TEXT = 200  # characters of the training text offered first
INPUT_WIDTH = 130  # pixels of the seed's and the swapped merges' boxes, beside the choice of order
WINDOW_BYTES = 60  # bytes of the text shown under each order: four lines of a presenter column hold them


def _spans(tok: Tokenizer, text: str) -> str:
    return "".join(token_span(i, tok.vocab[i]) for i in tok.encode(text))


def abc_lesson_html() -> str:
    """The abc example, computed by the engine, on one line: both merges, both cuts, one decoded text."""
    tok = abc_tokenizer()
    other = reordered(tok, reversed_order(len(tok.merges)))
    merges = ", ".join(
        f"{n}. {token_span(a, tok.vocab[a])} + {token_span(b, tok.vocab[b])} → {token_span(i, tok.vocab[i])}"
        for n, ((a, b), i) in enumerate(zip(tok.merges, tok.merge_ids), start=1)
    )
    same = tok.decode(tok.encode("abc")) == other.decode(other.encode("abc")) == "abc"
    decoded = "both decode to abc" if same else "they do not decode alike"
    return (
        '<div class="ms-tokens ms-inline ms-abc"><b>The classic example: abc.</b> '
        f"Merges {merges}. In training order: {_spans(tok, 'abc')} · (b, c) first: "
        f"{_spans(other, 'abc')} · same vocabulary, {decoded}: "
        '<span class="ms-abc-note">a model only ever saw the first cut, so the order is part of the '
        "tokenizer.</span></div>"
    )


def order_for(how: str, n: int, *, seed: int = 0, first: int = 1, second: int = 2) -> list[int]:
    """The order ``how`` names for ``n`` merges (``first``/``second`` are 1-based merge numbers).

    >>> order_for("reverse", 3), order_for("swap", 4, first=1, second=3)
    ([2, 1, 0], [2, 1, 0, 3])
    """
    if how == "reverse":
        return reversed_order(n)
    if how == "shuffle":
        return shuffled_order(n, seed=seed)
    if how == "swap":
        return swapped_order(n, first - 1, second - 1)
    raise ValueError(f"unknown order {how!r}; use one of {', '.join(HOWS)}")


def order_views(
    trained: Tokenizer, other: Tokenizer, text: str, *, from_place: int = 1
) -> tuple[SequencePair, bool]:
    """``text`` under both orders from a little before the ``from_place``-th place they cut differently
    (those places outlined), and whether both decode back to it."""
    ids_trained, ids_other = trained.encode(text), other.encode(text)
    pair = sequences_html(
        ids_trained,
        trained.vocab,
        ids_other,
        other.vocab,
        window_bytes=WINDOW_BYTES,
        special_ids=frozenset(trained.special_tokens.values()),
        from_difference=from_place,
    )
    return pair, compare_cuts(trained, other, text).same_text


def places_line(pair: SequencePair, *, same: bool, vocab_size: int) -> str:
    """The line under both cuts: which places cut differently are shown, whether both decode back, and
    the vocabulary they share.

    >>> pair = SequencePair("", "", 120, 132, differing=12, skipped_bytes=13, shown_from=1, shown_to=3)
    >>> print(places_line(pair, same=True, vocab_size=296).replace(" · ", "\\n"))
    Places 1–3 of 12 cut differently (outlined), the text from byte 13
    both decode back to the text ✓
    same vocabulary of 296 tokens.
    >>> later = SequencePair("", "", 120, 132, differing=12, skipped_bytes=90, shown_from=12, shown_to=12)
    >>> places_line(later, same=True, vocab_size=296).split(" · ")[0]
    'Place 12 of 12 cut differently (outlined), the text from byte 90'
    """
    if not pair.differing:
        where = "The same cut everywhere"
    else:
        one = pair.shown_from == pair.shown_to
        shown = f"Place {pair.shown_from:,}" if one else f"Places {pair.shown_from:,}–{pair.shown_to:,}"
        where = f"{shown} of {pair.differing:,} cut differently (outlined)"
        if pair.skipped_bytes:
            where += f", the text from byte {pair.skipped_bytes:,}"
    decoded = "both decode back to the text ✓" if same else "they do NOT decode to the same text"
    return f"{where} · {decoded} · same vocabulary of {vocab_size:,} tokens."


def _opened() -> None:
    """The merge-order section was opened or closed: when opened, the next run brings it into view."""
    if st.session_state.get(keys.ORDER_ENTRY):
        count = st.session_state.get(keys.ORDER_OPENED, 0) + 1
        st.session_state[keys.ORDER_OPENED] = st.session_state[keys.ORDER_JUST_OPENED] = count


def merge_order(run: TrainingRun) -> None:
    """The expander with the lesson, on this run's merges up to the step shown."""
    title = "🔁 Merge order matters: the same merges, applied in another order"
    box = st.expander(title, key=keys.ORDER_ENTRY, on_change=_opened)
    if not box.open:
        return
    with box:
        _lesson(run)
        opened = st.session_state.pop(keys.ORDER_JUST_OPENED, None)
        if opened is not None:  # opened just now: it comes into view (after what it holds is drawn)
            scroll_to(f".st-key-{keys.ORDER_ENTRY}", key=keys.ORDER_SCROLLER, serial=opened)


def _lesson(run: TrainingRun) -> None:
    """What the section holds: abc, then this run's merges in another order."""
    st.html(abc_lesson_html())
    n = run.position
    if n < 2:
        st.caption("Step to merge 2 or later: reordering needs at least two merges.")
        return
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    asked_how = f"This run's {n:,} merges, applied in another order:"
    how = row.radio(asked_how, list(HOWS), format_func=HOWS.__getitem__, key=keys.ORDER_HOW, horizontal=True)
    seed, first, second = _order_inputs(how, n, row)
    tip = "The text tokenized both ways (the training text's start unless you change it)"
    with row.popover("✏️ Text", help=tip):
        head = run.trainer.preview_text[:DEFAULT_TEXT]
        text = st.text_area("Text to tokenize both ways", value=head, max_chars=MAX_TEXT, key=keys.ORDER_TEXT)
    trained = run.trainer.tokenizer().with_merges(n)
    _offers(trained, text, row)
    other = reordered(trained, order_for(how, n, seed=seed, first=first, second=second))
    asked = (n, how, seed, first, second, text)  # the place shown first: back to 1 when any changes
    saved = st.session_state.get(keys.ORDER_PLACE)
    pair, same = order_views(trained, other, text, from_place=saved[1] if saved and saved[0] == asked else 1)
    left, right = st.columns(2, gap="large")
    names = {"reverse": "Reversed", "shuffle": f"Shuffled (seed {seed})", "swap": f"{first} ⇄ {second}"}
    for column, title, spans in (
        (left, f"Training order · {pair.real_tokens:,} tokens", pair.real_html),
        (right, f"{names[how]} · {pair.alt_tokens:,} tokens", pair.alt_html),
    ):
        column.html(f'<div class="ms-order">{labelled(spans, title)}</div>')
    _places_row(pair, asked, same=same, vocab_size=len(trained.vocab))


def _order_inputs(how: str, n: int, row: DeltaGenerator) -> tuple[int, int, int]:
    """The shuffle's seed or the two merges swapped, in ``row`` beside the choice of order."""
    seed, first, second = 0, 1, n
    if how == "shuffle":
        seed = int(row.number_input("Seed", min_value=0, max_value=2**31 - 1, value=0, key=keys.ORDER_SEED))
    elif how == "swap":
        first, second = (
            int(row.number_input(name, min_value=1, max_value=n, value=value, key=key, width=INPUT_WIDTH))
            for name, value, key in (
                ("Swap merge", 1, keys.ORDER_SWAP_A),
                ("with merge", n, keys.ORDER_SWAP_B),
            )
        )
    return seed, first, second


def _places_row(pair: SequencePair, asked: tuple[object, ...], *, same: bool, vocab_size: int) -> None:
    """The buttons to the earlier and the later places cut differently, and the line that says which are
    shown (one line under both cuts)."""

    def show(place: int) -> None:
        st.session_state[keys.ORDER_PLACE] = (asked, place)

    row = st.container(horizontal=True, vertical_alignment="center", gap="small", wrap=False)
    page = max(1, pair.shown_to - pair.shown_from + 1)
    for name, key, which, disabled, place in (
        ("◀ Earlier", keys.ORDER_EARLIER, "earlier", pair.shown_from <= 1, max(1, pair.shown_from - page)),
        ("Later ▶", keys.ORDER_LATER, "later", pair.shown_to >= pair.differing, pair.shown_to + 1),
    ):
        tip = f"The {which} places where the two orders cut differently"
        row.button(name, key=key, help=tip, disabled=disabled, on_click=show, args=(place,))
    line = places_line(pair, same=same, vocab_size=vocab_size)
    row.html(f'<div class="ms-whatif-key">{caption_html(line)}</div>', width="stretch")


def none_reason(search: OrderSearch, *, merges: int) -> str:
    """Why no swap of two merges changes the text's cut (plain text, for a caption).

    >>> print(none_reason(OrderSearch(changes=(), sharing=0, meeting=0, tried=0), merges=12))
    No swap of two of these 12 merges that share a token changes this text's cut: two merges can only \
compete for a place when they share a token, as a + b and b + c share b in abc, and no two of these do.
    >>> none_reason(OrderSearch(changes=(), sharing=4, meeting=0, tried=0), merges=15).split(": ")[1][:59]
    '4 pairs of merges share a token, but their three tokens nev'
    >>> none_reason(OrderSearch(changes=(), sharing=1, meeting=0, tried=0), merges=20).split(": ")[1][:30]
    '1 pair of merges shares a toke'
    """
    head = f"No swap of two of these {merges:,} merges that share a token changes this text's cut"
    if not search.sharing:
        return (
            f"{head}: two merges can only compete for a place when they share a token, as a + b and b + c "
            "share b in abc, and no two of these do."
        )
    if not search.meeting:
        pairs = (
            "1 pair of merges shares" if search.sharing == 1 else f"{search.sharing:,} pairs of merges share"
        )
        return (
            f"{head}: {pairs} a token, but their three tokens never meet in this text; try a text with one "
            "of them."
        )
    meet = (
        "1 pair of merges that shares a token meets"
        if search.meeting == 1
        else f"{search.meeting:,} pairs of merges that share a token meet"
    )
    return (
        f"{head}: where the {meet} in it, one of the "
        "two cannot apply first (a token it needs is made by the other, or a third merge decides), so "
        "either order gives the same tokens."
        + (f" (The first {search.tried:,} were tried.)" if search.tried < search.meeting else "")
    )


def _offers(trained: Tokenizer, text: str, row: DeltaGenerator) -> None:
    """The swaps that change this text's cut, one click each, or why there are none: in a popover in
    ``row`` (beside the choice of order) whose label says which, so the lesson stays one screen."""
    search = swaps_that_change(trained, text)
    if not search.changes:
        with row.popover("⇄ Swaps: why none?", help="Why no swap of two merges changes this text's cut"):
            st.html(caption_html(none_reason(search, merges=len(trained.merges))))
        return

    def pick(first: int, second: int) -> None:
        st.session_state.update({keys.ORDER_HOW: "swap", keys.ORDER_SWAP_A: first, keys.ORDER_SWAP_B: second})

    count = len(search.changes)
    said = "1 swap of two merges changes" if count == 1 else f"{count:,} swaps of two merges change"
    with row.popover(f"⇄ Swaps ({count:,})", help=f"{said} this text's cut: one click shows it"):
        st.html(caption_html("Swaps that change this text's cut (two merges that share a token):"))
        for n, change in enumerate(search.changes):
            a, b = change.first + 1, change.second + 1
            places = "place" if change.stretches == 1 else "places"
            shared = md_escape(label(trained.vocab[change.shared]), limit=12)
            st.button(
                f"⇄ {a} and {b} · {change.stretches} {places}",
                key=f"{keys.ORDER_OFFER}{n}",
                help=f"Merges {a} and {b} share the token {shared}: swapped, they cut this text differently.",
                on_click=pick,
                args=(a, b),
            )
