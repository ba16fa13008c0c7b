"""Pair tables, merge tables and the altair charts built from real engine steps."""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path

import altair as alt
import pandas as pd
import pytest

import bpe_core
from mergescope_ui.train.charts import TOKENS_DATA, tokens_line_spec
from mergescope_ui.train.pair_bars import pair_bars_html
from mergescope_ui.train.tables import (
    crosses_word_boundary,
    longest_tokens,
    merges_csv,
    merges_table,
    pair_table,
    tokens_by_step,
)


def _steps(text: str, merges: int, **options) -> list[bpe_core.MergeStep]:
    return list(bpe_core.train_steps(text, vocab_size=256 + merges, **options))


def _tied_step() -> bpe_core.MergeStep:
    for step in _steps("the cat in the hat", 10, pattern="none"):
        if step.tied:
            return step
    raise AssertionError("expected a tie in 'the cat in the hat'")


def test_pair_table_flags_the_chosen_pair_and_ties() -> None:
    step = _tied_step()
    table = pair_table(step)
    chosen = table[table["chosen"]]
    assert len(chosen) == 1
    assert tuple(chosen[["left_id", "right_id"]].iloc[0]) == step.pair
    assert table["count"].iloc[0] == step.count
    tied = {(r.left_id, r.right_id) for r in table.itertuples() if r.tied}
    assert tied == set(step.ties) - {step.pair}
    assert list(table["count"]) == sorted(table["count"], reverse=True)
    assert set(table["status"]) <= {"chosen", "tied", "other"}


def test_the_whole_pair_table_flags_every_tie_when_the_record_names_only_the_first() -> None:
    """#28: a record keeps the first ties_kept(top_k) tied pairs and counts them all (tie_count)."""
    text = "".join(chr(33 + (i * 7919) % 94) + chr(33 + (i * 104729) % 89) for i in range(400))
    trainer = bpe_core.train_steps(text, vocab_size=256 + 40, pattern="none", top_k=3)
    step = next(s for s in trainer if s.tie_count > len(s.ties))
    table = pair_table(step, trainer.pair_table(step.index))
    assert int(table["tied"].sum()) == step.tie_count - 1 and len(table) >= step.tie_count > len(step.ties)


def test_pair_labels_stay_unique_for_charting() -> None:
    for step in _steps("aaaa bbbb aaaa", 5, pattern="none"):
        assert pair_table(step)["pair"].is_unique


@pytest.mark.parametrize(
    ("token", "crosses"),
    [
        (b"e ", True),
        (b"the ", True),
        (b"a b", True),
        (b" the", False),
        (b"the", False),
        (b"  ", False),
        (b".\n", True),
    ],
)
def test_crosses_word_boundary(token: bytes, crosses: bool) -> None:
    assert crosses_word_boundary(token) is crosses


def test_pre_tokenization_prevents_word_crossing_tokens() -> None:
    text = "the cat sat on the mat. the end. " * 20
    none = merges_table(_steps(text, 30, pattern="none"))
    gpt2 = merges_table(_steps(text, 30, pattern="gpt2"))
    assert none["crosses_words"].any()
    assert not gpt2["crosses_words"].any()


def test_merges_table_longest_and_csv_agree_with_the_steps() -> None:
    steps = _steps(Path("corpora/lighthouse_story.txt").read_text(encoding="utf-8"), 40)
    table = merges_table(steps)
    assert list(table["step"]) == [s.index for s in steps]
    assert list(table["id"]) == [s.new_id for s in steps]
    longest = longest_tokens(steps, n=5)
    assert list(longest["bytes"]) == sorted((len(s.token) for s in steps), reverse=True)[:5]
    assert list(longest["step"]) == [
        s.index for s in sorted(steps, key=lambda s: (-len(s.token), s.index))[:5]
    ]
    assert list(longest.index) == [0, 1, 2, 3, 4]
    assert list(longest_tokens([], n=3).columns) == ["step", "token", "id", "bytes", "crosses_words"]
    back = pd.read_csv(io.BytesIO(merges_csv(steps)), keep_default_na=False)
    assert [bytes.fromhex(h) for h in back["token_hex"]] == [s.token for s in steps]
    assert list(back["replaced"]) == [s.replaced for s in steps]


def test_tokens_by_step_starts_at_the_raw_bytes() -> None:
    trainer = bpe_core.train_steps("aaabdaaabac", vocab_size=260, pattern="none")
    steps = list(trainer)
    series = tokens_by_step(trainer.initial_tokens, steps)
    assert series["tokens"].iloc[0] == 11
    assert list(series["tokens"].iloc[1:]) == [s.tokens_after for s in steps]


def test_pair_bars_mark_the_chosen_and_tied_pairs_in_winner_order() -> None:
    step = _tied_step()
    table = pair_table(step)
    bars = pair_bars_html(step)
    statuses = re.findall(r'<div class="ms-bar ms-(\w+)"', bars)
    assert statuses == list(table["status"].head(8))
    widths = [float(w) for w in re.findall(r'style="width:([0-9.]+)%"', bars)]
    assert widths[0] == 100.0 and widths == sorted(widths, reverse=True)
    assert f'>{step.count} ◀<span class="ms-bar-w"> merged</span></span>' in bars
    assert bars.count(f">{step.count} tie</span>") == len(step.ties) - 1
    quiet = pair_bars_html(step, name_winner=False)
    assert "ms-chosen" not in quiet and "merged" not in quiet and "Pair counts now" in quiet


def test_pair_bars_shorten_long_tokens_and_escape_them() -> None:
    steps = _steps("<b>low low low low lower</b> " * 6, 40, pattern="none")
    longest = max(steps, key=lambda s: len(s.token))
    bars = pair_bars_html(longest)
    assert "<b>" not in bars and "&lt;b" in bars
    # Each half in its own box (so a narrow column shortens both and keeps the +), the whole under 17.
    rows = re.findall(r'<span class="ms-bar-l">((?:<span[^>]*>[^<]*</span>)*)</span>', bars)
    halves = [re.findall(r"<span(?: class=\"([\w-]+)\")?>([^<]*)</span>", row) for row in rows]
    assert rows and all([c for c, _ in h] == ["", "ms-bar-op", ""] for h in halves)
    labels = [html.unescape("".join(text for _, text in h)) for h in halves]
    assert all(" + " in label and len(label) <= 2 * 7 + 3 for label in labels)
    assert any("…" in label for label in labels)


def test_tokens_chart_spec_marks_the_current_step_and_draws_on_a_canvas() -> None:
    series = pd.DataFrame({"step": [0, 1, 2], "tokens": [10, 8, 7]})
    line = tokens_line_spec(series, current_step=1)
    assert [r["current"] for r in line["datasets"][TOKENS_DATA]] == [False, True, False]
    alt.LayerChart.from_dict(line)  # raises if the template plus data is not a valid layer chart
    assert line["usermeta"] == {"embedOptions": {"renderer": "canvas"}}
    with pytest.raises(ValueError, match="tokens_by_step"):
        tokens_line_spec(pd.DataFrame({"x": [1]}), current_step=0)
    assert json.dumps(tokens_line_spec(series, current_step=2, large=True))  # presenter size builds too
