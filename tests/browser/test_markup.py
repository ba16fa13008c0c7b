"""No link or image from outside in the app's own words, in a real browser (chromium's DOM).

A Markdown link and a Markdown image (and bare addresses that autolink) go
through every URL parameter on every page, an upload's file name and content,
tokenizer files and their error messages, special-token and custom-regex
errors, and the quiz's choices built from corpus tokens.  Streamlit renders
Markdown in all of those places; if anything reached it unescaped, the DOM
would hold an ``<a>`` to ``evil.example`` or an ``<img>`` fetching from it.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

import bpe_core
from tests.browser.support import (
    chromium_page,
    open_app,
    streamlit_server,
    wait_idle,
)

PARAMS = ["corpus", "pattern", "merges", "tie_break", "min_frequency", "quiz", "presenter", "t", "tok", "cmp"]
PARAMS += ["page"]
LINK = "[Click here to sign in again](https://evil.example/login)"
IMAGE = "![](http://evil.example/p.png)"
PAYLOAD = f"x\n\n{LINK} {IMAGE} www.evil.example https://evil.example/a"
TRAIN = "Train: watch BPE learn"
# A file name cannot hold "/": relative links and images still work in Markdown.
NAME = "[Click here](login) ![](p.png) www.evil.example"
# Anything a payload could have become in the DOM.
FOREIGN = (
    "a[href*='evil'], a[href$='login'], img[src*='evil'], img[src*='p.png'], "
    "[data-testid='stMain'] img, [data-testid='stSidebar'] img"
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with streamlit_server() as url:
        yield url


@pytest.fixture()
def page():
    with chromium_page(width=1400, height=1000) as page:
        fetched: list[str] = []

        def outside(request) -> None:
            url = urllib.parse.urlsplit(request.url)
            if "evil" in (url.hostname or "") or url.path.endswith("p.png"):
                fetched.append(request.url)

        page.on("request", outside)
        yield page
        assert not fetched, f"the page fetched from outside: {fetched}"


def no_foreign_markup(page) -> None:
    found = page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].map(e => e.outerHTML.slice(0, 200))", FOREIGN
    )
    assert not found, f"links or images from a payload: {found}"


def link(path: str, **params: str) -> str:
    return path + ("?" + urllib.parse.urlencode(params) if params else "")


@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("/", "MergeScope"),
        ("/train", "Train: watch BPE learn"),
        ("/tokenize", "Tokenize"),
        ("/vocab-lab", "Vocab-size lab"),
        ("/playground", None),  # no such page: Streamlit shows the default one
    ],
)
def test_every_url_parameter_on_every_page(server, page, path, heading):
    page.goto(server + link(path, **{name: PAYLOAD for name in PARAMS}))
    if heading is not None:
        page.get_by_role("heading", name=heading).first.wait_for(timeout=60_000)
    page.wait_for_timeout(500)
    wait_idle(page, timeout=60_000)
    no_foreign_markup(page)
    if path == "/train":  # the link's text is shown, as text
        assert "[Click here to sign in again](https:" in page.locator('[data-testid="stMain"]').inner_text()


def upload(page, *paths: Path, where: str = "stSidebar") -> None:
    page.locator(f'[data-testid="{where}"] input[type="file"]').first.set_input_files([str(p) for p in paths])


def test_an_upload_name_and_content_on_the_train_page(server, page, tmp_path):
    bad = tmp_path / f"{NAME}.txt"
    bad.write_bytes(PAYLOAD.encode() + b" \xff not UTF-8")
    open_app(page, f"{server}/train?corpus=__upload__", heading=TRAIN)
    upload(page, bad)
    page.get_by_text("is not valid UTF-8", exact=False).first.wait_for(timeout=30_000)
    wait_idle(page)
    no_foreign_markup(page)
    good = tmp_path / f"{NAME} 2.txt"
    good.write_text(PAYLOAD * 5, encoding="utf-8")
    upload(page, good)
    page.get_by_text("Step 0: the text as raw bytes").wait_for(timeout=30_000)
    wait_idle(page)
    no_foreign_markup(page)
    assert "www.evil.example 2.txt" in page.locator('[data-testid="stMain"]').inner_text().replace(
        "\u2060", ""
    )


def tokenizer_files(tmp_path: Path) -> Path:
    tok = bpe_core.train("the cat sat on the mat " * 10, vocab_size=270)
    bpe_core.save_tokenizer(tok, tmp_path)
    return tmp_path


def test_tokenizer_files_and_their_errors_on_the_tokenize_page_and_in_the_lab(server, page, tmp_path):
    saved = tokenizer_files(tmp_path / "tok")
    merges = saved / "merges.txt"
    merges.write_text(
        merges.read_text(encoding="utf-8") + PAYLOAD.replace("\n", " ") + "\n", encoding="utf-8"
    )
    open_app(page, f"{server}/tokenize?tok=upload", heading="Tokenize")
    upload(page, saved / "vocab.json", merges, where="stMain")
    page.get_by_text("Could not load", exact=False).first.wait_for(timeout=30_000)
    wait_idle(page)
    no_foreign_markup(page)
    model = tmp_path / f"{NAME}.model"
    model.write_text(f"minbpe v1\n{LINK} {IMAGE}(\n0\n", encoding="utf-8")
    open_app(page, f"{server}/tokenize?tok=upload", heading="Tokenize")  # a new session: no files yet
    upload(page, model, where="stMain")
    page.get_by_text("not a valid regex", exact=False).first.wait_for(timeout=30_000)
    wait_idle(page)
    no_foreign_markup(page)

    open_app(page, f"{server}/vocab-lab", heading="Vocab-size lab")
    vocab = json.loads((saved / "vocab.json").read_text(encoding="utf-8"))
    vocab[PAYLOAD] = 0
    named_vocab, named_merges = tmp_path / f"{NAME} vocab.json", tmp_path / f"{NAME} merges.txt"
    named_vocab.write_text(json.dumps(vocab), encoding="utf-8")
    named_merges.write_bytes((saved / "merges.txt").read_bytes())
    page.locator('[data-testid="stSidebar"] input[type="file"]').last.set_input_files(
        [str(named_vocab), str(named_merges)]
    )
    page.get_by_text("Cannot use the tokenizer files", exact=False).first.wait_for(timeout=60_000)
    wait_idle(page, timeout=60_000)
    no_foreign_markup(page)


def test_special_token_and_custom_regex_errors(server, page):
    open_app(page, f"{server}/train?corpus=aaabdaaabac&pattern=custom", heading=TRAIN)
    regex_box = page.get_by_label("Custom regex", exact=False)
    regex_box.fill(f"{LINK} {IMAGE}(")
    regex_box.press("Enter")
    page.get_by_text("is not a valid regex", exact=False).first.wait_for(timeout=30_000)
    wait_idle(page)
    no_foreign_markup(page)
    regex_box.fill(r"\w+|\s+|[^\w\s]+")
    regex_box.press("Enter")
    wait_idle(page)
    specials = page.get_by_role("textbox", name="Special tokens (one a line)")
    specials.fill(f"{LINK}\n{LINK}")
    specials.press("Control+Enter")
    page.get_by_text("is listed twice", exact=False).first.wait_for(timeout=30_000)
    wait_idle(page)
    no_foreign_markup(page)


def test_quiz_choices_and_replies_built_from_corpus_tokens(server, page):
    open_app(
        page, f"{server}/train?corpus=__paste__&pattern=none&quiz=true", heading="Train: watch BPE learn"
    )
    box = page.locator('[data-testid="stSidebar"] textarea').first
    box.fill(f"{LINK} www.evil.example {IMAGE}\n" * 40)
    box.press("Control+Enter")
    page.get_by_text("Step 0: the text as raw bytes").wait_for(timeout=30_000)
    wait_idle(page)
    jump = page.locator(".ms-stage .ms-jump-in")
    jump.fill("56")  # the next pair is '! + [](http://evil.example/p.png)', a link when unescaped
    jump.press("Enter")
    page.get_by_text("Your guess for merge 57", exact=False).wait_for(timeout=60_000)
    wait_idle(page)
    choices = page.locator(".ms-stage .ms-guess").inner_text()
    assert set(choices) & set("[]()!"), choices  # tokens of the links' markup, shown as text
    no_foreign_markup(page)
    page.locator(".ms-stage .ms-guess .ms-choice").first.click()
    page.get_by_role("button", name="Next ▶").click()
    page.get_by_text("Quiz score", exact=False).wait_for(timeout=30_000)
    wait_idle(page)
    no_foreign_markup(page)
