"""Bytes tied to their character (issue 22 #10): a partial token names the character it is part of."""

from __future__ import annotations

import html
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from bpe_core.byte_level import broken_ends, character_counts, partial_note
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.train import keys
from tests.ui.train.stage_driver import send, stage_data, view

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"
NOTE = re.compile(r"((?:<[0-9A-F]{2}>)+) is the (start|end|inside) of (\S)")


def _check(note: str, token: bytes, text: str) -> None:
    """Every phrase of ``note`` names a character of ``text`` that holds those bytes where it says."""
    phrases = NOTE.findall(note)
    assert phrases, note
    for hexes, where, char in phrases:
        piece = bytes(int(h, 16) for h in re.findall(r"<([0-9A-F]{2})>", hexes))
        data = char.encode("utf-8")
        assert char in text and piece in token
        assert {"start": data.startswith, "end": data.endswith, "inside": data.__contains__}[where](piece)


def test_chinese_card_and_chart_name_the_character() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.session_state[keys.SOURCE] = "machine_learning_zh"
    at.switch_page(TRAIN).run()
    run = at.session_state[shared_keys.RUN]
    text = (ROOT / "corpora" / "machine_learning_zh.txt").read_text(encoding="utf-8")
    send(at, jump=12)
    steps = run.records[:12]
    partial = [s for s in steps if any(broken_ends(s.token))]
    assert partial, "the first merges of Chinese text join bytes of one character"
    k = partial[0].index
    send(at, position=k)
    card = html.unescape(view(at, k)["card"])
    assert "🧩" in card
    _check(card.split("🧩", 1)[1].split("</p>", 1)[0], partial[0].token, text)
    bars = html.unescape(view(at, k)["pairs"])
    assert "🧩" in bars
    # in the places (the sequences), the token's label names its character too
    label = stage_data(at)["labels"][str(partial[0].new_id)]
    _check(html.unescape(label["title"]).split(" · ", 1)[1], partial[0].token, text)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("语言模型学习abc é🙂"), min_size=1, max_size=12), data=st.data())
def test_any_cut_of_a_text_names_a_character_that_holds_its_broken_bytes(text: str, data) -> None:
    raw = text.encode("utf-8")
    start = data.draw(st.integers(0, len(raw) - 1))
    end = data.draw(st.integers(start + 1, len(raw)))
    token = raw[start:end]
    note = partial_note(token, character_counts(text))
    head, tail = broken_ends(token)
    if head or tail:
        _check(note, token, text)
    else:
        assert note == ""
