"""The Train page's behaviour end to end under AppTest (no browser)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.train import keys

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/train.py"


def _app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()


def _train(**state) -> AppTest:
    at = _app()
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(TRAIN).run()
    assert not at.exception, at.exception
    return at


def _run(at: AppTest):
    return at.session_state[shared_keys.RUN]


def _charts(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) | {"_datasets": el.proto.datasets} for el in at.get("vega_lite_chart")]


def test_next_three_back_one_is_step_two_without_retraining() -> None:
    at = _train()
    run = _run(at)
    for _ in range(3):
        at.button(key="next").click().run()
    pulled = run.pulled
    assert run.position == 3 and pulled in (3, 4)  # 4 when the page prefetched the next merge
    records = list(run.records)
    at.button(key="back").click().run()
    assert not at.exception
    same = _run(at)
    assert same is run and same.position == 2 and same.pulled == pulled
    assert same.records[:pulled] == records and all(a is b for a, b in zip(same.records, records))
    assert any('<h3 class="ms-h3">After merge 2</h3>' in h.value for h in at.html)


def test_jump_to_a_step_pulls_up_to_it() -> None:
    at = _train(**{keys.SOURCE: "lighthouse_story"})
    at.number_input(key=keys.JUMP_TO).set_value(40).run()
    assert not at.exception
    run = _run(at)
    assert run.position == 40 and run.pulled in (40, 41)
    assert any("Merge 40" in h.value for h in at.html)


def test_play_ticks_one_step_per_run_and_pause_stops() -> None:
    at = _train()
    at.button(key="play").click().run()
    assert at.session_state[keys.PLAYING]
    start = _run(at).position
    at.run()
    at.run()
    assert _run(at).position == start + 2
    at.button(key="play").click().run()
    assert not at.session_state[keys.PLAYING]
    stopped = _run(at).position
    at.run()
    assert _run(at).position == stopped


def test_play_stops_by_itself_when_training_finishes() -> None:
    at = _train(**{keys.SOURCE: "aaabdaaabac"})
    at.button(key="play").click().run()
    for _ in range(12):
        at.run()
    run = _run(at)
    assert run.at_end and not at.session_state[keys.PLAYING]
    assert any("Training finished" in s.value for s in at.success)


def test_pair_chart_data_flags_the_chosen_pair() -> None:
    at = _train()
    at.button(key="next").click().run()
    step = _run(at).current
    pair_chart = next(
        c for c in _charts(at) if any(layer["mark"]["type"] == "bar" for layer in c.get("layer", []))
    )
    frames = [convert_arrow_bytes_to_pandas_df(d.data.data) for d in pair_chart["_datasets"]]
    data = next(f for f in frames if "status" in f.columns)
    chosen = data[data["status"] == "chosen"]
    assert len(chosen) == 1
    assert (int(chosen["left_id"].iloc[0]), int(chosen["right_id"].iloc[0])) == step.pair
    table = next(h.value for h in at.html if "ms-table" in h.value and "left_id" in h.value)
    chosen_rows = re.findall(r'<tr class="ms-chosen">(.*?)</tr>', table)
    assert len(chosen_rows) == 1
    cells = re.findall(r"<td[^>]*>(.*?)</td>", chosen_rows[0])
    assert cells[2] == str(step.count) and cells[4:] == [str(step.pair[0]), str(step.pair[1])]


def test_pasted_markup_is_escaped_in_the_token_html() -> None:
    nasty = "<script>alert('x')</script> </span> & \"quoted\" 'single'"
    at = _train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: nasty, keys.PATTERN: "none"})
    at.button(key="next").click().run()
    assert not at.exception
    sequences = [h.value for h in at.html if "ms-tokens" in h.value and "ms-card" not in h.value]
    assert len(sequences) == 2, "before and after"
    for markup in sequences:
        body = markup.split("</style>")[-1]
        assert "<script" not in body and "</span> &" not in body
        assert "&lt;" in body and "&amp;" in body and ("&quot;" in body or "&#x27;" in body)


def test_invalid_utf8_upload_says_which_byte_and_lossy_decode_says_how_much() -> None:
    at = _train(**{keys.SOURCE: keys.UPLOADED})
    assert any("Upload a .txt file" in i.value for i in at.info)
    at.file_uploader(key=keys.UPLOAD).set_value(
        ("latin1.txt", "café au lait".encode("latin-1"), "text/plain")
    ).run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "byte 0xE9 at offset 3" in errors and "latin1.txt" in errors
    at.checkbox(key=keys.UPLOAD_LOSSY).check().run()
    assert not at.exception
    assert any("1 invalid byte sequence" in w.value for w in at.warning)
    assert _run(at).trainer.corpus_bytes == len("caf\ufffd au lait".encode())


def test_changing_a_setting_restarts_training_and_says_so() -> None:
    at = _train()
    for _ in range(3):
        at.button(key="next").click().run()
    old = _run(at)
    at.selectbox(key=keys.PATTERN).set_value("none").run()
    assert not at.exception
    new = _run(at)
    assert new is not old and new.identity.settings.pattern == "none"
    assert new.position == 3, "replayed to the same step so the two can be compared"
    notice = " ".join(i.value for i in at.info)
    assert "Training restarted" in notice and "gpt2 → none" in notice


def test_bad_custom_regex_is_an_error_message_not_a_traceback() -> None:
    at = _train(**{keys.PATTERN: keys.CUSTOM, keys.CUSTOM_REGEX: "(unclosed"})
    assert not at.exception
    assert any("not a valid regex" in e.value for e in at.error)


def test_one_character_corpus_finishes_at_once() -> None:
    at = _train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: "x"})
    assert not at.exception
    assert any("no pair of adjacent tokens is left" in s.value for s in at.success)
    assert at.button(key="next").disabled


def test_quiz_grades_the_guess_when_next_reveals_the_merge() -> None:
    at = _train(**{keys.QUIZ: True, keys.SOURCE: "aaabdaaabac", keys.PATTERN: "none"})
    upcoming = _run(at).peek()
    radio = at.radio(key=keys.QUIZ_GUESS)
    answer = next(o for o in radio.options if o.startswith("a + a"))
    radio.set_value(answer).run()
    at.button(key="next").click().run()
    assert not at.exception
    assert _run(at).current is upcoming
    assert any(s.value.startswith("Right!") for s in at.success)
    assert any("1 right out of 1" in c.value for c in at.caption)


def test_merges_so_far_table_and_csv_download_cover_every_merge() -> None:
    at = _train(**{keys.SOURCE: "low_lower_newest_widest"})
    at.number_input(key=keys.JUMP_TO).set_value(5).run()
    steps = _run(at).records[:5]
    # by default: the latest merges, newest first, as a light HTML table
    recent = next(
        h.value
        for h in at.html
        if "merges, newest first" in h.value and "<table" in h.value and ">replaced<" in h.value
    )
    cells = [f'<tr><td class="ms-num">{s.index}</td>' for s in reversed(steps)]  # a row starts with its step
    assert all(c in recent for c in cells)
    assert recent.index(cells[0]) < recent.index(cells[-1])  # newest first
    at.toggle(key=keys.ALL_MERGES).set_value(True).run()
    merges = next(
        d.value for d in at.dataframe if "crosses_words" in d.value.columns and "replaced" in d.value.columns
    )
    assert list(merges["step"]) == [1, 2, 3, 4, 5]
    assert any(el.proto.label.startswith("⬇ Merges as CSV") for el in at.get("download_button"))


def test_special_tokens_are_cut_out_and_shown_whole() -> None:
    text = "hello world<|eot|>hello there<|eot|>hello world"
    at = _train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: text, keys.SPECIAL_TOKENS: "<|eot|>\n"})
    run = _run(at)
    assert run.trainer.special_tokens == {"<|eot|>": 256}
    assert any("256 bytes + 1 special" in c.value for c in at.caption)
    at.button(key="next").click().run()
    after = next(h.value for h in at.html if "ms-tokens" in h.value and "ms-card" not in h.value)
    assert after.count("ms-special") == 2 and "&lt;|eot|&gt;" in after
    assert _run(at).current.new_id == 257


def test_a_few_megabyte_upload_keeps_the_preview_small() -> None:
    story = (ROOT / "corpora" / "lighthouse_story.txt").read_text(encoding="utf-8")
    raw = "".join(f"Chapter {n}\n{story}" for n in range(600)).encode()
    assert len(raw) > 2_000_000
    at = _train(**{keys.SOURCE: keys.UPLOADED})
    at.file_uploader(key=keys.UPLOAD).set_value(("big.txt", raw, "text/plain")).run()
    assert not at.exception
    for _ in range(3):
        at.button(key="next").click().run()
    run = _run(at)
    assert run.trainer.corpus_bytes == len(raw) and run.position == 3
    assert len(run.trainer.preview_text) <= 1000
    sequences = [h.value for h in at.html if "ms-tokens" in h.value and "ms-card" not in h.value]
    assert all(s.count('<span class="ms-t') <= 1000 for s in sequences)


def _span_text(markup: str) -> str:
    """The text of a token box's spans, markers turned back into the whitespace they stand for."""
    labels = re.findall(r'<span class="ms-t[^"]*" title="[^"]*">([^<]*)</span>', markup)
    return html.unescape("".join(labels)).replace("\N{OPEN BOX}", " ").replace("↵", "\n").replace("⇥", "\t")


@pytest.mark.parametrize(
    "pattern", ["gpt2", "none"]
)  # none: the whole story is one chunk, longer than the preview
def test_sequences_show_the_first_characters_and_the_whole_preview_on_demand(pattern: str) -> None:
    from mergescope_ui.train.window import WINDOW_CHARS

    at = _train(**{keys.SOURCE: "lighthouse_story", keys.PATTERN: pattern})
    at.number_input(key=keys.JUMP_TO).set_value(30).run()
    run = _run(at)
    preview = run.trainer.preview_text
    assert len(preview) >= 2 * WINDOW_CHARS

    def boxes() -> list[str]:
        after = next(h.value for h in at.html if '<h3 class="ms-h3">After merge 30</h3>' in h.value)
        before = next(h.value for h in at.html if '<h3 class="ms-h3">Before merge 30</h3>' in h.value)
        return [_span_text(after), _span_text(before)]

    # By default both boxes cover the same first WINDOW_CHARS characters (ending on a whole token), no more.
    for text in boxes():
        assert text.startswith(preview[:WINDOW_CHARS]) and len(text) < WINDOW_CHARS + 40
    assert any(f"the first {WINDOW_CHARS} characters" in c.value for c in at.caption)
    at.toggle(key=keys.WHOLE_PREVIEW).set_value(True).run()
    assert not at.exception
    assert boxes() == [preview, preview]
    assert _run(at) is run and run.position == 30  # showing more never retrains


def test_step_zero_shows_current_counts_without_naming_a_winner_and_quiz_hides_them() -> None:
    at = _train(**{keys.SOURCE: "cat_in_the_hat"})
    (chart,) = _charts(at)
    frames = [convert_arrow_bytes_to_pandas_df(d.data.data) for d in chart["_datasets"]]
    data = next(f for f in frames if "status" in f.columns)
    assert set(data["status"]) == {"other"} and int(data["count"].max()) == _run(at).peek().count
    quiz = _train(**{keys.SOURCE: "cat_in_the_hat", keys.QUIZ: True})
    assert _charts(quiz) == []


def test_link_parameters_pick_the_text_and_say_when_unknown() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["corpus"] = "machine_learning_zh"
    at.query_params["pattern"] = "none"
    at.run()
    # switch_page keeps the session: seed the params as a first visit to /train would.
    at.switch_page(TRAIN).run()
    assert not at.exception
    assert at.selectbox(key=keys.SOURCE).value == "machine_learning_zh"
    assert at.selectbox(key=keys.PATTERN).value == "none"
    bad = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    bad.query_params["corpus"] = "no-such-text"
    bad.run()
    bad.switch_page(TRAIN).run()
    assert any("not a built-in corpus" in w.value for w in bad.warning)
    assert bad.selectbox(key=keys.SOURCE).value == "low_lowest_newest"
