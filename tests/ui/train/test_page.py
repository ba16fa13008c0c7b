"""The Train page's behaviour end to end under AppTest (no browser: the stage's events are sent by hand)."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.stage.contract import AHEAD, BEHIND
from mergescope_ui.train import keys
from tests.ui.train.stage_driver import send, spans_ids, stage_data, step_through, view

ROOT = Path(__file__).resolve().parents[3]
TRAIN = "pages/views/train.py"


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


def _labels(at: AppTest) -> dict[int, str]:
    """Token id -> its label as shown (plain text)."""
    return {int(i): entry["text"] for i, entry in stage_data(at)["labels"].items()}


def test_next_three_back_one_is_step_two_without_retraining() -> None:
    at = _train()
    run = _run(at)
    assert run.pulled >= AHEAD, "the stage gets the next steps ahead of time"
    step_through(at, 1, 2, 3)
    assert run.position == 3
    records, pulled = list(run.records), run.pulled
    send(at, position=2)
    same = _run(at)
    assert same is run and same.position == 2 and same.pulled >= pulled
    assert all(a is b for a, b in zip(same.records, records))
    data = stage_data(at)
    assert data["position"] == 2 and "Merge 2" in view(at, 2)["card"]
    assert set(range(0, 2 + AHEAD + 1)) <= {v["step"] for v in data["views"]}, "steps around the current one"


def test_jump_pulls_up_to_the_step_and_moves_the_stage() -> None:
    at = _train(**{keys.SOURCE: "lighthouse_story"})
    serial = stage_data(at)["serial"]
    send(at, jump=40)
    run = _run(at)
    data = stage_data(at)
    assert run.position == 40 and data["position"] == 40 and data["serial"] == serial + 1
    assert "Merge 40" in view(at)["card"]


def test_a_run_stopped_during_a_jump_leaves_the_jump_to_the_next_run(monkeypatch) -> None:
    """A rerun the browser asks for while a jump trains stops that run (issue #22's stall): the next run
    makes the jump, though it hears no new report (the browser's last one is the one it already had)."""
    import streamlit as st

    from mergescope_ui.shared.training_run import TrainingRun

    at = _train(**{keys.SOURCE: "lighthouse_story"})
    serial = stage_data(at)["serial"]
    jump = TrainingRun.jump
    stops = []

    def stopped_once(self, target, **options):
        if not stops:
            stops.append(target)
            st.stop()  # where a rerun request stops a run: at its next Streamlit call
        return jump(self, target, **options)

    monkeypatch.setattr(TrainingRun, "jump", stopped_once)
    send(at, jump=40)
    assert stops == [40] and _run(at).position < 40, "the first run stopped in the jump"
    at.run()  # the next run, with no new report
    assert not at.exception, at.exception
    data = stage_data(at)
    assert _run(at).position == 40 and data["position"] == 40 and data["serial"] == serial + 1


def test_a_jump_past_the_end_says_where_training_stopped() -> None:
    at = _train(**{keys.SOURCE: "aaabdaaabac", keys.PATTERN: "none"})
    send(at, jump=50)
    run = _run(at)
    data = stage_data(at)
    assert run.finished and run.position == run.pulled < 50
    assert data["position"] == run.pulled and data["finished"] and data["last"] == run.pulled
    assert data["notice"] == (
        f"Training stopped at step {run.pulled}: {run.stop_reason}. Showing step {run.pulled}."
    )


def test_a_step_past_the_ones_made_is_trained_and_odd_reports_are_ignored() -> None:
    at = _train(**{keys.SOURCE: "lighthouse_story"})
    far = _run(at).pulled + 5
    send(at, position=far)
    assert _run(at).position == far
    for bad in (-3, "7", None, 1e12):
        send(at, position=bad)
        assert _run(at).position == far, bad


def test_the_pair_chart_marks_the_chosen_and_tied_pairs() -> None:
    at = _train(**{keys.SOURCE: "low_lower_newest_widest", keys.PATTERN: "none"})
    send(at, jump=4)  # merge 4 of the classic string ties o + w with l + o
    step = _run(at).current
    bars = view(at)["pairs"]
    rows = re.findall(r'<div class="ms-bar ms-(\w+)" title="([^"]*)">', bars)
    assert len(rows) == min(8, len(step.top_pairs))
    assert [s for s, _ in rows].count("chosen") == 1 and rows[0][0] == "chosen"
    tied = [html.unescape(t) for s, t in rows if s == "tied"]
    assert step.tied and len(tied) == len(step.ties) - 1
    assert "Orange ◀: merged" in bars and "tie" in bars


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)


def test_pasted_markup_reaches_the_stage_only_as_text() -> None:
    """The card and chart go as element trees of the producers' own tags (the pasted markup a text in
    them), the labels as plain text (the stage puts them in the page as text nodes)."""
    nasty = "<img src=x onerror=alert(1)><script>alert('x')</script> </span> & \"q\" 'single' "
    at = _train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: nasty * 3, keys.PATTERN: "none"})
    send(at, jump=12)
    data = stage_data(at)
    parser = _Tags()
    for v in data["views"]:
        parser.feed(v["card"] + v["pairs"])
    assert parser.tags <= {"div", "span", "h4", "p", "b", "code", "details", "summary"}, parser.tags
    assert parser.attrs <= {"class", "title", "style", "aria-hidden"}, parser.attrs
    assert "<" in "".join(_labels(at).values())  # the text's markup is there, as text


def test_invalid_utf8_upload_says_which_byte_and_lossy_decode_says_how_much() -> None:
    at = _train(**{keys.SOURCE: keys.UPLOADED})
    assert any("Upload a .txt file" in i.value for i in at.info)
    at.file_uploader(key=keys.UPLOAD).set_value(
        ("latin1.txt", "café au lait".encode("latin-1"), "text/plain")
    ).run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "byte 0xE9 at offset 3" in errors and md_escape("latin1.txt") in errors
    at.checkbox(key=keys.UPLOAD_LOSSY).check().run()
    assert not at.exception
    assert any("1 invalid byte sequence" in w.value for w in at.warning)
    assert _run(at).trainer.corpus_bytes == len("caf\ufffd au lait".encode())


def test_changing_a_setting_restarts_training_and_says_so() -> None:
    at = _train()
    step_through(at, 1, 2, 3)
    old, serial = _run(at), stage_data(at)["serial"]
    at.selectbox(key=keys.PATTERN).set_value("none").run()
    assert not at.exception
    new = _run(at)
    assert new is not old and new.identity.settings.pattern == "none"
    assert new.position == 3, "replayed to the same step so the two can be compared"
    assert stage_data(at)["serial"] > serial and stage_data(at)["position"] == 3
    # In the stage's status line, not in a banner above it that would push the stage down the screen.
    notice = stage_data(at)["notice"]
    assert "Training restarted" in notice and "gpt2 → none" in notice
    assert not any("Training restarted" in i.value for i in at.info)


def test_bad_custom_regex_is_an_error_message_not_a_traceback() -> None:
    at = _train(**{keys.PATTERN: keys.CUSTOM, keys.CUSTOM_REGEX: "(unclosed"})
    assert not at.exception
    assert any("not a valid regex" in e.value for e in at.error)


def test_one_character_corpus_finishes_at_once() -> None:
    at = _train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: "x"})
    data = stage_data(at)
    assert (
        data["finished"]
        and data["last"] == 0
        and data["wording"]["finished"]
        == "🏁 Training finished after 0 merges: no pair of adjacent tokens is left to merge."
    )


def test_quiz_grades_the_guess_when_next_reveals_the_merge() -> None:
    at = _train(**{keys.QUIZ: True, keys.SOURCE: "aaabdaaabac", keys.PATTERN: "none"})
    upcoming = _run(at).records[0]
    data = stage_data(at)
    assert data["hi"] > 0, "the stage has the step it asks about: it reveals it with no round trip"
    question = data["questions"][0]
    assert question["step"] == 1 and question["text"].startswith("🤔 Your guess for merge 1")
    right = {c["label"]: c for c in question["choices"]}["a + a"]
    assert right["outcome"] == "right" and right["verdict"].startswith("Right! a + a occurs 4 times")
    send(at, position=1, answers=[{"step": 1, "guess": "a + a", "outcome": "wrong"}])  # the outcome is ours
    (result,) = at.session_state[keys.QUIZ_LOG].values()
    assert result.outcome == "right" and result.step == 1 and _run(at).records[0] is upcoming
    assert _run(at).position == 1 and stage_data(at)["answers"] == [
        {"step": 1, "guess": "a + a", "outcome": "right"}
    ]
    assert stage_data(at)["questions"][0]["step"] == 2, "the next question comes with the window"


def test_quiz_a_tied_guess_is_not_simply_wrong_and_every_answer_counts() -> None:
    at = _train(**{keys.QUIZ: True, keys.SOURCE: "low_lower_newest_widest", keys.PATTERN: "none"})
    # Four answers judged in the browser, reported together (quick rounds): every one is kept.
    guesses = [{"step": k, "guess": c} for k, c in ((1, "e + s"), (2, "l + o"), (3, "x + y"), (4, "l + o"))]
    send(at, position=4, answers=guesses)
    log = at.session_state[keys.QUIZ_LOG]
    assert sorted(log) == [1, 2, 4], "a guess that is no choice of its question is not kept"
    assert log[4].outcome == "tied" and "Tied: l + o also occurs 7 times, as often as o + w" in log[4].message
    assert "rule chose o + w" in log[4].message
    send(at, position=4, answers=[{"step": 4, "guess": "o + w"}])  # a step answered once stays answered
    assert log[4].outcome == "tied"


def test_merges_so_far_table_and_csv_download_cover_every_merge() -> None:
    at = _train(**{keys.SOURCE: "low_lower_newest_widest"})
    send(at, jump=5)
    steps = _run(at).records[:5]
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


def test_long_tokens_are_shortened_in_tables_with_the_whole_text_in_the_tooltip() -> None:
    at = _train(**{keys.SOURCE: "low_lower_newest_widest", keys.PATTERN: "none"})
    send(at, jump=28)  # the classic string's last merge makes its whole text one token
    longest = next(h.value for h in at.html if "Longest tokens so far" in h.value)
    whole = html.escape(_run(at).current.token.decode().replace(" ", "\N{OPEN BOX}"), quote=True)
    assert f'title="{whole} (' in longest and "…" in longest


def test_special_tokens_are_cut_out_and_shown_whole() -> None:
    text = "hello world<|eot|>hello there<|eot|>hello world"
    at = _train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: text, keys.SPECIAL_TOKENS: "<|eot|>\n"})
    run = _run(at)
    assert run.trainer.special_tokens == {"<|eot|>": 256}
    assert any("256 bytes + 1 special" in c.value for c in at.caption)
    send(at, position=1)
    tokens = stage_data(at)["labels"]
    assert tokens["256"]["text"] == "<|eot|>" and "ms-special" in tokens["256"]["classes"]
    assert spans_ids(view(at)["head"]).count(256) == 2 and run.current.new_id == 257


def test_invisible_characters_are_named_in_the_sequences() -> None:
    at = _train(**{keys.SOURCE: keys.PASTE, keys.PASTED_TEXT: "👩\u200d💻 ok\u00a0ok", keys.PATTERN: "none"})
    labels = "".join(_labels(at).values())
    assert "⟨ZWJ⟩" not in labels  # at step 0 every token is one byte: a ZWJ is three bytes, not whole
    assert "<E2>" in labels
    send(at, jump=6)
    assert "⟨ZWJ⟩" in "".join(_labels(at).values()) or "⟨NBSP⟩" in "".join(_labels(at).values())


def _big_upload() -> bytes:
    story = (ROOT / "corpora" / "lighthouse_story.txt").read_text(encoding="utf-8")
    tail = (ROOT / "corpora" / "machine_learning_zh.txt").read_text(encoding="utf-8")
    return ("".join(f"Chapter {n}\n{story}" for n in range(260)) + tail).encode()


def test_a_large_upload_shows_each_new_token_where_it_stands_late_in_training() -> None:
    raw = _big_upload()
    assert len(raw) > 1_000_000
    at = _train(**{keys.SOURCE: keys.UPLOADED})
    at.file_uploader(key=keys.UPLOAD).set_value(("big.txt", raw, "text/plain")).run()
    assert not at.exception
    send(at, jump=100)
    run = _run(at)
    assert run.trainer.corpus_bytes == len(raw) and run.position == 100
    for k in range(100 - BEHIND, 101):
        step, places = run.records[k - 1], view(at, k)["places"]
        assert places["total"] == step.replaced > 0
        assert places["items"] and all(spans_ids(p["token"]) == [step.new_id] for p in places["items"])
    # the text from its start is still there
    assert spans_ids(view(at)["head"]) and len(json.dumps(stage_data(at))) < 400_000


def test_more_places_are_sent_when_the_stage_asks_for_them() -> None:
    at = _train(**{keys.SOURCE: "lighthouse_story", keys.PATTERN: "none"})
    send(at, position=1)
    total = view(at)["places"]["total"]
    assert total > 12
    send(at, places={"step": 1, "start": 9})
    places = view(at)["places"]
    assert places["start"] == 9 and len(places["items"]) == 6
    send(at, places={"step": 1, "start": "x"})  # not a number: ignored
    assert view(at)["places"]["start"] == 9


def test_step_zero_shows_the_counts_without_naming_a_winner() -> None:
    at = _train(**{keys.SOURCE: "cat_in_the_hat"})
    bars = view(at, 0)["pairs"]
    assert "Pair counts now" in bars and "ms-chosen" not in bars and "ms-tied" not in bars
    assert f">{_run(at).peek().count:,}</span>" in bars


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


@pytest.mark.parametrize("presenter", [False, True])
def test_presenter_mode_has_a_one_line_title_and_large_stage(presenter: bool) -> None:
    at = _train(**{shared_keys.PRESENTER: presenter})
    assert at.title[0].value == (
        "🔬 Train: watch BPE learn" if presenter else "🔬 Train: watch BPE learn, merge by merge"
    )
    assert stage_data(at)["large"] is presenter
