"""The stage's contract: the records in Python and the JSDoc typedef at the top of stage.js name the same
fields, and what goes to the browser is exactly those fields.

The typedef is read from the JavaScript source (no JavaScript runs): each ``@typedef {{...}} Name`` is a
type literal whose field names are compared with ``dataclasses.fields`` of the record of that name.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from pathlib import Path

import pytest

from bpe_core import Trainer, TrainOptions
from mergescope_ui.shared.stage import contract as stage_contract
from mergescope_ui.shared.stage.contract import MARKS, RECORDS, Span, wire
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.train.stage_data import StageViews

ROOT = Path(__file__).resolve().parents[3]
JS = (ROOT / "mergescope_ui" / "shared" / "stage" / "assets" / "stage.js").read_text(encoding="utf-8")


def _typedef_block(js: str) -> str:
    """The first JSDoc comment holding a @typedef, without its leading asterisks."""
    match = re.search(r"/\*\*((?:(?!\*/).)*@typedef(?:(?!\*/).)*)\*/", js, re.S)
    assert match, "stage.js opens with a JSDoc block of @typedef lines"
    return " ".join(line.strip().lstrip("*").strip() for line in match.group(1).splitlines())


def _top_level_names(literal: str) -> list[str]:
    """The field names of a type literal's body ``a: T, b: {c: U}`` (nested braces skipped)."""
    names, depth = [], 0
    for token in re.finditer(r"[{}]|(\w+)\s*:", literal):
        if token.group(0) == "{":
            depth += 1
        elif token.group(0) == "}":
            depth -= 1
        elif depth == 0:
            names.append(token.group(1))
    return names


def typedefs(js: str) -> dict[str, list[str] | str]:
    """Name -> its field names (a type literal), or the type text (any other typedef)."""
    block = _typedef_block(js)
    out: dict[str, list[str] | str] = {}
    for tag in block.split("@typedef")[1:]:
        match = re.match(r"\s*\{(.*)\}\s+(\w+)\s*$", tag.split("@")[0], re.S)
        assert match, f"a typedef reads '{{type}} Name': {tag!r}"
        body, name = match.groups()
        literal = re.fullmatch(r"\{(.*)\}", body.strip(), re.S)
        out[name] = _top_level_names(literal.group(1)) if literal else body.strip()
    return out


def test_every_record_has_a_typedef_with_its_fields_in_order() -> None:
    found = typedefs(JS)
    for record in RECORDS:
        assert record.__name__ in found, f"stage.js has no typedef of {record.__name__}"
        names = [f.name for f in dataclasses.fields(record)]
        assert found[record.__name__] == names, record.__name__
    records = {r.__name__ for r in RECORDS} | {"Mark"}
    assert set(found) == records, "a typedef in stage.js with no record in stage_contract (or one left over)"


def test_the_marks_are_the_same_in_the_contract_the_typedef_and_the_drawing() -> None:
    assert set(typing.get_args(stage_contract.Mark)) == set(MARKS)
    assert set(re.findall(r'"([^"]*)"', str(typedefs(JS)["Mark"]))) == set(MARKS)
    drawn = re.search(r"const MARKS = \{(.*?)\};\n", JS, re.S)
    assert drawn, "stage.js says how each mark is drawn in one MARKS table"
    keys = re.finditer(r'(?:^\s*|\}, )(?:"([^"]*)"|(\w+)): \{', drawn.group(1))
    assert {k.group(1) if k.group(1) is not None else k.group(2) for k in keys} == set(MARKS)


def test_the_drift_check_sees_a_renamed_or_missing_field() -> None:
    renamed = JS.replace("cut_before: boolean", "cutBefore: boolean", 1)
    assert typedefs(renamed)["Place"] != [f.name for f in dataclasses.fields(stage_contract.Place)]
    dropped = JS.replace(", opens: number[]}} TokenLabel", "}} TokenLabel", 1)
    assert typedefs(dropped)["TokenLabel"] == ["text", "classes", "title", "breaks", "spoken", "closes"]


def test_the_settle_time_is_sent_not_copied() -> None:
    """The pause after which the page follows the stage is the window's ``settle_ms``
    (:data:`~stage_contract.SETTLE_MS` by default), and stage.js keeps no number of its own."""
    assert "s.data.settle_ms" in JS
    assert not re.search(rf"\b{stage_contract.SETTLE_MS}\b", JS)
    assert next(f for f in dataclasses.fields(stage_contract.Window) if f.name == "settle_ms").default == (
        stage_contract.SETTLE_MS
    )


def test_wire_sends_each_record_as_its_fields_and_nothing_else() -> None:
    assert wire((Span(ids=(1,), mark="new", was=(3, 4)), Span(ids=(5, 6), mark="", was=None))) == [
        {"ids": [1], "mark": "new", "was": [3, 4]},
        {"ids": [5, 6], "mark": "", "was": None},
    ]
    with pytest.raises(ValueError, match="not a stage record"):
        wire(object())


def _keys(value: object, path: str, out: dict[str, set[str]]) -> None:
    if isinstance(value, dict):
        out.setdefault(path, set()).update(value)
        for k, v in value.items():
            _keys(v, f"{path}.{'*' if path.endswith('labels') else k}", out)
    elif isinstance(value, list):
        for v in value:
            _keys(v, f"{path}[]", out)


def test_a_real_window_is_json_and_every_object_in_it_is_a_record() -> None:
    text = "the keeper lit the lamp and the ships saw the light. 灯塔守护者点亮了灯。 " * 20
    settings = TrainOptions(vocab_size=256 + 30, pattern="none")
    run = TrainingRun(Trainer(text, settings), identity=RunIdentity.of(text, settings))
    run.jump(30)
    run.position = 10
    window = StageViews(run, text).window(position=10, serial=1, settings=StageSettings())
    data = json.loads(json.dumps(wire(window)))
    shapes: dict[str, set[str]] = {}
    _keys(data, "window", shapes)
    records = {frozenset(f.name for f in dataclasses.fields(r)) for r in RECORDS}
    for path, names in shapes.items():
        if path == "window.labels":
            assert names and all(n.isdigit() for n in names)  # token ids
        else:
            assert frozenset(names) in records, (path, names)


def test_the_stage_builds_the_same_tags_and_attributes_the_server_allows() -> None:
    """markup.py reads a block into elements of TAGS with ATTRIBUTES only; stage.js builds those
    and no others (it skips any other), and puts no markup in the page by innerHTML."""
    from mergescope_ui.shared.stage.markup import ATTRIBUTES, TAGS

    for name, allowed in (("TAGS", TAGS), ("ATTRIBUTES", ATTRIBUTES)):
        found = re.search(rf"const {name} = new Set\(\[(.*?)\]\);", JS, re.S)
        assert found, f"stage.js lists the {name} it builds"
        assert set(re.findall(r'"([^"]+)"', found.group(1))) == allowed, name
    assert "innerHTML" not in JS and "insertAdjacentHTML" not in JS and "outerHTML" not in JS
