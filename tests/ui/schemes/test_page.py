"""Compare schemes, headless (streamlit.testing AppTest): every figure checked against the engine."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from bpe_core.analysis.data_split import split_fraction
from bpe_core.analysis.schemes_table import compare_schemes
from bpe_core.byte_level import readable
from bpe_core.tokenizer.scheme import lost
from bpe_core.training.schemes import MODELS, train_scheme
from mergescope_ui.schemes import keys
from mergescope_ui.schemes.compute import CACHE, MAX_CHARS, NAMES, OPTIONS
from mergescope_ui.shared.html.safe_text import displayed
from mergescope_ui.shared.inputs.corpora import find_corpus, load_text

ROOT = Path(__file__).resolve().parents[3]
PAGE = "pages/views/schemes.py"
TEXT = "the cat sat on the mat. the cat ate the rat.\nthe dog sat on the log.\n" * 12
HELD = "the bat sat on the hat! a cat, a rat.\n"


def open_page(**state: object) -> AppTest:
    CACHE.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def pasted(text: str, **state: object) -> AppTest:
    """The page on ``text`` (pasted), with the chart at 300 only unless ``state`` says otherwise."""
    return open_page(**{keys.SOURCE: keys.PASTE, keys.PASTED: text, keys.SIZES: "300", **state})


def _value(cell: str) -> object:
    text = html.unescape(cell)
    if text == "—":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def table(at: AppTest) -> pd.DataFrame:
    """The page's table, read back from its HTML (every cell escaped, numbers as the frame had them)."""
    found = [h.value for h in at.html if 'class="ms-schemes-table"' in h.value]
    assert len(found) == 1
    head = re.findall(r"<th>([^<]*)</th>", found[0])
    rows = re.findall(r"<tr>(.*?)</tr>", found[0].split("</thead>")[1])
    cells = [[_value(c) for c in re.findall(r"<td[^>]*>([^<]*)</td>", row)] for row in rows]
    return pd.DataFrame(cells, columns=[html.unescape(h) for h in head])


def chart_data(at: AppTest) -> pd.DataFrame:
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1
    json.loads(charts[0].proto.spec)
    frames = [convert_arrow_bytes_to_pandas_df(d.data.data) for d in charts[0].proto.datasets]
    return max(frames, key=len)


def cut_rows(at: AppTest) -> dict[str, list[tuple[str, str]]]:
    """Each scheme's row of the cuts: its spans' (classes, label), labels unescaped."""
    page = next(h.value for h in at.html if "ms-scheme-row" in h.value)
    out = {}
    for name, body in re.findall(
        r'<div class="ms-scheme-name">([^<]*)<small>.*?</small></div>(.*?)</div>', page
    ):
        spans = re.findall(r'<span class="(ms-t[^"]*)" title="[^"]*">([^<]*)</span>', body)
        out[html.unescape(name)] = [(c, html.unescape(label)) for c, label in spans]
    return out


def split(text: str, share: float = 0.2) -> tuple[str, str]:
    s = split_fraction(text, heldout_fraction=share)
    return s.train, s.heldout


@pytest.mark.parametrize("corpus", [None, "mixed_scripts"])  # the default text is ASCII: bytes = chars
def test_the_table_is_the_engines_comparison_on_a_built_in_text(corpus):
    at = open_page(**{keys.SIZES: "300", **({keys.SOURCE: corpus} if corpus else {})})
    train, held = split(load_text(find_corpus(corpus or "lighthouse_story")))
    expected = compare_schemes(train, held_out=held, vocab_size=400, options=OPTIONS)
    got = table(at)
    assert list(got["scheme"]) == [NAMES[m] for m in MODELS for _ in (0, 1)]
    assert list(got["text"]) == ["training", "held-out"] * 4
    for i, row in enumerate(expected):
        for j, f in enumerate((row.text, row.held_out)):
            line = got.iloc[2 * i + j]
            assert line["vocab reached"] == row.vocab_size
            assert line["tokens"] == f.tokens
            assert line["bytes/token"] == round(f.bytes_per_token, 3)
            assert line["chars/token"] == round(f.chars_per_token, 3)
            assert line["OOV %"] == round(100 * f.oov_rate, 2)
            assert line["unknown chars"] == f.unknown_chars
            assert line["round-trip %"] == round(100 * f.round_trip_rate, 1)
            assert (line["spacing lost"], line["chars changed"]) == (f.spacing, f.changed)
            assert line["train s"] >= 0
    assert {m for m in MODELS if expected[MODELS.index(m)].held_out.round_trip_rate < 1} >= {"wordpiece"}


def test_each_scheme_cuts_the_sentence_as_the_engine_does_with_unk_and_markers_shown():
    sentence = "the mate sat on a bat!"
    at = pasted(TEXT, **{keys.SENTENCE: sentence, keys.VOCAB: 280})
    train, _ = split(TEXT)
    rows = cut_rows(at)
    assert list(rows) == [NAMES[m] for m in MODELS]
    for model in MODELS:
        tok = train_scheme(train, model=model, vocab_size=280, **OPTIONS.get(model, {}))
        spans = tok.token_spans(sentence)
        labels = [readable(s.token) if model == "bpe" else tok.piece(s.id) for s in spans]
        shown = rows[NAMES[model]]
        assert [label for _, label in shown] == [x.replace(" ", "␣") for x in labels], model
        unk = getattr(tok, "unk_id", None)
        assert ["ms-unk" in c for c, _ in shown] == [s.id == unk for s in spans], model
    assert any(label.startswith("##") for _, label in rows["WordPiece"])
    assert any(label.startswith("▁") for _, label in rows["Unigram"])
    assert ("ms-t ms-unk", "[UNK]") in rows["WordPiece"]  # "bat" and "!" are not in its vocabulary
    assert all("ms-unk" not in c for c, _ in rows["Byte-level BPE"])


def test_what_is_lost_is_shown_as_text_not_only_counted():
    text = TEXT + HELD * 6  # the held-out 30% ends with lines of words and signs the training text lacks
    at = pasted(text, **{keys.SENTENCE: "the bat", keys.VOCAB: 280, keys.HELDOUT_SHARE: 30})
    train, held = split(text, 0.3)
    assert "bat" not in train
    pages = " ".join(h.value for h in at.html)
    for model in ("wordpiece", "char"):
        tok = train_scheme(train, model=model, vocab_size=280)
        loss = lost(tok, "the bat")
        assert not loss.round_trip
        shown = html.escape(loss.decoded).replace(" ", '<span class="ms-ws">␣</span>')
        assert shown in pages, model  # what comes back, under the scheme's cut
    # The "What is lost" tab: the first held-out line that does not come back, with its unknown spans marked.
    wp = train_scheme(train, model="wordpiece", vocab_size=280)
    line = next(x for x in held.split("\n") if x and not lost(wp, x).round_trip)
    loss = lost(wp, line)
    for start, end in loss.unknown:
        assert f'title="lost: became the unknown token">{html.escape(line[start:end])}</span>' in pages
    assert "became the unknown token" in pages


def test_the_chart_has_each_scheme_at_each_size_as_the_engine_measures_it():
    at = pasted(TEXT, **{keys.SIZES: "260, 300", keys.VOCAB: 280})
    train, held = split(TEXT)
    expected = {
        size: compare_schemes(train, held_out=held, vocab_size=size, options=OPTIONS)
        for size in (260, 280, 300)
    }
    for text in ("held-out", "training"):
        at.radio(key=keys.CHART_TEXT).set_value(text).run()
        data = chart_data(at)
        assert set(data["text"]) == {text}
        for size, rows in expected.items():
            for row in rows:
                f = row.held_out if text == "held-out" else row.text
                point = data[(data["scheme"] == NAMES[row.model]) & (data["vocab_size"] == size)].iloc[0]
                assert point["vocab_reached"] == row.vocab_size
                assert point["tokens"] == f.tokens
                assert point["chars_per_token"] == pytest.approx(f.chars_per_token)
                assert point["oov_pct"] == pytest.approx(100 * f.oov_rate)
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["line", "point", "text"]  # markers and names, not colour alone
    assert spec["layer"][1]["encoding"]["shape"]["field"] == "scheme"


def test_bpe_below_its_256_bytes_says_why_and_the_others_still_train():
    at = pasted(TEXT, **{keys.VOCAB: 60, keys.SIZES: "60"})
    got = table(at)
    bpe = got[got["scheme"] == "Byte-level BPE"]
    assert bpe["note"].str.contains("256").all() and bpe["tokens"].isna().all()  # shown as —
    assert (got[got["scheme"] != "Byte-level BPE"]["tokens"] > 0).all()
    page = next(h.value for h in at.html if "ms-scheme-row" in h.value)
    assert "Cannot train at this size" in page


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({keys.SIZES: "300 lots"}, "'lots' is not a vocab size"),
        ({keys.SIZES: "300 9000"}, "out of range"),
        ({keys.SIZES: "300 400 500 600 700 800 900"}, "more than 6 sizes"),
        ({keys.SOURCE: keys.PASTE, keys.PASTED: "word"}, "two words"),
    ],
)
def test_bad_input_gets_a_message_and_no_traceback(state, message):
    at = open_page(**state)
    assert any(message in displayed(e.value) for e in at.error), [e.value for e in at.error]
    assert not [h for h in at.html if "ms-schemes-table" in h.value]


def test_nothing_to_compare_until_there_is_a_text():
    at = open_page(**{keys.SOURCE: keys.PASTE})
    assert any("Paste a text" in i.value for i in at.info)
    at = open_page(**{keys.SOURCE: keys.UPLOAD_CHOICE})
    assert any("Upload a .txt file" in i.value for i in at.info)


def test_a_long_upload_is_cut_to_the_page_limit_with_a_note():
    words = " ".join(f"w{i % 97}x{i % 13}" for i in range(MAX_CHARS // 4))
    assert len(words) > MAX_CHARS
    at = open_page(
        **{
            keys.SOURCE: keys.UPLOAD_CHOICE,
            keys.UPLOAD_RAW: words.encode(),
            keys.UPLOAD_NAME: "big.txt",
            keys.SIZES: "",
            keys.VOCAB: 300,
        }
    )
    assert any(f"first {MAX_CHARS:,}" in i.value for i in at.info)
    _, held = split(words[:MAX_CHARS])
    got = table(at)
    assert got.iloc[7]["tokens"] == len(held)  # characters: one token a character of the held-out text
    assert not at.error


def test_a_second_session_gets_the_comparison_from_the_cache():
    at = pasted(TEXT)
    assert not any("from the cache" in c.value for c in at.caption)
    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    for key, value in {keys.SOURCE: keys.PASTE, keys.PASTED: TEXT, keys.SIZES: "300"}.items():
        again.session_state[key] = value
    again.switch_page(PAGE).run()
    assert any("from the cache" in c.value for c in again.caption)
    assert table(again).equals(table(at))
