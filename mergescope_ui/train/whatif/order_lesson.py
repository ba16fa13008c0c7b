"""The merge-order lesson: the same merges applied in another order cut the same text differently.

First the built-in ``abc`` example (``(a, b) -> ab`` then ``(b, c) -> bc``:
``ab c`` in training order, ``a bc`` the other way), then this run's merges so
far in another order (reversed, shuffled with a seed, or two swapped) on any
text: the tokens under both orders, how many each gives, where they differ,
and that both decode to the same text.  Drawn in an expander whose content is
built only while it is open.

>>> html = abc_lesson_html()  # 6 token spans for the two merges, then ab|c and a|bc
>>> html.count('class="ms-t '), "both decode to abc" in html
(10, True)
"""

from __future__ import annotations

import streamlit as st

from bpe_core import Tokenizer
from bpe_core.analysis.side_by_side import compare_cuts
from bpe_core.tokenizer.merge_order import (
    abc_tokenizer,
    reordered,
    reversed_order,
    shuffled_order,
    swapped_order,
)
from mergescope_ui.shared.blocks import caption_html, heading_html
from mergescope_ui.shared.token_html import token_span
from mergescope_ui.shared.training_run import TrainingRun

from . import keys
from .compare import SequencePair, sequences_html

HOWS: dict[str, str] = {
    "reverse": "reversed: the last merge first",
    "shuffle": "shuffled, with a seed",
    "swap": "two merges swapped",
}
MAX_TEXT = 5_000  # characters tokenized both ways
DEFAULT_TEXT = 200  # characters of the training text offered first


def _spans(tok: Tokenizer, text: str) -> str:
    return "".join(token_span(i, tok.vocab[i]) for i in tok.encode(text))


def abc_lesson_html() -> str:
    """The abc example, computed by the engine: both merges, both cuts, one decoded text."""
    tok = abc_tokenizer()
    other = reordered(tok, reversed_order(len(tok.merges)))
    merges = " &nbsp; ".join(
        f"{n}. {token_span(a, tok.vocab[a])} + {token_span(b, tok.vocab[b])} → {token_span(i, tok.vocab[i])}"
        for n, ((a, b), i) in enumerate(zip(tok.merges, tok.merge_ids), start=1)
    )
    same = tok.decode(tok.encode("abc")) == other.decode(other.encode("abc")) == "abc"
    return (
        heading_html("The classic example: abc")
        + f'<div class="ms-tokens ms-inline">Merges in training order: {merges}</div>'
        + '<div class="ms-split">'
        + f"<div>{caption_html('Training order: (a, b) first')}"
        + f'<div class="ms-tokens ms-inline">{_spans(tok, "abc")}</div></div>'
        + f"<div>{caption_html('The other order: (b, c) first')}"
        + f'<div class="ms-tokens ms-inline">{_spans(other, "abc")}</div></div></div>'
        + caption_html(
            f"Same vocabulary, two cuts: {'both decode to abc' if same else 'they do not decode alike'}. "
            "A model only ever saw the training order's cut, so the order is part of the tokenizer."
        )
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


def order_views(trained: Tokenizer, other: Tokenizer, text: str) -> tuple[SequencePair, bool]:
    """``text`` under both orders (the places cut differently outlined) and whether both decode back to it."""
    ids_trained, ids_other = trained.encode(text), other.encode(text)
    pair = sequences_html(
        ids_trained,
        trained.vocab,
        ids_other,
        other.vocab,
        window_bytes=len(text.encode("utf-8")),
        special_ids=frozenset(trained.special_tokens.values()),
    )
    return pair, compare_cuts(trained, other, text).same_text


def merge_order(run: TrainingRun) -> None:
    """The expander with the lesson, on this run's merges up to the step shown."""
    box = st.expander(
        "🔁 Merge order matters: the same merges, applied in another order",
        key=keys.ORDER_ENTRY,
        on_change="rerun",
    )
    if not box.open:
        return
    with box:
        st.html(abc_lesson_html())
        n = run.position
        st.html(heading_html(f"This run's {n:,} merges in another order"))
        if n < 2:
            st.caption("Step to merge 2 or later: reordering needs at least two merges.")
            return
        how = st.radio(
            "Apply them", list(HOWS), format_func=HOWS.__getitem__, key=keys.ORDER_HOW, horizontal=True
        )
        seed, first, second = 0, 1, n
        if how == "shuffle":
            seed = int(
                st.number_input("Seed", min_value=0, max_value=2**31 - 1, value=0, key=keys.ORDER_SEED)
            )
        elif how == "swap":
            a, b = st.columns(2)
            first = int(
                a.number_input("Swap merge", min_value=1, max_value=n, value=1, key=keys.ORDER_SWAP_A)
            )
            second = int(
                b.number_input("with merge", min_value=1, max_value=n, value=n, key=keys.ORDER_SWAP_B)
            )
        text = st.text_area(
            "Text to tokenize both ways",
            value=run.trainer.preview_text[:DEFAULT_TEXT],
            max_chars=MAX_TEXT,
            key=keys.ORDER_TEXT,
        )
        trained = run.trainer.tokenizer().with_merges(n)
        other = reordered(trained, order_for(how, n, seed=seed, first=first, second=second))
        pair, same = order_views(trained, other, text)
        left, right = st.columns(2, gap="large")
        left.html(heading_html(f"Training order · {pair.real_tokens:,} tokens") + pair.real_html)
        name = {"reverse": "Reversed", "shuffle": f"Shuffled (seed {seed})", "swap": f"{first} ⇄ {second}"}[
            how
        ]
        right.html(heading_html(f"{name} · {pair.alt_tokens:,} tokens") + pair.alt_html)
        where = f"{pair.differing:,} places cut differently (outlined)" if pair.differing else "the same cut"
        decoded = "both decode back to the text ✓" if same else "they do NOT decode to the same text"
        st.html(caption_html(f"{where}; {decoded}; same vocabulary of {len(trained.vocab):,} tokens."))
