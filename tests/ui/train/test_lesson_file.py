"""The offline lesson file (issue #44): self-contained, escaped, the steps asked for, the app's own views.

Read from the file as written (no browser here: tests/browser/test_lesson_file.py opens it).
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from html.parser import HTMLParser

import pytest

from bpe_core import Trainer, TrainOptions
from bpe_core.cli import main as engine_main
from mergescope_ui import lesson as cli
from mergescope_ui.shared.stage import offline
from mergescope_ui.shared.stage.contract import wire
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.train import lesson_file
from mergescope_ui.train.lesson_file import LessonRequest, lesson_html, steps_range
from mergescope_ui.train.scheme_driver import start_driver
from mergescope_ui.train.scheme_run import SchemeSettings
from mergescope_ui.train.stage_data import StageViews

CLASSIC = "low low low low low lower lower newest newest newest newest newest newest widest widest widest"
HOSTILE = "</script><img src=x onerror=alert(1)>"
HF = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5


def _bpe(
    text: str = CLASSIC, *, first: int = 0, last: int = 8, name: str = "classic", **options: object
) -> str:
    settings = TrainOptions(vocab_size=256 + 40, pattern=str(options.pop("pattern", "gpt2")), **options)  # type: ignore[arg-type]
    request = LessonRequest(text=text, name=name, scheme="bpe", settings=settings, first=first, last=last)
    return lesson_html(request)


class Tags(HTMLParser):
    """Every start tag with its attributes, and the text of each script element."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def _parse(page: str) -> Tags:
    tags = Tags()
    tags.feed(page)
    return tags


def _data(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="ms-lesson-data">(.*?)</script>', page, re.S)
    assert match, "the steps are in one JSON block"
    data = json.loads(match[1])
    data["window"]["views"] = offline.unpack_blocks(data["window"]["views"], data["strings"])
    return data


def test_the_file_fetches_nothing_and_runs_only_its_own_script() -> None:
    page = _bpe()
    tags = _parse(page)
    csp = [
        a["content"] for t, a in tags.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"
    ]
    assert (
        len(csp) == 1
        and "default-src 'none'" in csp[0]
        and "unsafe-inline" not in csp[0].split("style-src")[0]
    )
    for tag, attrs in tags.tags:  # nothing that loads: no src, href, link, import, url()
        assert tag not in {"link", "img", "iframe", "object", "embed", "base"}, tag
        assert not {"src", "href", "srcset", "action"} & set(attrs), (tag, attrs)
    assert not re.search(r"https?://|url\(|@import|\bfetch\(|XMLHttpRequest|WebSocket", page)
    scripts = [
        (a.get("type"), text)
        for (t, a), text in zip([x for x in tags.tags if x[0] == "script"], tags.scripts)
    ]
    assert [kind for kind, _ in scripts] == ["application/json", "module"]
    code = scripts[1][1]
    assert offline.script_hash(code) in csp[0], "the policy lets exactly the page's script run"
    assert "export default function drawStage" in code and offline.IMPORT_LINE not in code


def test_a_changed_script_would_not_run() -> None:
    """The hash is of the script as written: one character more and the policy names another."""
    code = "\n" + offline.stage_script()
    assert offline.script_hash(code) != offline.script_hash(code + " ")


def test_hostile_tokens_and_names_stay_text() -> None:
    text = f"{HOSTILE} {HOSTILE} {HOSTILE} ok ok"
    page = _bpe(text, name=f"<b>{HOSTILE}", pattern="none", last=20)
    tags = _parse(page)
    assert [t for t, _ in tags.tags if t == "img"] == []
    assert len([t for t, _ in tags.tags if t == "script"]) == 2, "no token ends the JSON block"
    assert not any(k.startswith("on") for _, a in tags.tags for k in a), "no handler attribute anywhere"
    raw = page.split('id="ms-lesson-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in raw and ">" not in raw
    data = _data(page)
    labels = "".join(label["title"] for label in data["window"]["labels"].values())
    assert "t><i" in labels and "onerror=alert(1)>" in labels, "the tokens are there, as text"
    assert "<b>" not in page.split("<body>", 1)[1].split("<noscript>", 1)[0], "the name is escaped"
    assert "&lt;b&gt;&lt;/script&gt;" in page


def test_json_block_escapes_every_breakout() -> None:
    value = {"a": "</script><!-- & \u2028 \u2029 >"}
    block = offline.json_block(value)
    assert not set("<>&\u2028\u2029") & set(block)
    assert json.loads(block) == value


def test_the_range_is_the_steps_asked_for() -> None:
    data = _data(_bpe(first=3, last=7))["window"]
    assert (data["lo"], data["hi"], data["position"], data["max_steps"]) == (3, 7, 3, 7)
    assert [v["step"] for v in data["views"]] == [3, 4, 5, 6, 7]
    assert not data["finished"] and "ends at step 7" in data["wording"]["past_limit"]
    assert steps_range("12") == (0, 12) and steps_range(" 4 - 9 ") == (4, 9)
    for bad in ("", "9-4", "a", "-3", "0-2001"):
        with pytest.raises(ValueError, match=r"range|more than|choose fewer"):
            steps_range(bad)


def test_a_range_past_the_end_of_training_ends_there() -> None:
    data = _data(_bpe("abab", last=50))["window"]
    assert data["finished"] and data["hi"] == data["last"] < 50
    assert [v["step"] for v in data["views"]] == list(range(0, data["last"] + 1))


def test_the_views_are_the_apps() -> None:
    """The same producer as the Train page: each step's view equals the app's, but for the places it
    holds being all there are."""
    options = TrainOptions(vocab_size=256 + 40)
    run = TrainingRun(Trainer(CLASSIC, options), identity=RunIdentity.of(CLASSIC, options))
    run.jump(8)
    app = StageViews(run, CLASSIC)
    data = _data(_bpe(last=8))["window"]
    for shown in data["views"]:
        view = app.view(shown["step"])
        expected = wire(
            replace(view, places=view.places and replace(view.places, total=len(view.places.items)))
        )
        assert shown == expected
        if view.places is not None:
            assert shown["places"]["total"] <= view.places.total
    assert data["views"][5]["figures"] == app.view(5).figures
    assert f"{run.records[4].tokens_after:,}" in data["views"][5]["figures"]


@pytest.mark.parametrize(
    ("settings", "noun"),
    [
        (SchemeSettings(scheme="wordpiece", steps=6), "merge"),
        (SchemeSettings(scheme="unigram", vocab_size=12), "round"),
    ],
)
def test_wordpiece_and_unigram(settings: SchemeSettings, noun: str) -> None:
    page = lesson_html(LessonRequest(text=HF, name="hf", scheme=settings.scheme, settings=settings, last=3))
    data = _data(page)["window"]
    driver = start_driver(HF, settings)
    driver.jump(3)
    assert [v["heading"] for v in data["views"]] == [driver.views.view(k).heading for k in range(4)]
    assert f"Every {noun}" in page or "Every step" in page


def test_the_noscript_fallback_shows_the_first_step_and_the_list() -> None:
    page = _bpe(first=2, last=6)
    fallback = page.split("<noscript>", 1)[1].split("</noscript>", 1)[0]
    assert "Step 2 of up to" in fallback and "Merge 2" in fallback and 'class="ms-t' in fallback
    steps = re.findall(r'<li value="(\d+)">', page)
    assert steps == ["2", "3", "4", "5", "6"]


def test_too_big_a_file_or_text_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lesson_file, "MAX_LESSON_BYTES", 50_000)
    with pytest.raises(ValueError, match="smaller range"):
        _bpe(last=8)
    with pytest.raises(ValueError, match="shorter part"):
        LessonRequest(
            text="a" * (lesson_file.MAX_LESSON_CHARS + 1),
            name="x",
            scheme="bpe",
            settings=TrainOptions(vocab_size=300),
        )
    with pytest.raises(ValueError, match="SchemeSettings"):
        LessonRequest(text="a", name="x", scheme="unigram", settings=TrainOptions(vocab_size=300))


def test_the_command_writes_the_file(tmp_path) -> None:
    source = tmp_path / "classic.txt"
    source.write_text(CLASSIC, encoding="utf-8")
    out = tmp_path / "lesson.html"
    err = io.StringIO()
    assert (
        cli.main([str(source), "--vocab-size", "300", "--steps", "2-5", "--out", str(out)], stderr=err) == 0
    )
    data = _data(out.read_text(encoding="utf-8"))["window"]
    assert [v["step"] for v in data["views"]] == [2, 3, 4, 5] and "wrote" in err.getvalue()
    wp = tmp_path / "wp.html"
    assert (
        cli.main([str(source), "--model", "wordpiece", "--vocab-size", "30", "--out", str(wp)], stderr=err)
        == 0
    )
    assert _data(wp.read_text(encoding="utf-8"))["window"]["views"][1]["heading"].startswith("Merge 1")
    err = io.StringIO()
    assert (
        cli.main([str(source), "--vocab-size", "300", "--steps", "0-3000", "--out", str(out)], stderr=err)
        == 1
    )
    assert (
        err.getvalue().startswith("error: steps 0–3,000 are 3,000 steps") and err.getvalue().count("\n") == 1
    )
    assert (
        cli.main([str(source), "--model", "wordpiece", "--vocab-size", "10", "--out", str(wp)], stderr=err)
        == 1
    )


def test_the_engine_points_to_the_apps_command() -> None:
    err = io.StringIO()
    assert engine_main(["lesson", "corpus.txt", "--vocab-size", "300"], stderr=err) == 2
    assert err.getvalue().count("\n") == 1 and "python -m mergescope_ui.lesson" in err.getvalue()
