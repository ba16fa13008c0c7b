"""A Vega-Lite spec whose named data sets are already Arrow IPC bytes, to draw with ``st.vega_lite_chart``.

Streamlit sends a chart's data to the browser as Arrow: given rows, it makes a pandas frame of them and
serializes it at every call (17-30 ms for a few hundred rows on this machine, in the session's thread,
holding the interpreter lock the server's other sessions wait for).  A named data set that is bytes
already goes as it is (what Streamlit does with an altair chart's data).  So a spec that many sessions
draw alike (a class on one lesson: the tokens-by-step chart of each step) is converted once, kept in a
shared memo, and each session's call only copies bytes.

>>> spec = arrow_datasets({"mark": "line", "datasets": {"points": [{"step": 0, "tokens": 9}]}})
>>> spec["mark"], rows(spec["datasets"]["points"])
('line', [{'step': 0, 'tokens': 9}])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import pyarrow as pa


def arrow_bytes(records: Sequence[Mapping[str, Any]]) -> bytes:
    """``records`` (rows of one shape) as an Arrow IPC stream, as Streamlit makes it from a pandas frame."""
    table = pa.Table.from_pandas(pd.DataFrame(list(records)))
    sink = pa.BufferOutputStream()
    with pa.RecordBatchStreamWriter(sink, table.schema) as writer:
        writer.write_table(table)
    return bytes(sink.getvalue().to_pybytes())


def arrow_datasets(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``spec`` with each named data set given as rows turned into Arrow IPC bytes."""
    datasets = spec.get("datasets", {})
    if not isinstance(datasets, Mapping):
        raise ValueError("spec['datasets'] must map names to rows; build the spec with its data as a list")
    return {
        **spec,
        "datasets": {
            name: data if isinstance(data, bytes) else arrow_bytes(data) for name, data in datasets.items()
        },
    }


def rows(data: bytes) -> list[dict[str, Any]]:
    """The rows of Arrow IPC bytes (to check what a spec holds)."""
    return pa.ipc.open_stream(data).read_all().to_pylist()
