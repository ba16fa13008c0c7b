"""The vocab-size lab page, headless (streamlit.testing AppTest)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pandas as pd
import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from bpe_core.analysis.metrics import LESSON_SIZES
from mergescope_ui.lab import keys as lk
from mergescope_ui.lab.compute import clear_caches, reached_sizes
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.corpora import find_id, load_index

ROOT = Path(__file__).resolve().parents[3]
PAGE = "pages/views/vocab-lab.py"


def corpus_id(name: str) -> str:
    found = find_id([c.id for c in load_index()], name)
    assert found is not None, f"built-in corpus {name} is gone"
    return found


def open_lab() -> AppTest:
    clear_caches()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def chart_frames(at: AppTest) -> list[pd.DataFrame]:
    """The data of every altair chart on the page (one frame per dataset)."""
    frames = []
    for el in at.get("vega_lite_chart"):
        json.loads(el.proto.spec)  # a valid spec
        for d in el.proto.datasets:
            frames.append(convert_arrow_bytes_to_pandas_df(d.data.data))
    return frames


def compression_data(at: AppTest) -> pd.DataFrame:
    found = [
        f
        for f in chart_frames(at)
        if {"text", "merges", "tokens", "bytes_per_token"} <= set(f.columns) and "script" not in f.columns
    ]
    assert len(found) == 1, [list(f.columns) for f in chart_frames(at)]
    return found[0]


def script_data(at: AppTest) -> pd.DataFrame:
    # the lines' data, and the rows of it that carry a marker and a name (the lines' ends among them)
    found = sorted((f for f in chart_frames(at) if {"script", "chars_per_token"} <= set(f.columns)), key=len)
    assert len(found) == 3 and len(found[-1]) > len(found[0])
    return found[-1]


def size_table(at: AppTest) -> pd.DataFrame:
    found = [d.value for d in at.dataframe if "round-trip %" in d.value.columns]
    assert len(found) == 1
    return found[0]


def check_page(at: AppTest, sizes: set[int]) -> pd.DataFrame:
    """What must hold for any successful run; returns the table of sizes."""
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    data = compression_data(at)
    assert set(data["text"]) == {"train", "held-out"}
    for _, line in data.groupby("text"):
        line = line.sort_values("vocab_size")
        tokens = line["tokens"].tolist()
        assert len(tokens) > 10
        assert all(a >= b for a, b in itertools.pairwise(tokens)), "token counts must not grow with the vocab"
        assert tokens[-1] < tokens[0]
    table = size_table(at)
    bpe = table[table["tokenizer"] == "byte-level BPE"]
    assert set(bpe["vocab size asked"]) == set(reached_sizes(sizes, int(bpe["vocab size"].max())))
    assert (bpe["round-trip %"] == 100.0).all()
    assert (bpe["OOV rate %"] == 0.0).all()
    assert set(bpe["text"]) == {"train", "held-out"}
    assert len(table[table["tokenizer"] == "character baseline"]) == 2
    gains = [f for f in chart_frames(at) if "gain" in f.columns]
    assert len(gains) == 1 and (gains[0]["gain"] >= 1).all()
    return table


def test_defaults() -> None:
    at = open_lab()
    # training stops at the vocab size set, 4,096: no row for 32,768 (it repeated the 4,096 tokenizer)
    table = check_page(at, {512, 1024, 4096})
    assert any("no row for 32,768" in c.value for c in at.caption)
    # the table agrees with the curve it came from
    data = compression_data(at)
    train_row = table[
        (table["tokenizer"] == "byte-level BPE")
        & (table["text"] == "train")
        & (table["vocab size asked"] == 512)
    ].iloc[0]
    point = data[(data["text"] == "train") & (data["vocab_size"] == 512)]
    assert int(point["tokens"].iloc[0]) == int(train_row["tokens"])
    assert [m.label for m in at.metric][:2] == ["Train bytes/token", "Held-out bytes/token"]
    assert any(m.value == "0.00%" for m in at.metric)  # byte-level BPE's OOV rate
    assert at.download_button  # the CSV


def test_chinese_heldout_text() -> None:
    at = open_lab()
    at.radio(key=lk.HELDOUT_MODE).set_value(lk.SEPARATE).run()
    at.selectbox(key=lk.HELDOUT_SOURCE).set_value(corpus_id("machine_learning_zh")).run()
    table = check_page(at, {*LESSON_SIZES, 1024})
    chars = table[(table["tokenizer"] == "character baseline") & (table["text"] == "held-out")].iloc[0]
    assert chars["OOV rate %"] > 50  # an English-trained character vocab misses most Chinese characters
    assert chars["round-trip %"] < 50
    at.selectbox(key=lk.SCRIPT_TEXT).set_value("held-out").run()
    scripts = script_data(at)
    assert "Han" in set(scripts["script"])
    han = scripts[scripts["script"] == "Han"].sort_values("vocab_size")
    assert han["tokens"].is_monotonic_decreasing or (han["tokens"].diff().dropna() <= 0).all()
    at.selectbox(key=lk.SCRIPT_TEXT).set_value("train").run()
    train_scripts = set(script_data(at)["script"])
    assert "Latin" in train_scripts and len(train_scripts) >= 2  # English story + mixed scripts


def test_own_sizes_and_pasted_text_split_by_fraction() -> None:
    at = open_lab()
    at.multiselect(key=lk.CORPORA).set_value([]).run()
    at.text_area(key=lk.PASTED).input(
        "the quick brown fox jumps over the lazy dog. " * 40
        + "pack my box with five dozen liquor jugs. " * 40
    ).run()
    at.radio(key=lk.SPLIT_BY).set_value(lk.FRACTION).run()
    at.selectbox(key=lk.PATTERN).set_value("none").run()
    at.text_input(key=lk.SIZES).input("300, 2k").run()
    at.number_input(key=lk.VOCAB).set_value(700).run()
    check_page(at, {*LESSON_SIZES, 300, 2048, 700})


def test_errors_are_messages_not_tracebacks() -> None:
    at = open_lab()
    at.text_input(key=lk.SIZES).input("1000, lots").run()
    assert not at.exception
    assert any("not a vocab size" in e.value for e in at.error)
    at.text_input(key=lk.SIZES).input("12").run()
    assert any("out of range" in e.value for e in at.error)
    at.text_input(key=lk.SIZES).input("").run()
    at.multiselect(key=lk.CORPORA).set_value(
        [corpus_id("mixed_scripts")]
    ).run()  # one document: nothing to split off
    assert not at.exception
    assert any("at least 2" in e.value for e in at.error)
    at.multiselect(key=lk.CORPORA).set_value([]).run()
    assert not at.exception and at.info


def test_cached_second_run_and_speed_lesson() -> None:
    at = open_lab()
    at.number_input(key=lk.SPEED_MERGES).set_value(20).run()
    at.number_input(key=lk.SPEED_CHARS).set_value(1000).run()
    assert any("from the cache" in c.value for c in at.caption)
    at.button(key=lk.SPEED_RUN).click().run()
    assert not at.exception and not at.error
    labels = [m.label for m in at.metric]
    assert "Textbook trainer" in labels and "Fast trainer" in labels
    assert any("same merges" in m.value for m in at.markdown)
    assert any("GPT-2-sized run" in m.value for m in at.markdown)


@pytest.mark.parametrize("pattern", ["gpt4", "whitespace"])
def test_other_patterns_and_special_tokens(pattern: str) -> None:
    at = open_lab()
    at.selectbox(key=lk.PATTERN).set_value(pattern).run()
    at.text_area(key=lk.SPECIAL_TOKENS).input("<|endoftext|>").run()
    check_page(at, {*LESSON_SIZES, 1024})


def test_tokenizer_from_files_is_a_point_and_rows(tmp_path: Path) -> None:
    import bpe_core

    theirs = bpe_core.train(
        "a small reference tokenizer trained on other text " * 30, vocab_size=300, pattern="gpt2"
    )
    bpe_core.save_tokenizer(theirs, tmp_path)
    at = open_lab()
    at.file_uploader(key=lk.REF_UPLOAD).set_value(
        [("tokenizer.json", (tmp_path / "tokenizer.json").read_bytes(), "application/json")]
    ).run()
    table = check_page(at, {*LESSON_SIZES, 1024})
    ref = table[table["tokenizer"] == "tokenizer.json"]
    assert set(ref["text"]) == {"train", "held-out"}
    assert (ref["vocab size"] == theirs.vocab_size).all() and (ref["round-trip %"] == 100.0).all()
    points = [f for f in chart_frames(at) if "tokenizer" in f.columns]
    assert len(points) == 1 and set(points[0]["vocab_size"]) == {theirs.vocab_size}
    at.file_uploader(key=lk.REF_UPLOAD).set_value(
        [("tokenizer.json", b"{not json", "application/json")]
    ).run()
    assert not at.exception and any(md_escape("tokenizer.json") in e.value for e in at.error)


# --- the link, the per-script chart, coinciding lines ------------------------------------------


def open_lab_link(**params: str) -> AppTest:
    clear_caches()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def chart_specs(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("vega_lite_chart")]


def test_a_link_sets_corpus_pattern_vocab_and_heldout_split() -> None:
    zh, story = corpus_id("machine_learning_zh"), corpus_id("lighthouse_story")
    at = open_lab_link(corpus=f"{story},{zh}", pattern="whitespace", vocab="2000", heldout="end:30")
    assert at.multiselect(key=lk.CORPORA).value == [story, zh]
    assert at.selectbox(key=lk.PATTERN).value == "whitespace"
    assert at.number_input(key=lk.VOCAB).value == 2000
    assert at.radio(key=lk.SPLIT_BY).value == lk.FRACTION and at.slider(key=lk.HELDOUT_SHARE).value == 30
    assert not at.warning
    check_page(at, {*LESSON_SIZES, 1024, 2000})
    # and the page writes its settings back (defaults stay out)
    assert at.query_params["corpus"] == f"{story},{zh}" and at.query_params["vocab"] == "2000"
    assert at.query_params["heldout"] == "end:30" and at.query_params["pattern"] == "whitespace"
    at.selectbox(key=lk.PATTERN).set_value("gpt2").run()
    assert "pattern" not in at.query_params


def test_a_link_to_a_separate_heldout_text_and_bad_values() -> None:
    zh = corpus_id("machine_learning_zh")
    at = open_lab_link(heldout=f"text:{zh}", vocab="9", pattern="<b>x</b>", corpus="nope")
    assert at.radio(key=lk.HELDOUT_MODE).value == lk.SEPARATE
    assert at.selectbox(key=lk.HELDOUT_SOURCE).value == zh
    notes = " ".join(w.value for w in at.warning)
    assert "ignored vocab" in notes and "ignored pattern" in notes and "ignored corpus" in notes
    assert "<b>" not in notes  # shown escaped, as typed
    assert at.number_input(key=lk.VOCAB).value == 4096


def test_per_script_chart_shows_train_and_heldout_and_is_tall() -> None:
    at = open_lab()
    at.radio(key=lk.HELDOUT_MODE).set_value(lk.SEPARATE).run()
    at.selectbox(key=lk.HELDOUT_SOURCE).set_value(corpus_id("machine_learning_zh")).run()
    scripts = script_data(at)
    assert set(scripts["text"]) == {"train", "held-out"}
    assert "Han" in set(scripts[scripts["text"] == "held-out"]["script"])
    spec = next(
        s for s in chart_specs(at) if any("strokeDash" in x.get("encoding", {}) for x in s.get("layer", []))
    )
    line, points, names = spec["layer"]
    assert line["encoding"]["strokeDash"]["field"] == "text" and spec["height"] >= 420
    # not by colour alone: a marker shape per script, and each line named at its end
    assert points["encoding"]["shape"]["field"] == "script" and names["encoding"]["text"]["field"] == "script"
    at.selectbox(key=lk.SCRIPT_TEXT).set_value("train").run()
    assert set(script_data(at)["text"]) == {"train"}


def test_coinciding_train_and_heldout_lines_both_show_and_are_named() -> None:
    story = corpus_id("lighthouse_story")
    at = open_lab()
    at.multiselect(key=lk.CORPORA).set_value([story]).run()
    at.radio(key=lk.HELDOUT_MODE).set_value(lk.SEPARATE).run()
    at.selectbox(key=lk.HELDOUT_SOURCE).set_value(story).run()  # held-out = the training text
    assert not at.exception
    data = compression_data(at)
    train = data[data["text"] == "train"]["tokens"].tolist()
    assert train == data[data["text"] == "held-out"]["tokens"].tolist()  # the very same curve
    assert any("lies on the training line" in c.value for c in at.caption)
    spec = next(s for s in chart_specs(at) if "layer" in s and any("layer" in x for x in s["layer"]))
    lines = next(x for x in spec["layer"] if "layer" in x)["layer"]
    widths = [x["mark"]["strokeWidth"] for x in lines]
    assert widths[0] > widths[1] and lines[1]["mark"]["strokeDash"]  # wide under, dashed over


def test_a_link_made_after_an_upload_says_it_opens_on_the_built_in_texts() -> None:
    """An uploaded file cannot go in a link: the page says so, and so does the link when opened."""
    at = open_lab()
    at.file_uploader(key=lk.UPLOAD).set_value(("mine.txt", b"my own words, my own words " * 30, "text/plain"))
    at.run()
    assert not at.exception and not at.error
    assert at.query_params["own"] == "upload"
    assert any("not an uploaded file" in c.value for c in at.caption)
    opened = open_lab_link(own=at.query_params["own"])
    said = " ".join(w.value for w in opened.warning)
    assert "made from a run on an uploaded file" in said and "opens on the built-in texts" in said
    check_page(opened, {*LESSON_SIZES, 1024})  # the default texts, as said
    assert "own" not in opened.query_params  # this run has no text of its own
