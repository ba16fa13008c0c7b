"""The Tokenize page, headless (streamlit AppTest): every picker path, uploads, compare, chat, links,
escaping.

Expected numbers come from the engine called directly, never from the page.  The text box and the
token spans are components v2 elements: a test sets the text the box would report
(``session_state[keys.TEXT]``) and reads the spans from the data sent to the browser; typing and
clicking in a real browser are in ``tests/browser/test_tokenize.py``.
"""

from __future__ import annotations

import json
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core import CharTokenizer, Tokenizer, train
from bpe_core.byte_level import readable as screen_label
from bpe_core.formats.tiktoken_registry import ENCODINGS
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.shared.digest import digest
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.shared.inputs.corpora import find_corpus, load_index, load_text
from mergescope_ui.shared.training_run import RunIdentity, TrainingRun
from mergescope_ui.tokenize import keys
from mergescope_ui.tokenize.chat import default_messages, render_chat
from mergescope_ui.tokenize.main_view import DETAILS_TAB, PickedToken
from tests.ui.tokenize.fake_caches import HF_MODEL, WORDPIECE_MODEL
from tests.ui.tokenize.fake_caches import trained as cached_tokenizer
from tests.ui.train.stage_driver import step_through

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "pages" / "views" / "tokenize_page.py")
EVIL = '<script>alert("x")</script> </span> & "quotes" \'single\' 机器 👋🏽'


def cid(word: str) -> str:
    """The id of the built-in corpus whose id contains ``word`` (ids are the corpora index's business)."""
    return next(c.id for c in load_index() if word in c.id)


def corpus(corpus_id: str) -> str:
    return load_text(find_corpus(corpus_id))


def quick(corpus_id: str, vocab: int, pattern: str = "gpt2") -> Tokenizer:
    return train(corpus(corpus_id), vocab_size=vocab, pattern=pattern)


COMPARE_TAB, CHAT_TAB = "⚖️ Compare", "💬 Chat"


def app(**state) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    for k, v in state.items():
        at.session_state[k] = v
    return at


def type_text(at: AppTest, text: str) -> AppTest:
    """What the text box does when the user types: report the text, and the page reruns."""
    at.session_state[keys.TEXT] = text
    return at.run()


def component_data(at: AppTest, name: str) -> list[dict]:
    """The data sent to the browser by each components v2 element called ``name``."""
    return [json.loads(el.proto.json) for el in at.get("bidi_component") if el.proto.component_name == name]


def tokens_metric(at: AppTest, *, last: bool = False) -> int | None:
    """The main view's token count, sent with its tokens (``last``: the metric of the open tab, e.g. the
    chat's; without tokens, as when the text cannot be encoded: the metric row's)."""
    drawn = component_data(at, "mergescope_clickable_tokens")
    if drawn and not last:
        return drawn[0]["tokens"]
    values = [m.value for m in at.metric if m.label == "Tokens"]
    value = values[-1] if last else values[0]
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


def spans_of(html: str) -> Spans:
    parser = Spans()
    parser.feed(html)
    return parser


class Cells(HTMLParser):
    """The text of every ``<td>`` of one HTML string, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self._in = False

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self._in = True
            self.cells.append("")

    def handle_data(self, data):
        if self._in:
            self.cells[-1] += data

    def handle_endtag(self, tag):
        if tag == "td":
            self._in = False


def token_facts(at: AppTest) -> dict[str, str]:
    """The details panel's (field, value) table, read from the HTML it sends."""
    panel = next(h.value for h in at.html if "ms-big" in h.value)
    parser = Cells()
    parser.feed(panel)
    return dict(zip(parser.cells[::2], parser.cells[1::2]))


def main_html(at: AppTest) -> str:
    """The main token view's HTML, as sent to the clickable-tokens element."""
    (data,) = component_data(at, "mergescope_clickable_tokens")
    return data["html"]


def main_spans(at: AppTest) -> Spans:
    """The spans of the main token view."""
    return spans_of(main_html(at))


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
    assert any(md_escape(str(info.value)) in e.value for e in at.error)
    assert tokens_metric(at) is None
    type_text(at, "the lamp")
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


def test_session_path_without_a_run_explains_and_keeps_working(no_local):
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
    problem = md_escape(str(info.value).split(", ", 1)[1])
    assert any(md_escape("tokenizer.json") in e.value and problem in e.value for e in at.error), [
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
    at = app(
        **{keys.TEXT: text, keys.COMPARE: chosen, keys.COMPARE_EDITED: True, keys.TABS: COMPARE_TAB}
    ).run()
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
    assert at.session_state[keys.TEXT] == text
    (box,) = component_data(at, "mergescope_live_text")
    assert box["text"] == text and box["rev"] == 1  # the box shows the link's text
    assert at.radio(key=keys.KIND).value == "quick"
    assert at.number_input(key=keys.VOCAB).value == 350
    assert at.selectbox(key=keys.PATTERN).value == "none"
    assert at.session_state[keys.COMPARE] == ["bytes:gpt2", f"char:{cid('mixed')}"]
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
    for html in [main_html(at), *(el.value for el in at.html)]:
        assert "<script" not in html.lower() and "javascript:" not in html
    spans = main_spans(at)
    assert not spans.bad
    assert spans.texts == [screen_label(tok.vocab[i]) for i in ids]
    assert "&lt;script&gt;" not in "".join(spans.texts)  # escaped once, not twice
    assert all(t.startswith("id ") for t in spans.titles)
    raw = main_html(at)
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
    at = app(**{keys.TEXT: text, keys.TABS: DETAILS_TAB}).run()
    tok = quick(cid("lighthouse"), 500)
    token_id = at.selectbox(key=keys.DETAIL).value
    assert token_id in tok.encode(text)
    facts = token_facts(at)
    assert facts["id"] == str(token_id)
    step = tok.merge_step_of(token_id)
    assert facts["merge step"] == ("—" if step is None else str(step))
    assert facts["bytes (hex)"] == tok.vocab[token_id].hex(" ").upper()
    tree = next(h.value for h in at.html if "ms-tree" in h.value and "<ul>" in h.value)
    assert tree.count('ms-step">byte') == len(tok.vocab[token_id])  # one leaf per byte


def test_session_path_through_the_real_train_page():
    """Train 5 merges on the Train page, then the Tokenize page follows that run."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page("pages/views/train.py").run()
    step_through(at, 1, 2, 3, 4, 5)  # Next five times in the Train page's stage
    run = at.session_state[shared_keys.RUN]
    assert run.position == 5
    at.switch_page("pages/views/tokenize_page.py").run()
    assert not at.exception
    assert any("after 5 merges" in h.value for h in at.subheader)
    text = at.session_state[keys.TEXT]
    assert tokens_metric(at) == len(run.trainer.tokenizer().with_merges(5).encode(text))


def test_a_clicked_token_opens_its_details():
    """What a click does (the browser reports the position): the details tab shows that token."""
    text = "the lighthouse keeper lit the lamp"
    tok = quick(cid("lighthouse"), 500)
    ids = tok.encode(text)
    at = app(**{keys.TEXT: text}).run()
    position = len(ids) - 2
    signature = f"quick:{cid('lighthouse')}:500:gpt2|{digest(text)}"
    at.session_state[keys.PICKED] = PickedToken(signature, position)  # what pick_token stores
    at.session_state[keys.TABS] = DETAILS_TAB
    at.run()
    assert not at.exception
    assert at.selectbox(key=keys.DETAIL).value == ids[position]
    (spans,) = component_data(at, "mergescope_clickable_tokens")
    assert spans["picked"] == position  # outlined in the text
    facts = token_facts(at)
    assert facts["id"] == str(ids[position])
    assert facts["bytes (hex)"] == tok.vocab[ids[position]].hex(" ").upper()
    # the clicked position is each span's data-i
    assert spans_of(spans["html"]).texts[position] == screen_label(tok.vocab[ids[position]])
    assert f'data-i="{position}"' in spans["html"]


# --- compare's defaults ----------------------------------------------------------------------


def test_compare_starts_with_the_tokenizer_in_use_and_raw_bytes():
    text = "Hello! 你好 world"
    at = app(**{keys.TEXT: text, keys.TABS: COMPARE_TAB}).run()
    assert not at.exception
    current = f"quick:{cid('lighthouse')}:500:gpt2"
    assert at.multiselect(key=keys.COMPARE).value == [current, "bytes:gpt2"]
    table = next(d.value for d in at.dataframe if "tokenizer" in d.value.columns)
    assert table["note"].tolist() == ["", ""]  # both encode '!' and '你'
    assert table["tokens"].tolist() == [len(quick(cid("lighthouse"), 500).encode(text)), len(text.encode())]
    # the list follows the tokenizer in use until the user edits it
    at.radio(key=keys.KIND).set_value("bytes").run()
    assert at.multiselect(key=keys.COMPARE).value == ["bytes:gpt2", "textchars"]
    table = next(d.value for d in at.dataframe if "tokenizer" in d.value.columns)
    assert table["tokens"].tolist() == [len(text.encode()), len(text)]  # the text's own characters
    at.multiselect(key=keys.COMPARE).set_value(["bytes:gpt2", f"char:{cid('mixed')}"]).run()
    at.radio(key=keys.KIND).set_value("quick").run()
    assert at.multiselect(key=keys.COMPARE).value == ["bytes:gpt2", f"char:{cid('mixed')}"]


def test_compare_offers_every_tokenizer_used_this_session(fake_local):
    text = "the keeper"
    at = app(**{keys.TEXT: text}).run()
    at.number_input(key=keys.VOCAB).set_value(300).run()
    at.number_input(key=keys.VOCAB).set_value(500).run()
    at.radio(key=keys.KIND).set_value("local").run()
    at.selectbox(key=keys.LOCAL).set_value("tiktoken:cl100k_base").run()
    files = _saved_files(quick(cid("word_counter"), 400))
    at.radio(key=keys.KIND).set_value("upload").run()
    at.file_uploader(key=keys.FILES).set_value(
        [("tokenizer.json", files["tokenizer.json"], "application/json")]
    )
    at.run()
    at.session_state[keys.TABS] = COMPARE_TAB
    at.run()
    assert not at.exception
    offered = at.multiselect(key=keys.COMPARE).options  # as labels
    story = dict((c.id, c.title) for c in load_index())[cid("lighthouse")]
    for label in (
        f"{story} · vocab 300 · gpt2",  # used before the vocab size changed
        f"{story} · vocab 500 · gpt2",
        "cl100k_base (tiktoken)",
        "uploaded tokenizer.json",  # the upload in use now
    ):
        assert label in offered, (label, offered)


# --- tokenizers on this machine ------------------------------------------------------------------


def test_the_picker_lists_the_fake_caches_and_tokenizes_hello_world(fake_local):
    at = app(**{keys.TEXT: "Hello world", keys.KIND: "local"}).run()
    assert not at.exception
    box = at.selectbox(key=keys.LOCAL)
    assert set(box.options) >= {
        "cl100k_base (tiktoken cache)",
        "o200k_base (tiktoken cache)",
        "r50k_base (tiktoken cache)",
        f"{HF_MODEL} (Hugging Face cache)",
    }
    assert box.value == "tiktoken:o200k_base"  # the newest OpenAI encoding first
    mine = cached_tokenizer()
    for key in ("tiktoken:cl100k_base", "tiktoken:r50k_base", f"hf:{HF_MODEL}"):
        box = at.selectbox(key=keys.LOCAL).set_value(key)
        at.run()
        assert not at.exception
        assert tokens_metric(at) == len(mine.encode("Hello world"))
        titles = main_spans(at).titles
        assert [t.split(" ·")[0] for t in titles] == [f"id {i}" for i in mine.encode("Hello world")]
    # the WordPiece model is named, with the reason it cannot load
    text = " ".join(m.value for m in at.markdown)
    assert WORDPIECE_MODEL.replace("/", "/") in text.replace("\\", "") and "WordPiece" in text


def test_tiktoken_tokenizers_keep_their_pattern_and_special_tokens(fake_local):
    at = app(**{keys.TEXT: "x<|endoftext|>y", keys.KIND: "local", keys.LOCAL: "tiktoken:cl100k_base"}).run()
    assert not at.exception
    assert 100257 in [int(t.split(" ")[1]) for t in main_spans(at).titles]  # one special token
    assert any("pattern gpt4" in c.value for c in at.caption)


def test_without_caches_every_openai_encoding_is_offered_to_fetch(no_local):
    at = app(**{keys.KIND: "local"}).run()
    assert not at.exception
    assert at.selectbox(key=keys.LOCAL).options == [
        *(f"{name} (tiktoken), not on this machine yet" for name in ENCODINGS),
        "openai-community/gpt2 (Hugging Face), not on this machine yet",
    ]
    (info,) = [i.value for i in at.info if "not on this machine" in i.value]
    assert info.startswith(f"**{md_escape('o200k_base')}** is not on this machine yet. Fetch it once from ")
    assert at.button(key=keys.FETCH).label == f"⬇️ Fetch {md_escape('o200k_base')}"
    assert not at.error


def test_a_link_to_a_tokenizer_this_machine_lacks_says_which_and_offers_the_fetch(no_local):
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["tok"] = "tiktoken:cl100k_base"
    at.query_params["t"] = "hello"
    at.run()
    assert not at.exception
    assert (
        at.radio(key=keys.KIND).value == "local"
        and at.selectbox(key=keys.LOCAL).value == "tiktoken:cl100k_base"
    )
    assert any(
        i.value.startswith(f"**{md_escape('cl100k_base')}** is not on this machine yet") for i in at.info
    )
    assert at.button(key=keys.FETCH).label == f"⬇️ Fetch {md_escape('cl100k_base')}"
    at.button(key=keys.TO_UPLOAD).click().run()  # or the upload, in place
    assert at.radio(key=keys.KIND).value == "upload" and not at.exception


# --- the chat view ---------------------------------------------------------------------------------


def test_chat_view_with_cl100k_uses_chatml_tokens(fake_local):
    at = app(**{keys.KIND: "local", keys.LOCAL: "tiktoken:cl100k_base", keys.TABS: CHAT_TAB}).run()
    assert not at.exception
    enc = ENCODINGS["cl100k_base"]
    specials = {**enc.special_tokens, **enc.chat_tokens}
    mine = Tokenizer(
        cached_tokenizer().vocab, cached_tokenizer().merges, special_tokens=specials, pattern="gpt4"
    )
    chat = render_chat(default_messages(), specials)
    want = mine.encode(chat.text)
    assert chat.form == "ChatML" and want.count(enc.chat_tokens["<|im_start|>"]) == 4
    assert tokens_metric(at, last=True) == len(want)
    html = next(h.value for h in at.html if "ms-special" in h.value)
    spans = spans_of(html)
    assert spans.texts.count("<|im_start|>") == 4 and spans.texts.count("<|im_sep|>") == 4
    assert any("ChatML" in m.value for m in at.markdown)
    # a message edited in its box changes the count
    at.session_state[f"{keys.CHAT_TEXT}1"] = "Tell me about tokenizers and byte pair encoding, please."
    at.run()
    edited = [m for m in default_messages()]
    edited[1].content = "Tell me about tokenizers and byte pair encoding, please."
    assert tokens_metric(at, last=True) == len(mine.encode(render_chat(edited, specials).text))


def test_chat_view_with_a_tokenizer_trained_here_uses_its_own_special_tokens():
    text = corpus(cid("lighthouse"))
    settings = bpe_core.TrainOptions(vocab_size=300, pattern="gpt2", special_tokens=("<|endoftext|>",))
    run = TrainingRun(bpe_core.Trainer(text, settings), identity=RunIdentity.of(text, settings))
    run.jump(20)
    at = app(**{shared_keys.RUN: run, keys.TABS: CHAT_TAB}).run()
    assert not at.exception
    chat = render_chat(default_messages(), ["<|endoftext|>"])
    tok = run.trainer.tokenizer().with_merges(20)
    assert tokens_metric(at, last=True) == len(tok.encode(chat.text))
    assert (
        spans_of(next(h.value for h in at.html if "ms-special" in h.value)).texts.count("<|endoftext|>") == 3
    )


# --- files that do not belong together ----------------------------------------------------------


def test_a_vocab_and_merges_of_two_tokenizers_name_both_files():
    english = _saved_files(quick(cid("lighthouse"), 400))
    code = _saved_files(quick(cid("word_counter"), 400))
    at = app(**{keys.KIND: "upload"}).run()
    at.file_uploader(key=keys.FILES).set_value(
        [
            ("gpt2_vocab.json", english["vocab.json"], "application/json"),
            ("reference-merges.txt", code["merges.txt"], "text/plain"),
        ]
    ).run()
    assert not at.exception
    (error,) = [e.value for e in at.error]
    assert "gpt2\\_vocab\\.json \\(" in error and "reference\\-merges\\.txt \\(" in error, error
    assert "come from different tokenizers" in error and "does not have" in error
    assert ": :" not in error and "/tmp" not in error


def test_presenter_mode_folds_the_picker_away_and_shortens_the_box():
    at = app(**{shared_keys.PRESENTER: True}).run()
    assert not at.exception
    assert [e.label for e in at.expander] == ["🔧 Tokenizer and examples"]
    at.button(key=f"{keys.EXAMPLE}Chinese").click().run()  # the examples are in there
    assert at.session_state[keys.TEXT].startswith("机器学习")
    assert at.radio(key=keys.KIND).value == "quick"  # still there, inside the folded box
    (box,) = component_data(at, "mergescope_live_text")
    assert box["height"] < 100
    plain = app().run()
    assert not plain.expander and component_data(plain, "mergescope_live_text")[0]["height"] >= 100
