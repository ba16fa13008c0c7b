"""The Tokenize page fetching a tokenizer it lacks, headless, from a local server the test starts.

The environment points the page's caches at an empty folder and its fetch hosts at the local server
(:mod:`tests.file_server`), which serves the project's own trained files the way OpenAI and the hub
serve theirs; no test needs the network.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from types import MappingProxyType

import pytest
from streamlit.testing.v1 import AppTest

from bpe_core import save_tokenizer
from bpe_core.formats import fetch
from bpe_core.formats.tiktoken_registry import ENCODINGS
from mergescope_ui.shared.html.safe_text import md_escape
from mergescope_ui.tokenize import keys
from mergescope_ui.tokenize.resolve import local_tokenizers
from tests.file_server import file_server, serve_encoding, serve_hub_tokenizer
from tests.ui.tokenize.fake_caches import no_caches
from tests.ui.tokenize.fake_caches import trained as story_tokenizer
from tests.ui.tokenize.test_page import PAGE

TEXT = "Hello world, the lighthouse keeper said."


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("saved")
    save_tokenizer(story_tokenizer(), out)
    return {p.name: p.read_bytes() for p in out.iterdir()}


@pytest.fixture()
def server(tmp_path, monkeypatch):
    """A local file server, and a page whose caches are empty and whose fetches go to that server."""
    with file_server() as s:
        for k, v in no_caches(tmp_path).items():
            monkeypatch.setenv(k, v)
        monkeypatch.setenv("MERGESCOPE_OPENAI_URL", s.url)
        monkeypatch.setenv("MERGESCOPE_HF_URL", s.url)
        monkeypatch.delenv("MERGESCOPE_FETCH", raising=False)
        local_tokenizers.clear()
        yield s
    local_tokenizers.clear()


def page(**state) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state[keys.TEXT] = TEXT
    at.session_state[keys.KIND] = "local"
    for k, v in state.items():
        at.session_state[k] = v
    return at.run()


def tokens_metric(at: AppTest) -> int | None:
    """The main view's token count, sent with its tokens (None when there is no tokenizer to count with)."""
    drawn = [
        json.loads(el.proto.json)
        for el in at.get("bidi_component")
        if el.proto.component_name == "mergescope_clickable_tokens"
    ]
    if drawn:
        return drawn[0]["tokens"]
    values = [m.value for m in at.metric if m.label == "Tokens"]
    return int(values[0].replace(",", "")) if values and values[0] != "—" else None


def infos(at: AppTest) -> str:
    return " ".join(i.value for i in at.info)


def test_a_hub_model_typed_by_name_is_fetched_once_then_used_offline(server, files):
    serve_hub_tokenizer(server, "org/story", files["tokenizer.json"])
    at = page()
    at.text_input(key=keys.HF_NAME).input("org/story").run()
    assert at.selectbox(key=keys.LOCAL).value == "hf:org/story"
    assert f"**{md_escape('org/story')}** is not on this machine yet" in infos(at)
    assert tokens_metric(at) is None and server.gets() == 0
    at.button(key=keys.FETCH).click().run()
    assert not at.exception and not at.error
    assert tokens_metric(at) == len(story_tokenizer().encode(TEXT))
    assert server.gets() == 1
    server.routes.clear()  # offline from now on: a new session finds it in the hub cache
    again = page(**{keys.LOCAL: "hf:org/story"})
    assert tokens_metric(again) == len(story_tokenizer().encode(TEXT)) and not again.info


def test_an_openai_encoding_is_fetched_with_its_published_hash(server, files, monkeypatch):
    data = files["tokenizer.tiktoken"]
    enc = dataclasses.replace(ENCODINGS["r50k_base"], sha256=(hashlib.sha256(data).hexdigest(),))
    monkeypatch.setattr(fetch, "ENCODINGS", MappingProxyType({**ENCODINGS, "r50k_base": enc}))
    serve_encoding(server, "r50k_base", (data,))
    at = page(**{keys.LOCAL: "tiktoken:r50k_base"})
    at.button(key=keys.FETCH).click().run()
    assert not at.exception and not at.error
    assert tokens_metric(at) == len(story_tokenizer().encode(TEXT))
    assert at.selectbox(key=keys.LOCAL).options[1] == "r50k_base (tiktoken cache)"


def test_a_file_unlike_the_published_one_is_refused_in_one_line_and_the_page_keeps_working(server, files):
    serve_encoding(server, "o200k_base", (files["tokenizer.tiktoken"],))  # not OpenAI's o200k_base
    at = page(**{keys.LOCAL: "tiktoken:o200k_base"})
    at.button(key=keys.FETCH).click().run()
    assert not at.exception
    (error,) = [e.value for e in at.error]
    assert error.startswith(f"Could not fetch **{md_escape('o200k_base')}**: ")
    assert "is not the published file" in error and "\n" not in error
    assert at.button(key=keys.FETCH)  # offered again
    at.selectbox(key=keys.LOCAL).set_value("tiktoken:cl100k_base").run()  # the rest works as before
    at.radio(key=keys.KIND).set_value("bytes").run()
    assert tokens_metric(at) == len(TEXT.encode()) and not at.exception


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ({"MERGESCOPE_FETCH_MAX_MB": "0.01"}, "over the 0 MB this server fetches; download it yourself"),
        ({"MERGESCOPE_OPENAI_URL": "http://127.0.0.1:9"}, "cannot reach 127.0.0.1"),  # nothing listens on 9
    ],
    ids=["too-large", "no-network"],
)
def test_a_failed_fetch_says_what_to_do_in_one_line(server, files, monkeypatch, setting, said):
    serve_encoding(server, "cl100k_base", (files["tokenizer.tiktoken"] * 10,))
    for k, v in setting.items():
        monkeypatch.setenv(k, v)
    at = page(**{keys.LOCAL: "tiktoken:cl100k_base"})
    at.button(key=keys.FETCH).click().run()
    assert not at.exception
    (error,) = [e.value.replace("\\", "") for e in at.error]
    assert said in error and "\n" not in error and error.startswith("Could not fetch **cl100k")


@pytest.mark.parametrize(
    ("name", "served", "said"),
    [
        ("org/none", None, "no tokenizer.json for org/none on the Hugging Face hub: check the name"),
        (
            "org/bert",
            "wordpiece",
            "it is on this machine, but cannot be loaded here: tokenizer.json, key 'model.vocab': must be "
            "a non-empty object",
        ),
    ],
)
def test_a_model_that_is_not_a_byte_level_tokenizer_says_so(server, name, served, said):
    if served:
        wordpiece = {
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "model": {"type": "WordPiece", "vocab": {}},
        }
        serve_hub_tokenizer(server, name, json.dumps(wordpiece).encode(), large=False)
    at = page(**{keys.LOCAL: f"hf:{name}"})
    at.button(key=keys.FETCH).click().run()
    assert not at.exception
    shown = " ".join(e.value for e in at.error).replace("\\", "")
    assert said in shown and "/tmp" not in shown and "pytest" not in shown


def test_with_fetching_off_the_page_offers_the_upload(server, monkeypatch):
    monkeypatch.setenv("MERGESCOPE_FETCH", "off")
    at = page(**{keys.LOCAL: "tiktoken:o200k_base"})
    assert "does not fetch tokenizers (MERGESCOPE" in infos(at)
    assert not [b for b in at.button if b.key == keys.FETCH]
    at.button(key=keys.TO_UPLOAD).click().run()
    assert at.radio(key=keys.KIND).value == "upload" and server.hits == []


def test_a_name_typed_is_checked_and_escaped(server):
    at = page()
    at.text_input(key=keys.HF_NAME).input("[x](https://example.org)").run()
    assert not at.exception
    (error,) = [e.value for e in at.error]
    assert "[x](" not in error and "is not a Hugging Face model name" in error.replace("\\", "")
    assert at.selectbox(key=keys.LOCAL).value == "tiktoken:o200k_base" and server.hits == []
