"""Fetching into tiktoken's cache and the hub cache, against a local server the test starts (no network)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import socket
from pathlib import Path
from types import MappingProxyType

import pytest

from bpe_core import save_tokenizer
from bpe_core.formats import fetch
from bpe_core.formats.fetch import FetchError, fetch_encoding, fetch_hub_tokenizer, hub_model_dir
from bpe_core.formats.local_caches import find_local_tokenizers, load_local
from bpe_core.formats.tiktoken_registry import ENCODINGS
from tests.engine.formats.support import SAMPLE, trained
from tests.file_server import COMMIT, Route, file_server, serve_encoding, serve_hub_tokenizer

WORDPIECE = {
    "version": "1.0",
    "normalizer": None,
    "pre_tokenizer": {"type": "BertPreTokenizer"},
    "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "a": 1}},
}


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, bytes]:
    """The test's tokenizer as a .tiktoken file, a tokenizer.json and GPT-2's two files."""
    out = tmp_path_factory.mktemp("saved")
    save_tokenizer(trained(), out)
    return {p.name: p.read_bytes() for p in out.iterdir()}


@pytest.fixture()
def server():
    with file_server() as s:
        yield s


def published(monkeypatch, name: str, *files: bytes) -> None:
    """Make ``files`` the published ones of encoding ``name`` (their sha256 in the registry)."""
    enc = dataclasses.replace(ENCODINGS[name], sha256=tuple(hashlib.sha256(f).hexdigest() for f in files))
    monkeypatch.setattr(fetch, "ENCODINGS", MappingProxyType({**ENCODINGS, name: enc}))


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".fetch-*"))


# ----- tiktoken's encodings ------------------------------------------------------------------------------
def test_an_encoding_lands_in_tiktokens_cache_once_and_loads(tmp_path, server, files, monkeypatch):
    data = files["tokenizer.tiktoken"]
    published(monkeypatch, "cl100k_base", data)
    serve_encoding(server, "cl100k_base", (data,))
    seen = []
    got = fetch_encoding("cl100k_base", cache=tmp_path, base_url=server.url, progress=seen.append)
    assert got.files == (tmp_path / ENCODINGS["cl100k_base"].cache_names[0],) and got.downloaded == 1
    assert got.files[0].read_bytes() == data
    assert [p.done for p in seen] == sorted(p.done for p in seen) and seen[-1].done == seen[-1].total == len(
        data
    )
    assert seen[-1].fraction == 1.0
    local = find_local_tokenizers({"TIKTOKEN_CACHE_DIR": str(tmp_path)}, home=tmp_path)
    assert [f.key for f in local.found] == ["tiktoken:cl100k_base"]
    assert load_local(local.found[0]).tokenizer.merges == trained().merges
    again = fetch_encoding("cl100k_base", cache=tmp_path, base_url=server.url)  # offline from now on
    assert again.downloaded == 0 and server.gets() == 1


def test_gpt2_fetches_both_of_its_files(tmp_path, server, files, monkeypatch):
    pair = (files["merges.txt"], files["vocab.json"])  # vocab.bpe, then encoder.json
    published(monkeypatch, "gpt2", *pair)
    serve_encoding(server, "gpt2", pair)
    got = fetch_encoding("gpt2", cache=tmp_path, base_url=server.url)
    assert [p.read_bytes() for p in got.files] == list(pair) and got.downloaded == 2
    local = find_local_tokenizers({"TIKTOKEN_CACHE_DIR": str(tmp_path)}, home=tmp_path)
    assert load_local(local.get("tiktoken:gpt2")).tokenizer.merges == trained().merges


def test_a_file_that_is_not_the_published_one_is_not_kept(tmp_path, server, files):
    serve_encoding(server, "o200k_base", (files["tokenizer.tiktoken"],))  # not OpenAI's o200k_base
    with pytest.raises(FetchError, match=r"o200k_base.tiktoken from 127.0.0.1 is not the published file"):
        fetch_encoding("o200k_base", cache=tmp_path, base_url=server.url)
    assert list(tmp_path.iterdir()) == []


def test_a_changed_file_in_the_cache_is_fetched_again(tmp_path, server, files, monkeypatch):
    data = files["tokenizer.tiktoken"]
    published(monkeypatch, "r50k_base", data)
    serve_encoding(server, "r50k_base", (data,))
    dest = tmp_path / ENCODINGS["r50k_base"].cache_names[0]
    dest.write_bytes(b"half a file")
    assert fetch_encoding("r50k_base", cache=tmp_path, base_url=server.url).downloaded == 1
    assert dest.read_bytes() == data


@pytest.mark.parametrize(
    ("route", "message"),
    [
        (Route(b"x" * 2000), r"is 0.0 MB or more, over the 0 MB this server fetches; download it yourself"),
        (Route(b"x" * 2000, length=None), r"over the 0 MB this server fetches"),  # no size announced
        (Route(b"x" * 500, length=900), r"stopped after 500 of 900 bytes; try again"),
        (Route(b"", status=500), r"answered HTTP 500 for p50k_base.tiktoken; try again later"),
        (Route(b"", status=404), r"has no p50k_base.tiktoken \(HTTP 404\)"),
    ],
)
def test_each_failure_is_one_line_that_says_what_to_do(tmp_path, server, route, message):
    server.routes["/encodings/p50k_base.tiktoken"] = route
    with pytest.raises(FetchError, match=message) as caught:
        fetch_encoding("p50k_base", cache=tmp_path, base_url=server.url, max_bytes=1000)
    assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == [] and leftovers(tmp_path) == []


def test_no_network_says_so(tmp_path):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(FetchError, match=r"cannot reach 127.0.0.1 .*no internet access: load the files"):
        fetch_encoding("cl100k_base", cache=tmp_path, base_url=f"http://127.0.0.1:{port}")
    with pytest.raises(FetchError, match=r"cannot reach .*no internet access"):
        fetch_hub_tokenizer("org/name", hub=tmp_path, base_url=f"http://127.0.0.1:{port}")


def test_only_http_urls_and_known_names(tmp_path):
    with pytest.raises(FetchError, match="is not an http"):
        fetch_encoding("cl100k_base", cache=tmp_path, base_url="file:///etc")
    with pytest.raises(FetchError, match="is not one of tiktoken's encodings"):
        fetch_encoding("cl200k_base", cache=tmp_path)
    with pytest.raises(FetchError, match="is not a Hugging Face model name"):
        fetch_hub_tokenizer("../../etc", hub=tmp_path)


# ----- the Hugging Face hub ------------------------------------------------------------------------------
@pytest.mark.parametrize("large", [True, False], ids=["lfs-sha256", "git-sha1"])
def test_a_hub_tokenizer_lands_where_the_hub_keeps_it(tmp_path, server, files, large):
    data = files["tokenizer.json"]
    etag = serve_hub_tokenizer(server, "org/story", data, large=large)
    got = fetch_hub_tokenizer("org/story", hub=tmp_path, base_url=server.url)
    model = hub_model_dir(tmp_path, "org/story")
    assert got.files == (model / "snapshots" / COMMIT / "tokenizer.json",) and got.downloaded == 1
    assert got.files[0].is_symlink() and got.files[0].resolve() == model / "blobs" / etag
    assert (model / "refs" / "main").read_text() == COMMIT and got.files[0].read_bytes() == data
    local = find_local_tokenizers({"HF_HUB_CACHE": str(tmp_path)}, home=tmp_path)
    assert load_local(local.get("hf:org/story")).tokenizer.encode(SAMPLE) == trained().encode(SAMPLE)
    assert fetch_hub_tokenizer("org/story", hub=tmp_path, base_url=server.url).downloaded == 0
    assert server.gets() == 1


def test_huggingface_hub_finds_the_fetched_file(tmp_path, server, files):
    hub = pytest.importorskip("huggingface_hub")
    serve_hub_tokenizer(server, "org/story", files["tokenizer.json"])
    got = fetch_hub_tokenizer("org/story", hub=tmp_path, base_url=server.url)
    found = hub.try_to_load_from_cache("org/story", "tokenizer.json", cache_dir=tmp_path)
    assert found is not None and Path(found) == got.files[0]


def test_a_hub_file_unlike_its_published_hash_is_not_kept(tmp_path, server, files):
    serve_hub_tokenizer(server, "org/story", files["tokenizer.json"], published=b"{}")
    with pytest.raises(FetchError, match=r"tokenizer.json from 127.0.0.1 is not the published file"):
        fetch_hub_tokenizer("org/story", hub=tmp_path, base_url=server.url)
    assert not (hub_model_dir(tmp_path, "org/story") / "refs").exists()
    assert leftovers(tmp_path) == [] and not any((hub_model_dir(tmp_path, "org/story") / "blobs").iterdir())


def test_hub_failures_say_what_to_do(tmp_path, server):
    with pytest.raises(FetchError, match=r"no tokenizer.json for org/none on the Hugging Face hub: check"):
        fetch_hub_tokenizer("org/none", hub=tmp_path, base_url=server.url)
    server.routes["/org/gated/resolve/main/tokenizer.json"] = Route(status=401)
    with pytest.raises(FetchError, match=r"refused tokenizer.json for org/gated \(HTTP 401: gated"):
        fetch_hub_tokenizer("org/gated", hub=tmp_path, base_url=server.url)
    server.routes["/org/odd/resolve/main/tokenizer.json"] = Route(b"{}")  # no commit, no hash
    with pytest.raises(FetchError, match=r"did not say which version of tokenizer.json for org/odd"):
        fetch_hub_tokenizer("org/odd", hub=tmp_path, base_url=server.url)
    big = json.dumps({"model": {"vocab": {str(i): i for i in range(200)}}}).encode()
    serve_hub_tokenizer(server, "org/big", big)
    with pytest.raises(FetchError, match=r"over the 0 MB this server fetches"):
        fetch_hub_tokenizer("org/big", hub=tmp_path, base_url=server.url, max_bytes=1000)
    assert server.gets() == 0


def test_a_renamed_model_is_followed_within_the_hub(tmp_path, server, files):
    serve_hub_tokenizer(server, "org/story", files["tokenizer.json"])
    server.routes["/story/resolve/main/tokenizer.json"] = Route(
        status=307, headers={"Location": "/org/story/resolve/main/tokenizer.json"}
    )
    assert fetch_hub_tokenizer("story", hub=tmp_path, base_url=server.url).downloaded == 1


def test_a_model_that_is_not_byte_level_bpe_is_kept_and_listed_with_its_scheme(tmp_path, server):
    serve_hub_tokenizer(server, "org/bert", json.dumps(WORDPIECE).encode(), large=False)
    fetch_hub_tokenizer("org/bert", hub=tmp_path, base_url=server.url)
    local = find_local_tokenizers({"HF_HUB_CACHE": str(tmp_path)}, home=tmp_path)
    assert [(f.name, f.scheme) for f in local.found] == [("org/bert", "wordpiece")] and not local.unusable
