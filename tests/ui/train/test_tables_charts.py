"""Pair tables, merge tables and the altair charts built from real engine steps."""

from __future__ import annotations

import io
import json
from pathlib import Path

import altair as alt
import pandas as pd
import pytest

import bpe_core
from mergescope_ui.train.charts import (
    PAIRS_DATA,
    STATUS_COLORS,
    TOKENS_DATA,
    pair_count_spec,
    tokens_line_spec,
)
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


def test_pair_chart_highlights_the_chosen_pair_in_winner_order() -> None:
    step = _tied_step()
    table = pair_table(step)
    spec = pair_count_spec(table)
    data = pd.DataFrame(spec["datasets"][PAIRS_DATA])
    assert (
        data.loc[data["status"] == "chosen", "pair"].tolist() == table.loc[table["chosen"], "pair"].tolist()
    )
    assert list(data.sort_values("rank")["pair"]) == table["pair"].tolist()
    by_rank = {"field": "rank", "op": "min", "order": "ascending"}  # kept by Vega-Lite across the two layers
    assert all(layer["encoding"]["y"]["sort"] == by_rank for layer in spec["layer"])
    assert spec["layer"][0]["encoding"]["color"]["scale"]["range"] == STATUS_COLORS
    marks = dict(zip(data["pair"], data["label"]))
    assert marks[table.loc[table["chosen"], "pair"].iloc[0]] == f"{step.count} ← merged"
    assert all(marks[p] == f"{step.count} tie" for p in table.loc[table["tied"], "pair"])


def test_pair_chart_spec_without_its_data_is_the_same_at_every_step() -> None:
    # The browser then only swaps the data of the drawn chart instead of building a new view.
    steps = _steps("low low low low low lowest lowest newest newest newest", 4, pattern="none")
    specs = [pair_count_spec(pair_table(s)) for s in steps]
    assert (
        len(
            {json.dumps({k: v for k, v in spec.items() if k != "datasets"}, sort_keys=True) for spec in specs}
        )
        == 1
    )
    assert len({json.dumps(spec["datasets"], sort_keys=True) for spec in specs}) == len(specs)


def test_specs_are_valid_vega_lite_and_do_not_share_data() -> None:
    table = pair_table(_tied_step())
    first = pair_count_spec(table)
    second = pair_count_spec(table.head(2))
    assert len(first["datasets"][PAIRS_DATA]) == len(table) and len(second["datasets"][PAIRS_DATA]) == 2
    alt.LayerChart.from_dict(first)  # raises if the template plus data is not a valid layer chart
    series = pd.DataFrame({"step": [0, 1, 2], "tokens": [10, 8, 7]})
    line = tokens_line_spec(series, current_step=1)
    assert [r["current"] for r in line["datasets"][TOKENS_DATA]] == [False, True, False]
    alt.LayerChart.from_dict(line)


def test_charts_draw_on_a_canvas() -> None:
    # An SVG chart is hundreds of nodes the browser restyles and repaints at every step.
    table = pair_table(_tied_step())
    series = pd.DataFrame({"step": [0, 1], "tokens": [10, 8]})
    for spec in (
        pair_count_spec(table),
        pair_count_spec(table, large=True),
        tokens_line_spec(series, current_step=1),
    ):
        assert spec["usermeta"] == {"embedOptions": {"renderer": "canvas"}}


def test_charts_reject_tables_without_their_columns() -> None:
    with pytest.raises(ValueError, match="pair_table"):
        pair_count_spec(pd.DataFrame({"pair": ["a"]}))
    with pytest.raises(ValueError, match="tokens_by_step"):
        tokens_line_spec(pd.DataFrame({"x": [1]}), current_step=0)


def test_presenter_charts_use_larger_fonts() -> None:
    table = pair_table(_tied_step())
    small = pair_count_spec(table)["layer"][0]["encoding"]["y"]["axis"]["labelFontSize"]
    large = pair_count_spec(table, large=True)["layer"][0]["encoding"]["y"]["axis"]["labelFontSize"]
    assert large > small
