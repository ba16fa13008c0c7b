"""The Tokenize page, headless (streamlit AppTest): every picker path, uploads, compare, links, escaping.

Expected numbers come from the engine called directly, never from the page.
"""

from __future__ import annotations

import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core import CharTokenizer, Tokenizer, train
from bpe_core.byte_level import readable as screen_label
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.corpora import find_corpus, load_index, load_text
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.tokenize import keys

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "pages" / "tokenize.py")
EVIL = '<script>alert("x")</script> </span> & "quotes" \'single\' 机器 👋🏽'


def cid(word: str) -> str:
    """The id of the built-in corpus whose id contains ``word`` (ids are the corpora index's business)."""
    return next(c.id for c in load_index() if word in c.id)


def corpus(corpus_id: str) -> str:
    return load_text(find_corpus(corpus_id))


def quick(corpus_id: str, vocab: int, pattern: str = "gpt2") -> Tokenizer:
    return train(corpus(corpus_id), vocab_size=vocab, pattern=pattern)


def app(**state) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    for k, v in state.items():
        at.session_state[k] = v
    return at


def metric(at: AppTest, name: str) -> str:
    return next(m.value for m in at.metric if m.label == name)


def tokens_metric(at: AppTest) -> int | None:
    value = metric(at, "Tokens")
    return None if value == "—" else int(value.replace(",", ""))


class Spans(HTMLParser):
    """Texts and titles of the ``ms-t`` spans of one HTML string, and any tag that should never appear."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.titles: list[str] = []
        self.bad: list[str] = []
        self._in = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in {"script", "iframe", "img"} or any(k.startswith("on") for k in a):
            self.bad.append(tag)
        if tag == "span" and "ms-t" in (a.get("class") or "").split():
            self._in = True
            self.texts.append("")
            self.titles.append(a.get("title") or "")

    def handle_data(self, data):
        if self._in:
            self.texts[-1] += data

    def handle_endtag(self, tag):
        if tag == "span":
            self._in = False


def main_spans(at: AppTest) -> Spans:
    """The first HTML element with token spans: the main token view."""
    for el in at.html:
        if 'class="ms-tokens"' in el.value and "ms-t " in el.value:
            parser = Spans()
            parser.feed(el.value)
            return parser
    raise AssertionError("no token spans on the page")


# --- each picker path ---------------------------------------------------------------------


def test_quick_train_default_matches_the_engine():
    at = app(**{keys.TEXT: "The keeper lit the lamp at dusk."}).run()
    assert not at.exception
    tok = quick(cid("lighthouse"), 500)
    want = tok.encode("The keeper lit the lamp at dusk.")
    assert tokens_metric(at) == len(want)
    spans = main_spans(at)
    assert len(spans.texts) == len(want)
    assert spans.titles[0].startswith(f"id {want[0]} ·")


def test_quick_train_settings_change_the_tokenizer():
    text = "机器学习是人工智能的一个分支。"
    at = app(
        **{
            keys.TEXT: text,
            keys.KIND: "quick",
            keys.CORPUS: cid("machine"),
            keys.VOCAB: 700,
            keys.PATTERN: "none",
        }
    ).run()
    assert not at.exception
    assert tokens_metric(at) == len(quick(cid("machine"), 700, "none").encode(text))
    at.number_input(key=keys.VOCAB).set_value(300).run()
    assert tokens_metric(at) == len(quick(cid("machine"), 300, "none").encode(text))


def test_char_baseline_shows_unknown_character_as_a_result():
    text = "lamp 机"
    at = app(**{keys.TEXT: text, keys.KIND: "char", keys.CORPUS: cid("lighthouse")}).run()
    assert not at.exception
    with pytest.raises(ValueError) as info:
        CharTokenizer(corpus(cid("lighthouse"))).encode(text)
    assert any(str(info.value) in e.value for e in at.error)
    assert tokens_metric(at) is None
    at.text_area(key=keys.TEXT).set_value("the lamp").run()
    assert not at.exception and tokens_metric(at) == len("the lamp")


def test_raw_bytes_has_one_token_per_byte():
    text = "naïve 👋🏽"
    at = app(**{keys.TEXT: text, keys.KIND: "bytes"}).run()
    assert not at.exception and tokens_metric(at) == len(text.encode())


def test_session_run_current_step_and_any_step_k():
    text = corpus(cid("lighthouse"))
    settings = bpe_core.TrainOptions(vocab_size=316, pattern="gpt2")
    run = TrainingRun(
        bpe_core.Trainer(text, settings),
        identity=RunIdentity.of(text, settings),
    )
    run.jump(12)
    sample = "the lighthouse keeper and the sea"
    at = app(**{shared_keys.RUN: run, keys.TEXT: sample}).run()
    assert not at.exception
    full = run.trainer.tokenizer()
    assert at.radio(key=keys.KIND).value == "session"
    assert tokens_metric(at) == len(full.with_merges(12).encode(sample))
    assert any("after 12 merges" in h.value for h in at.subheader)
    at.toggle(key=keys.FOLLOW).set_value(False).run()
    at.slider(key=keys.STEP).set_value(3).run()
    assert not at.exception
    assert tokens_metric(at) == len(full.with_merges(3).encode(sample))
    assert tokens_metric(at) != len(full.with_merges(12).encode(sample))  # the step matters for this text


def test_session_path_without_a_run_explains_and_keeps_working():
    at = app(**{keys.KIND: "session"}).run()
    assert not at.exception
    assert any("Train page" in i.value for i in at.info)


def _saved_files(tok: Tokenizer) -> dict[str, bytes]:
    with tempfile.TemporaryDirectory() as d:
        return {p.name: p.read_bytes() for p in bpe_core.save_tokenizer(tok, d)}


def test_upload_good_files_then_a_malformed_one_then_keep_working():
    tok = quick(cid("word_counter"), 400)
    files = _saved_files(tok)
    text = "def count(self, words):\n    return len(words)\n"
    at = app(**{keys.TEXT: text, keys.KIND: "upload"}).run()
    assert not at.exception
    at.file_uploader(key=keys.FILES).set_value(
        [
            ("vocab.json", files["vocab.json"], "application/json"),
            ("merges.txt", files["merges.txt"], "text/plain"),
        ]
    ).run()
    assert not at.exception and at.success
    assert tokens_metric(at) == len(tok.encode(text))
    # a malformed file: the loader's message is shown, no traceback
    at.file_uploader(key=keys.FILES).set_value(
        ("tokenizer.json", b'{"model": {"type": "BPE", "vocab": ', "application/json")
    ).run()
    assert not at.exception
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "tokenizer.json").write_bytes(b'{"model": {"type": "BPE", "vocab": ')
        with pytest.raises(ValueError) as info:
            bpe_core.load_tokenizer(Path(d) / "tokenizer.json")
    problem = str(info.value).split(", ", 1)[1]
    assert any("tokenizer.json" in e.value and problem in e.value for e in at.error), [
        e.value for e in at.error
    ]
    assert not any("/tmp" in e.value for e in at.error)
    # the page keeps working: another tokenizer still tokenizes
    at.radio(key=keys.KIND).set_value("bytes").run()
    assert not at.exception and tokens_metric(at) == len(text.encode())


# --- compare --------------------------------------------------------------------------------


def test_compare_table_has_one_row_per_tokenizer_with_engine_counts():
    text = "The keeper 机器学习"
    chosen = [
        f"quick:{cid('lighthouse')}:300:gpt2",
        f"quick:{cid('machine')}:600:gpt2",
        "bytes:gpt2",
        f"char:{cid('lighthouse')}",
    ]
    at = app(**{keys.TEXT: text, keys.COMPARE: chosen}).run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "tokenizer" in d.value.columns)
    assert len(table) == len(chosen)
    want = [
        len(quick(cid("lighthouse"), 300).encode(text)),
        len(quick(cid("machine"), 600).encode(text)),
        len(text.encode()),
        None,
    ]
    got = [
        None if v is None or str(v) == "<NA>" else int(v)
        for v in table["tokens"].astype(object).where(table["tokens"].notna(), None)
    ]
    assert got == want
    assert table["bytes"].tolist() == [len(text.encode())] * 4
    assert "机" in table["note"].iloc[3]
    chart = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    assert chart, "the compare bar chart is missing"


# --- the link ---------------------------------------------------------------------------------


def test_query_params_restore_the_view():
    text = "Hello <b>world</b> 机器"
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["t"] = text
    at.query_params["tok"] = f"quick:{cid('machine')}:350:none"
    at.query_params["cmp"] = f"bytes:gpt2,char:{cid('mixed')}"
    at.run()
    assert not at.exception
    assert at.text_area(key=keys.TEXT).value == text
    assert at.radio(key=keys.KIND).value == "quick"
    assert at.number_input(key=keys.VOCAB).value == 350
    assert at.selectbox(key=keys.PATTERN).value == "none"
    assert at.multiselect(key=keys.COMPARE).value == ["bytes:gpt2", f"char:{cid('mixed')}"]
    assert tokens_metric(at) == len(quick(cid("machine"), 350, "none").encode(text))
    # and the page writes its state back into the URL
    assert at.query_params["tok"] == f"quick:{cid('machine')}:350:none"
    assert at.query_params["t"] == text


def test_bad_query_params_are_reported_not_raised():
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["tok"] = "quick:nope:12:gpt2"
    at.query_params["page"] = "x"
    at.run()
    assert not at.exception
    assert any("From the link" in w.value for w in at.warning)


# --- escaping, paging, details ------------------------------------------------------------------


def test_html_is_escaped_and_spans_show_every_token():
    at = app(**{keys.TEXT: EVIL, keys.KIND: "bytes"}).run()
    assert not at.exception
    tok = Tokenizer({b: bytes([b]) for b in range(256)}, [])
    ids = tok.encode(EVIL)
    for el in at.html:
        assert "<script" not in el.value.lower() and "javascript:" not in el.value
    spans = main_spans(at)
    assert not spans.bad
    assert spans.texts == [screen_label(tok.vocab[i]) for i in ids]
    assert "&lt;script&gt;" not in "".join(spans.texts)  # escaped once, not twice
    assert all(t.startswith("id ") for t in spans.titles)
    raw = next(el.value for el in at.html if 'class="ms-tokens"' in el.value)
    assert "&lt;" in raw and "&amp;" in raw and "&quot;" in raw and "&#x27;" in raw


def test_html_escaped_with_a_trained_tokenizer_too():
    at = app(**{keys.TEXT: EVIL}).run()
    tok = quick(cid("lighthouse"), 500)
    spans = main_spans(at)
    assert not spans.bad
    assert spans.texts == [screen_label(tok.vocab[i]) for i in tok.encode(EVIL)]


def test_large_input_pages_tokens_and_counts_cover_everything():
    text = "abcdefghij" * 620  # 6,200 bytes: 6,200 raw-byte tokens
    at = app(**{keys.TEXT: text, keys.KIND: "bytes"}).run()
    assert not at.exception
    assert tokens_metric(at) == 6200
    assert any("showing tokens 1–5,000 of 6,200" in i.value for i in at.info)
    assert len(main_spans(at).texts) == 5000
    at.number_input(key=keys.PAGE).set_value(2).run()
    assert not at.exception
    assert len(main_spans(at).texts) == 1200 and tokens_metric(at) == 6200


def test_token_details_agree_with_the_engine():
    text = "the lighthouse keeper"
    at = app(**{keys.TEXT: text}).run()
    tok = quick(cid("lighthouse"), 500)
    token_id = at.selectbox(key=keys.DETAIL).value
    assert token_id in tok.encode(text)
    facts = next(d.value for d in at.dataframe if "field" in d.value.columns).set_index("field")["value"]
    assert facts["id"] == str(token_id)
    step = tok.merge_step_of(token_id)
    assert facts["merge step"] == ("—" if step is None else str(step))
    assert facts["bytes (hex)"] == tok.vocab[token_id].hex(" ").upper()
    tree = next(h.value for h in at.html if "ms-tree" in h.value and "<ul>" in h.value)
    assert tree.count('ms-step">byte') == len(tok.vocab[token_id])  # one leaf per byte


def test_session_path_through_the_real_train_page():
    """Train 5 merges on the Train page, then the Tokenize page follows that run."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page("pages/train.py").run()
    for _ in range(5):
        at.button(key="next").click().run()
    run = at.session_state[shared_keys.RUN]
    assert run.position == 5
    at.switch_page("pages/tokenize.py").run()
    assert not at.exception
    assert any("after 5 merges" in h.value for h in at.subheader)
    text = at.text_area(key=keys.TEXT).value
    assert tokens_metric(at) == len(run.trainer.tokenizer().with_merges(5).encode(text))
