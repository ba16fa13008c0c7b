"""The link to this moment (issue 22 #1): step, pasted text, regex and specials go into the URL and back."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from streamlit.elements.lib import policies
from streamlit.testing.v1 import AppTest

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.train import keys
from mergescope_ui.train.link import qr_png
from mergescope_ui.train.share import MAX_LINK_TEXT, LinkState, from_query, pack_text, to_query
from tests.ui.train.stage_driver import send, stage_data, step_through

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"


def _open(params: dict[str, str]) -> AppTest:
    """A first visit to /train with these query parameters (a fresh session, as a new browser)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    at.switch_page(TRAIN).run()
    assert not at.exception, at.exception
    return at


def _params(at: AppTest) -> dict[str, str]:
    return {name: v if isinstance(v, str) else v[-1] for name, v in at.query_params.items()}


def test_the_url_follows_the_step_and_a_fresh_session_opens_on_it() -> None:
    at = _open({})
    step_through(at, 1, 2, 3)
    assert _params(at).get("step") == "3"
    send(at, position=2)
    assert _params(at).get("step") == "2", "Back is in the link too"
    again = _open(_params(at))
    run = again.session_state[shared_keys.RUN]
    assert run.position == 2 and stage_data(again)["position"] == 2


def test_pasted_text_and_settings_travel_in_the_link() -> None:
    text = "lower <b>newest</b> 语言 🙂 widest\n" * 3
    at = _open({"corpus": keys.PASTE})
    at.text_area(key=keys.PASTED_TEXT).input(text).run()
    at.text_area(key=keys.SPECIAL_TOKENS).input("<|eot|>").run()
    step_through(at, 1, 2)
    link = _params(at)
    assert link["corpus"] == keys.PASTE and link["text"] == pack_text(text) and link["step"] == "2"
    again = _open(link)
    assert again.text_area(key=keys.PASTED_TEXT).value == text
    assert again.text_area(key=keys.SPECIAL_TOKENS).value == "<|eot|>"
    assert again.session_state[shared_keys.RUN].position == 2
    assert not again.warning


def test_quiz_and_custom_regex_in_the_link() -> None:
    at = _open({"quiz": "true", "pattern": "custom", "regex": r"\w+|\W", "step": "4"})
    assert at.session_state[keys.QUIZ] is True
    assert at.text_input(key=keys.CUSTOM_REGEX).value == r"\w+|\W"
    run = at.session_state[shared_keys.RUN]
    assert run.position == 4 and run.trainer.options.pattern == r"\w+|\W"
    assert _params(at)["regex"] == r"\w+|\W"


def test_a_text_too_long_for_a_link_is_said_and_offered_as_a_file() -> None:
    text = "".join(chr(0x4E00 + i * 7919 % 20000) for i in range(9000))  # hardly compresses
    assert len(pack_text(text)) > MAX_LINK_TEXT
    at = _open({"corpus": keys.PASTE})
    at.text_area(key=keys.PASTED_TEXT).input(text).run()
    assert "text" not in _params(at)
    assert any(f"over the {MAX_LINK_TEXT:,} a link carries" in c.value for c in at.caption)
    assert at.get("download_button"), "the text is offered as a file"
    reopened = _open(_params(at))
    assert any("carries none" in w.value for w in reopened.warning)


def test_bad_link_parts_are_said_and_ignored() -> None:
    at = _open({"step": "x1", "text": "!!!"})
    said = " ".join(w.value for w in at.warning)
    assert "not a step number" in said and "not a text this page wrote" in said
    assert at.session_state[shared_keys.RUN].position == 0


def test_the_share_state_round_trips() -> None:
    for state in [
        LinkState(),
        LinkState(step=12),
        LinkState(text="a\x00b\r\n", regex="[a-z]+", specials="<x>\n<y>"),
    ]:
        assert from_query(to_query(state)) == (state, [])


def test_qr_code_of_the_link_is_a_png_and_url_has_the_params() -> None:
    at = _open({"step": "3"})
    assert any("QR code" in e.label for e in at.expander)
    png = qr_png("http://h/train?step=3")
    assert png is not None and png.startswith(b"\x89PNG")


def test_a_link_with_pattern_logs_no_session_state_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first link with ``pattern=`` logged "created with a default value but also had its value set via
    the Session State API" and a 25-line stack (issue 22 #12)."""
    monkeypatch.setattr(policies.runtime, "exists", lambda: True)
    monkeypatch.setattr(policies, "_shown_default_value_warning", False)
    seen: list[str] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    logger = logging.getLogger(policies.__name__)
    handler = Catch(level=logging.WARNING)
    logger.addHandler(handler)
    try:
        _open({"pattern": "none", "corpus": "machine_learning_zh", "regex": "x", "specials": "<s>"})
        _open({"pattern": "custom", "regex": r"\w+"})
        _open({"corpus": "low_lower_newest_widest"})  # the corpus's lesson sets the training settings
        _open({}).selectbox(key=keys.PRESET).select("cs336").run()
    finally:
        logger.removeHandler(handler)
    assert not [m for m in seen if "Session State" in m], seen


def test_bound_settings_from_a_link_still_win_over_the_defaults() -> None:
    at = _open({"merges": "7", "min_frequency": "3", "tie_break": "first-seen"})
    options = at.session_state[shared_keys.RUN].trainer.options
    assert (options.max_merges, options.min_frequency, options.tie_break) == (7, 3, "first-seen")


def test_the_tab_of_the_sequences_travels_in_the_link() -> None:
    """Issue #22 (1): "From the start" is in the link (?view=start) and a fresh session opens on it."""
    at = _open({})
    step_through(at, 1, 2)
    assert stage_data(at)["tab"] == "places" and "view" not in _params(at)
    send(at, position=2, tab="head")
    assert _params(at).get("view") == "start" and _params(at).get("step") == "2"
    again = _open(_params(at))
    assert stage_data(again)["tab"] == "head" and stage_data(again)["position"] == 2
    send(again, position=2, tab="places")
    assert "view" not in _params(again)
    odd = _open({"view": "<b>x</b>"})
    assert any("ignored view" in w.value for w in odd.warning), [w.value for w in odd.warning]
    assert stage_data(odd)["tab"] == "places"
