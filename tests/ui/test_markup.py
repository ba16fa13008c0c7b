"""No string from a link, a file or a corpus reaches Markdown unescaped (AppTest: the Markdown as sent).

Every text element, alert, widget label, tooltip and radio option renders
Markdown in the browser, so a link, an image or an autolink in what a user or
a file supplied would be live there.  These tests send such strings through
every URL parameter of every page, an upload's name and content, tokenizer
files and the error paths, and the quiz's choices, then read every
Markdown-rendered string the pages sent: none may hold the live form.
(``tests/browser/test_markup.py`` checks the same in chromium's DOM.)
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from mergescope_ui.lab import keys as lab_keys
from mergescope_ui.schemes import keys as schemes_keys
from mergescope_ui.shared import keys as shared_keys
from mergescope_ui.tokenize import keys as tok_keys
from mergescope_ui.train import keys as train_keys
from mergescope_ui.train.quiz import BPE_QUESTION
from tests.ui.train.stage_driver import send, stage_data

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    "pages/views/welcome.py",
    "pages/views/train.py",
    "pages/views/tokenize_page.py",
    "pages/views/vocab-lab.py",
    "pages/views/schemes.py",
]
URL_PARAMS = [
    "corpus", "pattern", "merges", "tie_break", "min_frequency", "quiz", "presenter",
    "t", "tok", "cmp", "page",
]  # fmt: skip
# A link, an image (a tracking beacon) and the three autolinks, as a hostile link would send them.
PAYLOAD = (
    "x\n\n[Click here to sign in again](https://evil.example/login) ![](http://evil.example/p.png) "
    "www.evil.example https://evil.example/a user@evil.example"
)
# In a file name there is no "/": a relative link and a relative image still work in Markdown.
NAME = "[Click here](login) ![](p.png) www.evil.example.txt"
LIVE = ["](http", "](login", "![", "www.evil", "https://evil", "r@evil"]


def markdown_strings(at: AppTest) -> list[str]:
    """Every string the page sent to be rendered as Markdown (bodies, labels, tooltips, radio options)."""
    out: list[str] = []
    for kind in (
        "markdown",
        "caption",
        "title",
        "header",
        "subheader",
        "warning",
        "error",
        "info",
        "success",
    ):
        out += [el.value for el in getattr(at, kind)]
    widgets = ["radio", "selectbox", "multiselect", "text_input", "text_area", "number_input", "checkbox"]
    widgets += ["toggle", "slider", "button", "file_uploader", "download_button"]
    for kind in widgets:
        for el in getattr(at, kind):
            out += [el.label or "", getattr(el, "help", None) or ""]
            if kind == "radio":
                out += [el.proto.options[i] for i in range(len(el.proto.options))]
    out += [t.label for t in at.tabs] + [e.label for e in at.expander]
    out += [m.label for m in at.metric] + [m.value for m in at.metric]
    out += [p.proto.text for p in at.get("progress")] + [t.value for t in at.toast]
    return out


def assert_no_live_markup(at: AppTest) -> None:
    assert not at.exception, at.exception
    live = [s for s in markdown_strings(at) if any(marker in s for marker in LIVE)]
    assert not live, f"unescaped link, image or autolink sent as Markdown: {live}"


def app(**params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


@pytest.mark.parametrize("page", PAGES)
def test_every_url_parameter_on_every_page(page):
    at = app(**{name: PAYLOAD for name in URL_PARAMS})
    assert_no_live_markup(at)
    at.switch_page(page).run()
    assert_no_live_markup(at)


@pytest.mark.parametrize("param", URL_PARAMS)
def test_each_url_parameter_alone(param):
    """One at a time too: a page that stops at its first bad parameter would hide the others."""
    at = app(**{param: PAYLOAD})
    for page in PAGES[1:]:
        at.switch_page(page).run()
        assert_no_live_markup(at)


def test_an_upload_name_and_content_on_the_train_page():
    at = app()
    at.session_state[train_keys.SOURCE] = train_keys.UPLOADED
    at.session_state[train_keys.UPLOAD_RAW] = PAYLOAD.encode() + b" \xff not UTF-8"
    at.session_state[train_keys.UPLOAD_NAME] = NAME
    at.switch_page("pages/views/train.py").run()
    assert at.error, "the bad byte is reported"
    assert_no_live_markup(at)
    at.session_state[train_keys.UPLOAD_RAW] = (PAYLOAD * 3).encode()
    at.run()
    assert_no_live_markup(at)


def test_an_upload_name_and_content_in_the_lab():
    at = app()
    at.session_state[lab_keys.UPLOAD_RAW] = PAYLOAD.encode() + b"\xc3 cut"
    at.session_state[lab_keys.UPLOAD_NAME] = NAME
    at.switch_page("pages/views/vocab-lab.py").run()
    assert at.error
    assert_no_live_markup(at)


def test_an_upload_name_and_content_on_the_schemes_page():
    """The name and the text reach the page's messages, the cuts, the table and what is lost."""
    at = app()
    at.session_state[schemes_keys.SOURCE] = schemes_keys.UPLOAD_CHOICE
    at.session_state[schemes_keys.UPLOAD_RAW] = PAYLOAD.encode() + b"\xc3 cut"
    at.session_state[schemes_keys.UPLOAD_NAME] = NAME
    at.switch_page("pages/views/schemes.py").run()
    assert at.error
    assert_no_live_markup(at)
    at.session_state[schemes_keys.UPLOAD_RAW] = (PAYLOAD * 8).encode()
    at.session_state[schemes_keys.SENTENCE] = PAYLOAD.replace("\n", " ")
    at.session_state[schemes_keys.VOCAB] = 300
    at.session_state[schemes_keys.SIZES] = "300"
    at.run()
    assert not at.error and any("ms-schemes-table" in h.value for h in at.html), [e.value for e in at.error]
    assert_no_live_markup(at)
    pages = " ".join(h.value for h in at.html)
    assert "evil.example" in pages and "<a " not in pages and "<img" not in pages


def saved_files() -> dict[str, bytes]:
    tok = bpe_core.train("the cat sat on the mat " * 10, vocab_size=270)
    with tempfile.TemporaryDirectory() as d:
        return {p.name: p.read_bytes() for p in bpe_core.save_tokenizer(tok, d)}


def bad_tokenizer_files() -> list[list[tuple[str, bytes, str]]]:
    files = saved_files()
    merges = files["merges.txt"] + PAYLOAD.replace("\n", " ").encode() + b"\n"
    vocab = json.loads(files["vocab.json"])
    vocab[PAYLOAD] = 0
    return [
        [("vocab.json", files["vocab.json"], "application/json"), ("merges.txt", merges, "text/plain")],
        [
            ("vocab.json", json.dumps(vocab).encode(), "application/json"),
            ("merges.txt", files["merges.txt"], ""),
        ],
        [(NAME.replace(".txt", ".model"), f"minbpe v1\n{PAYLOAD.splitlines()[-1]}\n1\n".encode(), "")],
        [(NAME.replace(".txt", ".tiktoken"), b"eA== 1\n" + PAYLOAD.encode(), "")],
    ]


@pytest.mark.parametrize(
    "files", bad_tokenizer_files(), ids=["merges-line", "vocab-key", "model", "tiktoken"]
)
def test_bad_tokenizer_files_on_the_tokenize_page_and_in_the_lab(files):
    at = app()
    at.session_state[tok_keys.KIND] = "upload"
    at.switch_page("pages/views/tokenize_page.py").run()
    at.file_uploader(key=tok_keys.FILES).set_value(files).run()
    assert at.error, "the loader's message is shown"
    assert_no_live_markup(at)
    at.session_state[lab_keys.REF_FILES] = [(name, data) for name, data, _ in files]
    at.switch_page("pages/views/vocab-lab.py").run()
    assert_no_live_markup(at)


def test_special_token_and_custom_regex_errors_on_the_train_page():
    at = app()
    at.session_state[train_keys.SPECIAL_TOKENS] = f"{PAYLOAD.splitlines()[-1]}\n{PAYLOAD.splitlines()[-1]}"
    at.switch_page("pages/views/train.py").run()
    assert any("listed twice" in e.value for e in at.error)
    assert_no_live_markup(at)
    at.session_state[train_keys.SPECIAL_TOKENS] = ""
    at.session_state[train_keys.PATTERN] = train_keys.CUSTOM
    at.session_state[train_keys.CUSTOM_REGEX] = PAYLOAD.splitlines()[-1] + "("
    at.run()
    assert any("not a valid regex" in e.value for e in at.error)
    assert_no_live_markup(at)
    at.session_state[train_keys.CUSTOM_REGEX] = r"\w+"
    at.session_state[train_keys.SPECIAL_TOKENS] = "[x](https://evil.example/s)"
    at.run()  # training restarted: the notice names the new special tokens
    assert_no_live_markup(at)


def test_special_tokens_and_pattern_errors_in_the_lab():
    at = app()
    at.session_state[lab_keys.SPECIAL_TOKENS] = f"{PAYLOAD.splitlines()[-1]}\n{PAYLOAD.splitlines()[-1]}"
    at.switch_page("pages/views/vocab-lab.py").run()
    assert at.error
    assert_no_live_markup(at)


def test_quiz_choices_and_replies_built_from_corpus_tokens():
    """Merged far enough, the tokens are whole links; the quiz offers pairs of them and names them."""
    text = "[Click here](https://evil.example/login) www.evil.example ![](http://evil.example/p.png)\n" * 40
    at = app()
    at.session_state[train_keys.SOURCE] = train_keys.PASTE
    at.session_state[train_keys.PASTED_TEXT] = text
    at.session_state[train_keys.PATTERN] = "none"
    at.session_state[train_keys.QUIZ] = True
    at.switch_page("pages/views/train.py").run()
    send(at, jump=60)
    data = stage_data(at)
    options = [c["short"] for q in data["questions"] for c in q["choices"]]
    # The choices do hold the links' markup (cut in the middle), as plain text the stage shows as text.
    assert any("[" in o and ")" in o for o in options), options
    assert_no_live_markup(at)
    run = at.session_state[shared_keys.RUN]
    upcoming = run.records[run.position]
    guess = BPE_QUESTION.choices(upcoming)[0]
    send(at, position=run.position + 1, answers=[{"step": run.position + 1, "guess": guess}])
    # The verdict names the pairs: the stage shows it as text; the server keeps it (plain text too).
    (result,) = at.session_state[train_keys.QUIZ_LOG].values()
    assert result.guess == guess and result.message
    assert_no_live_markup(at)


@pytest.mark.parametrize("value", ["²", "٣", "３"])
def test_a_page_number_in_other_digits_is_ignored_not_raised(value):
    at = app(page=value, tok=f"quick:low_lowest_newest:30{value}:gpt2")
    at.switch_page("pages/views/tokenize_page.py").run()
    assert not at.exception, at.exception
    notes = " ".join(w.value for w in at.warning)
    assert "not a page number" in notes and "is not a whole number" in notes, notes
