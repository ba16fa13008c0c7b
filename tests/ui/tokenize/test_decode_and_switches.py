"""The ids-to-text box, and the two switches: special tokens special or plain, whitespace marks on or off."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mergescope_ui.tokenize import keys

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "pages" / "views" / "tokenize_page.py")


def app(**state) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    for k, v in state.items():
        at.session_state[k] = v
    return at.run()


def view(at: AppTest) -> dict:
    (data,) = [
        json.loads(el.proto.json)
        for el in at.get("bidi_component")
        if el.proto.component_name == "mergescope_clickable_tokens"
    ]
    return data


def tokens(at: AppTest) -> int:
    """The main view's token count (sent with its tokens)."""
    return int(view(at)["tokens"])


def test_the_decode_box_shows_text_half_characters_as_bytes_and_names_unknown_ids() -> None:
    at = app(**{keys.TEXT: "语", keys.KIND: "bytes"})
    assert not at.exception
    at.text_input(key=keys.DECODE).set_value("232, 175").run()
    assert [c.value for c in at.code][-1] == "<E8><AF>"
    assert any("not a whole character" in c.value for c in at.caption)
    at.text_input(key=keys.DECODE).set_value("[104, 105, 232 175 173] 99999 hello").run()
    assert not at.exception
    assert [c.value for c in at.code][-1] == "hi语"
    errors = [e.value for e in at.error]
    assert any("99999" in e and "not in this tokenizer" in e for e in errors), errors
    assert any("Not token ids: hello" in e for e in errors), errors
    at.text_input(key=keys.DECODE).set_value("99999").run()
    assert not at.exception and "99999" in at.error[0].value and "<E8>" not in str([c.value for c in at.code])


def test_special_tokens_can_be_plain_text(fake_local) -> None:
    text = "x<|endoftext|>y"
    at = app(**{keys.TEXT: text, keys.KIND: "local", keys.LOCAL: "tiktoken:cl100k_base"})
    assert not at.exception
    toggle = at.toggle(key=keys.SPECIALS)
    assert toggle.value and not toggle.disabled
    assert "100257" in view(at)["html"] and tokens(at) == 3
    at.toggle(key=keys.SPECIALS).set_value(False).run()
    assert not at.exception
    assert "id 100257 " not in view(at)["html"] and tokens(at) > 3
    assert view(at)["specials"] is False  # the browser encodes the same way


def test_the_specials_switch_is_off_limits_without_special_tokens() -> None:
    at = app(**{keys.TEXT: "<|endoftext|>", keys.KIND: "bytes"})
    assert at.toggle(key=keys.SPECIALS).disabled and tokens(at) == len("<|endoftext|>")


def test_whitespace_marks_can_be_hidden() -> None:
    at = app(**{keys.TEXT: "a b\tc\nd", keys.KIND: "bytes"})
    assert "␣" in view(at)["html"] and "↵" in view(at)["html"] and view(at)["marks"] is True
    at.toggle(key=keys.MARKS).set_value(False).run()
    labels = "".join(re.findall(r">([^<]*)</span>", view(at)["html"]))
    assert not at.exception and labels == "a b\tc\nd"  # the tooltips still name each byte
    assert view(at)["marks"] is False


def test_the_compare_tab_shows_the_three_split_patterns_side_by_side() -> None:
    text = "I'LL pay 12345\n<script>x</script>"
    at = app(**{keys.TEXT: text, keys.KIND: "bytes", keys.TABS: "⚖️ Compare"})
    assert not at.exception
    counts = [m.value for m in at.markdown if "chunks" in m.value]
    assert counts == [
        f"**GPT-2 (r50k, p50k)**: {len(split('gpt2', text))} chunks",
        f"**GPT-4 (cl100k)**: {len(split('gpt4', text))} chunks",
        f"**GPT-4o (o200k)**: {len(split('o200k', text))} chunks",
    ]
    rows = [h.value for h in at.html if 'class="ms-pcut"' in h.value]
    assert len(rows) == 3 and all("<script" not in r and "&lt;" in r and "&gt;" in r for r in rows)
    assert all("ms-diff" in r for r in rows)  # "'LL" and "12345" are cut differently


def split(name: str, text: str) -> list[str]:
    from bpe_core.pretokenizer import PreTokenizer

    return PreTokenizer(name).chunks(text)
