"""Every count on the Train page is true (issue 22 #4): how many pairs there are, and why training stopped."""

from __future__ import annotations

import html
import re
from itertools import pairwise
from pathlib import Path

from bpe_core import train_steps
from bpe_core.training import STOP_NO_PAIRS, STOP_NO_PAIRS_IN_CHUNKS
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.train import keys
from tests.ui.train.stage_driver import send, stage_data, step_through, view
from tests.ui.train.train_page import open_train

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"
MANY_PAIRS = "the quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. " * 2


def _by_hand(text: str, step: int) -> int:
    """Distinct adjacent pairs before merge ``step`` (pattern none: one chunk), counted from the merges."""
    ids = list(text.encode("utf-8"))
    run = train_steps(text, vocab_size=256 + step, pattern="none", tie_break="lowest-id").run()
    merges = run.merges[: step - 1]
    for n, pair in enumerate(merges):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(256 + n)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return len(set(pairwise(ids)))


def test_the_page_says_top_k_of_all_pairs_and_shows_them_all_on_demand() -> None:
    at = open_train(
        **{
            keys.SOURCE: keys.PASTE,
            keys.PASTED_TEXT: MANY_PAIRS,
            keys.PATTERN: "none",
            keys.TIE_BREAK: "lowest-id",
        }
    )
    step_through(at, 1, 2)
    step = at.session_state[shared_keys.RUN].current
    counted = _by_hand(MANY_PAIRS, 2)
    assert step.distinct_pairs == counted > 20
    headings = " ".join(h.value for h in at.html)
    assert f"Top 20 of {counted:,} pairs counted before merge 2" in headings
    assert "All 20 pairs" not in headings
    bars = html.unescape(view(at, 2)["pairs"])
    assert f"Top 8 of {counted:,} pairs" in bars
    at.toggle(key=keys.ALL_PAIRS).set_value(True).run()
    assert not at.exception
    (table,) = [d.value for d in at.dataframe if "count" in d.value.columns]
    assert len(table) == counted and table["count"].is_monotonic_decreasing
    assert f"All {counted:,} pairs counted before merge 2" in " ".join(h.value for h in at.html)


def test_every_tie_count_on_the_card_agrees_with_the_pairs_counted() -> None:
    at = open_train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: MANY_PAIRS, keys.PATTERN: "none"})
    step_through(at, 1)
    step = at.session_state[shared_keys.RUN].current
    card = html.unescape(re.sub("<[^>]+>", "", view(at, 1)["card"]))
    if step.tied:
        more = re.search(r"and (\d+) more", card)
        named = card.split("Tie at", 1)[1].split(":", 1)[0].count("+")
        assert (int(more.group(1)) if more else 0) + named + 1 == step.tie_count <= step.distinct_pairs


def test_a_gpt2_run_that_runs_out_says_pairs_across_chunks_are_never_counted() -> None:
    at = open_train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: "ab ab ab", keys.PATTERN: "gpt2"})
    send(at, jump=50)
    run = at.session_state[shared_keys.RUN]
    assert run.stop_reason == STOP_NO_PAIRS_IN_CHUNKS
    said = stage_data(at)["notice"] + stage_data(at)["wording"]["finished"]
    assert "pairs across chunks" in said and "never counted" in said
    one = open_train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: "abab", keys.PATTERN: "none"})
    send(one, jump=50)
    assert one.session_state[shared_keys.RUN].stop_reason == STOP_NO_PAIRS  # one chunk: one token at the end
