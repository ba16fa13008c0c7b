"""Merge order that shows a difference (issue 22 #6): swaps that change the user's text are offered, or
the page says why none exists."""

from __future__ import annotations

import html
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bpe_core import train_steps
from bpe_core.tokenizer.merge_order import competing_pairs, reordered, swapped_order, swaps_that_change
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.train import keys
from mergescope_ui.train.whatif import keys as whatif_keys
from tests.ui.train.stage_driver import send

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"
CORPORA = (
    "low_lowest_newest",
    "low_lower_newest_widest",
    "cat_in_the_hat",
    "lighthouse_story",
    "mixed_scripts",
)


def _page(corpus: str, step: int) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.session_state[keys.SOURCE] = corpus
    at.session_state[whatif_keys.ORDER_ENTRY] = True
    at.switch_page(TRAIN).run()
    send(at, jump=step)
    assert not at.exception, at.exception
    return at


def _text(at: AppTest) -> str:
    return html.unescape(" ".join(h.value for h in at.html))


def test_every_swap_of_merges_that_share_a_token_and_meet_in_the_text_is_offered_iff_it_changes_the_cut():
    for corpus in CORPORA:
        text = (ROOT / "corpora" / f"{corpus}.txt").read_text(encoding="utf-8")[:400]
        data = text.encode("utf-8")
        tok = train_steps(text, vocab_size=256 + 60).run().tokenizer()
        found = swaps_that_change(tok, text, limit=1000, tries=10_000)
        offered = {(c.first, c.second) for c in found.changes}
        n, merges, vocab = len(tok.merges), tok.merges, tok.vocab
        expected = set()
        for i, j, _ in competing_pairs(merges):
            chains = [(x, y) for x, y in ((i, j), (j, i)) if merges[x][1] == merges[y][0]]
            if any(
                vocab[merges[x][0]] + vocab[merges[x][1]] + vocab[merges[y][1]] in data for x, y in chains
            ) and reordered(tok, swapped_order(n, i, j)).encode(text) != tok.encode(text):
                expected.add((i, j))
        assert offered == expected, corpus


def test_the_lesson_offers_swaps_and_one_click_shows_the_difference() -> None:
    at = _page("lighthouse_story", 30)
    buttons = [b for b in at.button if b.key and b.key.startswith(whatif_keys.ORDER_OFFER)]
    assert buttons, _text(at)[-2000:]
    buttons[0].click().run()
    assert not at.exception
    assert at.radio(key=whatif_keys.ORDER_HOW).value == "swap"
    page = _text(at)
    assert "cut differently (outlined)" in page and "The same cut everywhere" not in page


def test_when_no_swap_changes_the_text_the_page_says_why() -> None:
    at = _page("machine_learning_zh", 20)
    assert at.session_state[shared_keys.RUN].position == 20
    page = _text(at)
    assert "No swap of two of these 20 merges that share a token changes this text's cut" in page
