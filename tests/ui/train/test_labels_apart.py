"""Labels that tell tokens apart (issue 22 #5): card, pair chart and tables of the Sennrich corpus."""

from __future__ import annotations

import html
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bpe_core import train_steps
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.train import keys
from mergescope_ui.train.cards import merge_card_html
from mergescope_ui.train.pair_bars import pair_bars_html
from tests.ui.train.stage_driver import send, view

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"
CLASSIC = (ROOT / "corpora" / "low_lower_newest_widest.txt").read_text(encoding="utf-8")
SPAN = re.compile(r"<span class=\"ms-t [^\"]*\" title=\"[^\"]*\">([^<]*)</span>")


def _card_labels(card: str) -> list[str]:
    tokens = card.split('<div class="ms-tokens', 1)[1].split("</div>", 1)[0]
    tokens = re.sub(r'<span class="ms-sr">[^<]*</span>', "", tokens)  # the words a screen reader hears
    tokens = re.sub(r'<span aria-hidden="true">([^<]*)</span>', r"\1", tokens)
    return [html.unescape(t) for t in SPAN.findall(tokens)]


def test_every_card_of_the_classic_corpus_tells_its_three_tokens_apart() -> None:
    for tie_break in ("lexicographic", "lowest-id"):
        for step in train_steps(CLASSIC, vocab_size=256 + 40, pattern="none", tie_break=tie_break):
            left, right, made = _card_labels(merge_card_html(step))
            assert made not in (left, right), (step.index, left, right, made)
            assert (left == right) == (step.left == step.right), (step.index, left, right)
            bars = html.unescape(pair_bars_html(step))
            for row in re.findall(r'<span class="ms-bar-l">(.*?)</span><span class="ms-bar-t">', bars):
                halves = re.findall(r"<span>([^<]*)</span>", row)
                assert len(halves) == 2


def test_step_15_on_the_page_and_the_plus_in_every_pair_cell() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.session_state[keys.SOURCE] = "low_lower_newest_widest"
    at.session_state[keys.PATTERN] = "none"
    at.session_state[keys.TIE_BREAK] = "lexicographic"
    at.switch_page(TRAIN).run()
    send(at, jump=15)
    assert at.session_state[shared_keys.RUN].position == 15
    left, right, made = _card_labels(view(at, 15)["card"])
    step = at.session_state[shared_keys.RUN].records[14]
    assert made not in (left, right) and (left == right) == (step.left == step.right), (left, right, made)
    (table,) = [h.value for h in at.html if "pairs counted before merge 15" in h.value]
    rows = re.findall(r"<tr class=\"ms-\w+\">(.*?)</tr>", table)
    assert rows
    for row in rows:
        pair = html.unescape(re.sub("<[^>]+>", "", re.findall(r"<td[^>]*>(.*?)</td>", row)[1]))
        assert " + " in pair, pair
