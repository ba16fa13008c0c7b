"""The browser encoder's table: its contract with ``live_assets/encoder.js``, which tokenizers get one,
and that the Tokenize page sends it once per session (the ids themselves are checked in the browser:
tests/browser/test_browser_encoder.py)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import regex
from streamlit.testing.v1 import AppTest

from bpe_core import CharTokenizer, Tokenizer, train
from bpe_core.byte_level import invisible_name
from mergescope_ui.shared.stage.contract import wire
from mergescope_ui.tokenize import encoder_table as et
from mergescope_ui.tokenize import keys
from tests.ui.train.test_stage_contract import typedefs

ROOT = Path(__file__).resolve().parents[3]
JS = (ROOT / "mergescope_ui" / "tokenize" / "live_assets" / "encoder.js").read_text(encoding="utf-8")
PAGE = str(ROOT / "pages" / "views" / "tokenize_page.py")
TEXT = "the keeper lit the lamp, and the ships came home. 机器学习 <|endoftext|>"


def test_every_record_has_a_typedef_with_its_fields_in_order() -> None:
    found = typedefs(JS)
    for record in et.RECORDS:
        assert found.get(record.__name__) == [f.name for f in dataclasses.fields(record)], record.__name__
    assert set(found) == {r.__name__ for r in et.RECORDS}


def test_the_drift_check_sees_a_renamed_field() -> None:
    renamed = JS.replace("merge_ids: number[]", "mergeIds: number[]", 1)
    assert typedefs(renamed)["EncoderTable"] != [f.name for f in dataclasses.fields(et.EncoderTable)]


def test_a_table_goes_to_the_browser_as_its_fields_only() -> None:
    tok = train(TEXT * 5, vocab_size=280, pattern="gpt4", special_tokens=["<|endoftext|>"])
    table = et.encoder_table(tok, key="k")
    assert table is not None
    data = json.loads(json.dumps(wire(table)))
    assert set(data) == {f.name for f in dataclasses.fields(et.EncoderTable)}
    assert data["merges"][:2] == list(tok.merges[0]) and len(data["merges"]) == 2 * len(tok.merges)
    assert data["specials"] == [["<|endoftext|>", tok.special_tokens["<|endoftext|>"]]]
    assert [data["byte_ids"][b] for b in b"az"] == [tok.id_of(b"a"), tok.id_of(b"z")]


def test_only_what_the_browser_encodes_exactly_gets_a_table(monkeypatch) -> None:
    named = train(TEXT * 3, vocab_size=270, pattern="o200k")
    assert et.encoder_table(named, key="a") is not None
    custom = Tokenizer(named.vocab, named.merges, pattern=r"\w+|\s+")
    assert et.encoder_table(custom, key="b") is None  # a custom regex stays on the server
    assert et.encoder_table(CharTokenizer("abc"), key="c") is None
    monkeypatch.setattr(et, "MAX_BROWSER_TOKENS", 260)
    assert et.encoder_table(named, key="d") is None  # too big


def test_the_named_patterns_spell_out_pythons_classes() -> None:
    whitespace = et.js_pattern(r"\S+|\s+")
    assert whitespace is not None
    spaces = {c for c in map(chr, range(0x3001)) if regex.match(r"\s", c)}
    body = et.class_body(r"\s")
    assert all(
        (f"\\u{{{ord(c):X}}}" in body)
        or any(_in_range(c, r) for r in regex.findall(r"\\u\{(\w+)\}-\\u\{(\w+)\}", body))
        for c in spaces
    )
    assert (
        "\\u{85}" in body and "FEFF" not in body
    )  # NEL is a space to `regex`; a BOM is not (unlike JS's \s)
    gpt4 = et.js_pattern(et.GPT4_PATTERN)
    assert gpt4 is not None and "++" not in gpt4 and "(?i:" not in gpt4 and "\\p{" not in gpt4
    assert "[Ss\\u{17F}" in gpt4  # (?i:s) matches the long s, as `regex` folds it


def _in_range(c: str, bounds: tuple[str, str]) -> bool:
    return int(bounds[0], 16) <= ord(c) <= int(bounds[1], 16)


def test_the_invisible_class_is_invisible_name_on_the_whole_bmp() -> None:
    body, names = et.invisible_class()
    python_body = regex.sub(r"\\u\{(\w+)\}", lambda m: "\\U" + m.group(1).zfill(8), body)
    pattern = regex.compile("[" + python_body + "]")
    for cp in range(0x10000):
        c = chr(cp)
        if 0xD800 <= cp <= 0xDFFF or c in " \t\n\r":
            continue
        assert bool(pattern.fullmatch(c)) == (invisible_name(c) is not None), f"U+{cp:04X}"
    assert names["\u200d"] == "ZWJ" and "\t" not in names


def test_browser_encoding_can_be_turned_off() -> None:
    assert et.browser_encoding({}) and not et.browser_encoding({et.OFF: "OFF"})


def _view(at: AppTest) -> dict:
    (data,) = [
        json.loads(el.proto.json)
        for el in at.get("bidi_component")
        if el.proto.component_name == "mergescope_clickable_tokens"
    ]
    return data


def test_the_page_sends_the_table_once_a_session_then_its_key() -> None:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.TEXT] = "The keeper lit the lamp."
    at.run()
    assert not at.exception
    first = _view(at)
    assert first["table_key"] and first["table"]["key"] == first["table_key"]
    assert first["box"] == keys.TEXT_BOX and first["specials"] and first["marks"]
    at.session_state[keys.TEXT] = "The keeper lit the lamp again."
    at.run()
    second = _view(at)
    assert second["table_key"] == first["table_key"] and second["table"] is None
    at.session_state[keys.SPANS] = {"missing": first["table_key"]}  # the browser says it never got it
    at.run()
    assert _view(at)["table"]["key"] == first["table_key"]


def test_the_page_sends_no_table_when_browser_encoding_is_off(monkeypatch) -> None:
    monkeypatch.setenv(et.OFF, "off")
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.TEXT] = "The keeper."
    at.run()
    assert not at.exception and _view(at)["table_key"] == "" and _view(at)["table"] is None


@pytest.mark.parametrize("kind", ["char"])
def test_a_tokenizer_the_browser_cannot_encode_gets_the_servers_spans(kind: str) -> None:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.TEXT] = "The keeper."
    at.session_state[keys.KIND] = kind
    at.run()
    assert not at.exception
    view = _view(at)
    assert view["table_key"] == "" and 'data-i="0"' in view["html"]


def test_the_spans_look_is_sent_with_the_table_not_copied_in_the_browser() -> None:
    """The whitespace marks, the palette's size, the tooltip's hex length and the list's name are the
    server's (html.tokens, byte_level), sent in the table; the view's count labels come with each view."""
    from bpe_core.byte_level import WHITESPACE_MARKERS
    from mergescope_ui.shared.html.tokens import PALETTE_SIZE, TITLE_HEX_BYTES

    table = et.encoder_table(train(TEXT * 3, vocab_size=270, pattern="gpt4"), key="k")
    assert table is not None
    assert table.marks == WHITESPACE_MARKERS and table.list_name == "Tokens"
    assert (table.palette, table.title_hex) == (PALETTE_SIZE, TITLE_HEX_BYTES)
    view_js = (ROOT / "mergescope_ui" / "tokenize" / "live_assets" / "view.js").read_text(encoding="utf-8")
    for copy in ("␣", "% 10", "Bytes / token"):
        assert copy not in JS and copy not in view_js, copy
