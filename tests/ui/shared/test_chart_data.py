"""A chart's rows made Arrow once (:mod:`mergescope_ui.shared.chart_data`): the very bytes Streamlit would
make at each draw, and the Train page's tokens-by-step chart sends its step's rows that way."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit import dataframe_util
from streamlit.testing.v1 import AppTest

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.chart_data import arrow_bytes, arrow_datasets, rows
from mergescope_ui.train import details
from mergescope_ui.train.charts import TOKENS_DATA
from tests.ui.train.stage_driver import send

ROOT = Path(__file__).resolve().parents[3]

SHAPES = {
    "counts": [{"step": i, "tokens": 1000 - 3 * i, "current": i == 7} for i in range(300)],
    "text": [{"script": s, "per token": 1.5 + n / 7} for n, s in enumerate(["Latin", "汉字", "😀 emoji"])],
    "one row": [{"size": 257, "ratio": 1.0}],
}


@pytest.mark.parametrize("name", SHAPES)
def test_the_bytes_are_those_streamlit_makes_of_the_rows(name: str) -> None:
    records = SHAPES[name]
    made = arrow_bytes(records)
    assert made == dataframe_util.convert_anything_to_arrow_bytes(records)
    assert rows(made) == records


def test_a_spec_keeps_what_is_not_data_and_bytes_as_they_are() -> None:
    done = arrow_bytes(SHAPES["one row"])
    spec = {"mark": "line", "datasets": {"a": SHAPES["counts"], "b": done}}
    made = arrow_datasets(spec)
    assert made["mark"] == "line" and made["datasets"]["b"] is done
    assert rows(made["datasets"]["a"]) == SHAPES["counts"]
    assert spec["datasets"]["a"] is SHAPES["counts"], "the spec given is not changed"
    with pytest.raises(ValueError, match="must map names to rows"):
        arrow_datasets({"datasets": [1, 2]})


def test_the_train_page_chart_sends_its_step_rows_as_arrow() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page("pages/views/train.py").run()
    send(at, position=3, why={"window": False, "settled": True})
    assert not at.exception, at.exception
    (chart,) = at.get("vega_lite_chart")
    (dataset,) = chart.proto.datasets
    run = at.session_state[shared_keys.RUN]
    tokens = [run.trainer.initial_tokens, *(s.tokens_after for s in run.records[:3])]
    expected = [{"step": k, "tokens": t, "current": k == 3} for k, t in enumerate(tokens)]
    assert dataset.name == TOKENS_DATA and rows(dataset.data.data) == expected
    kept = details.SHARED.get(("chart", run.identity, 3, False), dict)
    assert isinstance(kept["datasets"][TOKENS_DATA], bytes), "made Arrow once, kept for every session"
