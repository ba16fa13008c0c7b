"""The Tokenize page's Watch it encode tab, headless (AppTest): the stage steps the engine's trace to the
tokenizer's own ids, each step's card names the merge rank that fired and where, and every string is
escaped.  Expected values come from the engine called directly."""

from __future__ import annotations

import dataclasses
import json
import re

from streamlit.testing.v1 import AppTest

from bpe_core.tokenizer.encode_trace import trace_encode
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.stage.contract import RECORDS, wire
from mergescope_ui.shared.stage.contract import read_shown as shown
from mergescope_ui.shared.stage.producer import StageSettings
from mergescope_ui.tokenize import keys
from mergescope_ui.tokenize.tab_views import WATCH_TAB
from mergescope_ui.tokenize.watch_encode import EncodeViews, chunk_name
from tests.ui.tokenize.fake_caches import trained as cached_tokenizer
from tests.ui.tokenize.test_page import EVIL, PAGE, cid, quick, spans_of
from tests.ui.train.stage_driver import send, spans_ids, stage_data, step_through, view
from tests.ui.train.test_stage_contract import _keys

TEXT = "The keeper's lamp: 1234 ships!\r\n  自然 🎉"


def watch(**state) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.TABS] = WATCH_TAB
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_stage_steps_the_trace_to_the_tokenizers_own_ids() -> None:
    at = watch(**{keys.TEXT: TEXT})
    tok = quick(cid("lighthouse"), 500)
    trace = trace_encode(tok, TEXT)
    data = stage_data(at)
    assert data["last"] == data["max_steps"] == len(trace.steps) > 5 and data["finished"]
    zero = view(at, 0)
    assert zero["heading"] == f"Step 0: the text cut into {len(trace.chunks)} chunks"
    assert spans_ids(zero["head"]) == [i for c in trace.chunks for i in c.ids]
    card = spans_of(zero["card"])
    assert len(card.texts) == len(trace.chunks)  # each chunk a chip, with its part's name under it
    parts = re.findall(r'<span class="ms-enc-part">([^<]*)</span>', zero["card"])
    assert parts == [chunk_name(c) for c in trace.chunks]  # the part names, but "emoji" for 🎉
    assert {"letters", "contractions", "numbers", "punctuation", "spaces"} <= set(parts)
    for step in trace.steps:
        step_through(at, step.step)
        v = view(at)
        assert v["heading"] == f"Step {step.step} of {len(trace.steps)}: merge rank {step.rank:,}"
        assert f"<h4>Merge rank {step.rank:,}</h4>" in v["card"]
        assert f"Makes token id <b>{step.new_id:,}</b>" in v["card"]
        assert v["places"]["total"] == len(step.places)
        for place in v["places"]["items"]:
            assert place["token"] == [{"ids": [step.new_id], "mark": "new", "was": list(step.pair)}]
    assert spans_ids(view(at)["head"]) == tok.encode(TEXT), "the last step shows the tokenizer's ids"
    assert "the tokenizer's own ids" in stage_data(at)["wording"]["finished"]


def test_a_cl100k_shaped_tokenizer_with_a_special_token(fake_local) -> None:
    text = "It's 2024<|endoftext|>  ok\n\n"
    at = watch(**{keys.TEXT: text, keys.KIND: "local", keys.LOCAL: "tiktoken:cl100k_base"})
    zero = view(at, 0)
    assert '<span class="ms-enc-part">special token</span>' in zero["card"]
    assert "GPT-4&#x27;s (cl100k) split pattern" in zero["card"]
    data = stage_data(at)
    send(at, position=data["last"])
    tok = cached_tokenizer()
    tok = type(tok)(tok.vocab, tok.merges, special_tokens={"<|endoftext|>": 100257}, pattern="gpt4")
    assert spans_ids(view(at)["head"]) == tok.encode(text)
    # special tokens as plain text: the trace follows the switch
    at.toggle(key=keys.SPECIALS).set_value(False).run()
    assert not at.exception
    zero = view(at, 0)
    assert "special token" not in zero["card"]
    send(at, position=stage_data(at)["last"])
    assert spans_ids(view(at)["head"]) == tok.encode_ordinary(text)


def test_a_new_text_starts_again_at_step_zero() -> None:
    at = watch(**{keys.TEXT: "low lower lowest"})
    step_through(at, 1, 2)
    assert stage_data(at)["position"] == 2
    serial = stage_data(at)["serial"]
    at.session_state[keys.TEXT] = "newer newest"
    at.run()
    data = stage_data(at)
    assert data["position"] == 0 and data["serial"] == serial + 1
    send(at, position=1)  # a report about the new window moves it
    assert stage_data(at)["position"] == 1


def test_reports_that_are_not_steps_are_ignored() -> None:
    at = watch(**{keys.TEXT: "low lower lowest"})
    for bad in (-1, "3", None, 10**9):
        send(at, position=bad)
        assert stage_data(at)["position"] == 0
    assert shown([1, 2]) is None and shown({"position": True, "start": 0, "serial": 0}) is None


def test_every_string_reaches_the_page_as_text() -> None:
    """The blocks go as element trees of the producer's own tags, the text's markup a text in them; the
    labels as plain text, which the stage puts in the page as text nodes."""
    at = watch(**{keys.TEXT: EVIL})
    data = stage_data(at)
    send(at, position=min(3, data["last"]))
    blocks = json.dumps(stage_data(at)["views"], ensure_ascii=False)
    assert "<script" not in blocks and "</span> &" not in blocks
    assert "&lt;" in blocks and "&quot;" in blocks and "&#x27;" in blocks
    for v in stage_data(at)["views"]:
        for html in (v["card"], v["pairs"]):
            assert not spans_of(html).bad
    labels = "".join(label["text"] for label in stage_data(at)["labels"].values())
    assert "<" in labels, "the text's markup, as plain text"


def test_not_a_bpe_tokenizer_or_no_text_says_so() -> None:
    at = watch(**{keys.TEXT: "hello", keys.KIND: "char", keys.CORPUS: cid("lighthouse")})
    assert not [el for el in at.get("bidi_component") if el.proto.component_name == "mergescope_stage"]
    assert any("not a byte-level BPE tokenizer" in i.value for i in at.info)
    at = watch(**{keys.TEXT: ""})
    assert any("Type a text above" in i.value for i in at.info)


def test_a_long_text_is_traced_in_part_and_says_so() -> None:
    text = "The keeper lit the lamp at dusk. " * 400
    at = watch(**{keys.TEXT: text, shared_keys.PRESENTER: True})
    traced = trace_encode(quick(cid("lighthouse"), 500), text).traced_chars
    assert traced < len(text)
    assert any(i.value.startswith("Traced") and f"{traced:,} characters" in i.value for i in at.info)
    data = stage_data(at)
    assert data["large"] and data["last"] > 0 and len(data["views"]) <= 20
    send(at, position=data["last"])
    assert stage_data(at)["position"] == data["last"]


def test_the_window_is_json_of_the_contracts_records_only() -> None:
    tok = quick(cid("lighthouse"), 500)
    views = EncodeViews(trace_encode(tok, TEXT * 3), tok)
    data = json.loads(json.dumps(wire(views.window(position=9, serial=1, settings=StageSettings()))))
    shapes: dict[str, set[str]] = {}
    _keys(data, "window", shapes)
    records = {frozenset(f.name for f in dataclasses.fields(r)) for r in RECORDS}
    for path, names in shapes.items():
        if path == "window.labels":
            assert names and all(n.isdigit() for n in names)
        else:
            assert frozenset(names) in records, (path, names)
    assert {v["step"] for v in data["views"]} == set(range(data["lo"], data["hi"] + 1))
    shown_ids = {str(i) for v in data["views"] for s in v["head"] for i in (*s["ids"], *(s["was"] or ()))}
    assert shown_ids <= set(data["labels"])


def test_no_split_pattern_and_a_long_text_says_what_to_do() -> None:
    state = {keys.KIND: "quick", keys.CORPUS: cid("lighthouse"), keys.VOCAB: 300, keys.PATTERN: "none"}
    at = watch(**state, **{keys.TEXT: "The keeper lit the lamp. " * 300})
    assert not [el for el in at.get("bidi_component") if el.proto.component_name == "mergescope_stage"]
    assert any("first chunk is" in w.value and "split pattern" in w.value for w in at.warning)
    at = watch(**state, **{keys.TEXT: "low lower lowest"})  # a short one is one chunk, traced
    tok = quick(cid("lighthouse"), 300, "none")
    send(at, position=stage_data(at)["last"])
    assert spans_ids(view(at)["head"]) == tok.encode("low lower lowest")
    assert [c.part for c in trace_encode(tok, "low lower lowest").chunks] == ["whole text"]
    assert '<span class="ms-enc-part">whole text</span>' in view(at, 0)["card"]


def test_a_chunk_of_emoji_is_named_emoji_not_punctuation() -> None:
    """GPT-2's punctuation part cuts emoji too; the card names such a chunk "emoji" (issue #40), and the
    punctuation beside it stays punctuation."""
    from bpe_core import train

    tok = train("ab", vocab_size=256, pattern="gpt2")
    card = EncodeViews(trace_encode(tok, "ab 🎉 ! 👍🏽"), tok).view(0).card
    names = re.findall(r'class="ms-enc-part">([^<]*)<', card)
    assert names == ["letters", "emoji", "punctuation", "emoji"], names
    assert "chunk 2 · emoji ·" in card
