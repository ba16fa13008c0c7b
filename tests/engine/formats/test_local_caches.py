"""Tokenizers found where tiktoken and the Hugging Face hub keep them, in fake cache folders built from
the project's own trained files (the real caches are never needed).

The registry of tiktoken's encodings is checked against tiktoken's own ``tiktoken_ext.openai_public``
(file URLs, hashes, patterns, special tokens), with its downloads replaced by our ranks.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bpe_core import Tokenizer, save_tokenizer, train
from bpe_core.formats import TokenizerFileError
from bpe_core.formats.local_caches import (
    HF,
    TIKTOKEN,
    find_local_tokenizers,
    hf_hub_dirs,
    hf_json_problem,
    load_local,
)
from bpe_core.formats.tiktoken_registry import ENCODINGS, cache_name, tiktoken_cache_dirs
from bpe_core.pretokenizer import resolve_pattern
from tests.engine.formats.support import CORPUS, SAMPLE

TEXTS = ["Hello world", SAMPLE, CORPUS[:2000], "", "  \n\t x"]


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return train(CORPUS, vocab_size=360, pattern="gpt2")


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory, tok: Tokenizer) -> Path:
    out = tmp_path_factory.mktemp("saved")
    save_tokenizer(tok, out)
    return out


def tiktoken_cache(folder: Path, saved: Path, names: tuple[str, ...]) -> Path:
    """A fake tiktoken cache: our files under the names tiktoken gives the real ones."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        enc = ENCODINGS[name]
        if name == "gpt2":  # vocab.bpe is GPT-2's merges.txt, encoder.json its vocab.json
            (folder / enc.cache_names[0]).write_bytes((saved / "merges.txt").read_bytes())
            (folder / enc.cache_names[1]).write_bytes((saved / "vocab.json").read_bytes())
        else:
            (folder / enc.cache_names[0]).write_bytes((saved / "tokenizer.tiktoken").read_bytes())
    (folder / "0123456789abcdef0123456789abcdef01234567").write_bytes(b"some other cached download")
    return folder


def hub_model(hub: Path, name: str, files: dict[str, bytes], *, commit: str = "c0ffee") -> Path:
    """A fake hub cache entry laid out as huggingface_hub writes it (blobs, refs/main, a snapshot)."""
    model = hub / ("models--" + name.replace("/", "--"))
    snapshot = model / "snapshots" / commit
    snapshot.mkdir(parents=True)
    (model / "blobs").mkdir()
    for file_name, data in files.items():
        blob = model / "blobs" / f"{abs(hash((name, file_name))):x}"
        blob.write_bytes(data)
        (snapshot / file_name).symlink_to(os.path.relpath(blob, snapshot))
    (model / "refs").mkdir()
    (model / "refs" / "main").write_text(commit)
    return snapshot


# ----- the registry is tiktoken's -----
def test_registry_matches_tiktoken(monkeypatch: pytest.MonkeyPatch, saved: Path) -> None:
    openai_public = pytest.importorskip("tiktoken_ext.openai_public", reason="tiktoken is a dev requirement")
    from tiktoken.load import load_tiktoken_bpe

    asked: dict[str, tuple[str, ...]] = {}
    ranks = load_tiktoken_bpe(str(saved / "tokenizer.tiktoken"))

    def fake_tiktoken_bpe(url: str, expected_hash: str) -> dict[bytes, int]:
        asked.setdefault("files", ())
        asked["files"] += (url, expected_hash)
        return ranks

    def fake_data_gym(*, vocab_bpe_file, encoder_json_file, vocab_bpe_hash, encoder_json_hash):
        asked["files"] = (vocab_bpe_file, vocab_bpe_hash, encoder_json_file, encoder_json_hash)
        return ranks

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", fake_tiktoken_bpe)
    monkeypatch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks", fake_data_gym)
    for name, enc in ENCODINGS.items():
        asked.clear()
        theirs = openai_public.ENCODING_CONSTRUCTORS[name]()
        assert resolve_pattern(enc.pattern) == theirs["pat_str"], name
        assert dict(enc.special_tokens) == theirs["special_tokens"], name
        assert asked["files"] == tuple(x for pair in zip(enc.files, enc.sha256) for x in pair), name
        assert enc.vocab_size == theirs.get("explicit_n_vocab", max(theirs["special_tokens"].values()) + 1)
    assert set(ENCODINGS) == {"gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base"}


def test_cache_names_are_the_sha1_of_the_url() -> None:
    assert ENCODINGS["cl100k_base"].cache_names == ("9b5ad71b2ce5302211f9c61530b329a4922fc6a4",)
    assert cache_name(ENCODINGS["gpt2"].files[0]) == "6d1cbeee0f20b3d9449abfede4726ed8212e3aee"


# ----- tiktoken's cache -----
def test_fake_tiktoken_cache_lists_and_loads_every_encoding(tmp_path: Path, saved: Path, tok: Tokenizer):
    cache = tiktoken_cache(tmp_path / "tk", saved, tuple(ENCODINGS))
    local = find_local_tokenizers({"TIKTOKEN_CACHE_DIR": str(cache)}, home=tmp_path)
    assert [f.key for f in local.found] == [f"{TIKTOKEN}:{name}" for name in ENCODINGS]
    assert not local.unusable and cache in local.searched
    for found in local.found:
        enc = ENCODINGS[found.name]
        loaded = load_local(found)
        assert loaded.tokenizer.pattern == enc.pattern
        for s, i in {**enc.special_tokens, **enc.chat_tokens}.items():
            assert loaded.tokenizer.special_tokens[s] == i
        specials = loaded.tokenizer.special_tokens
        same = Tokenizer(tok.vocab, tok.merges, special_tokens=specials, pattern=enc.pattern)
        for text in TEXTS:
            assert loaded.tokenizer.encode(text) == same.encode(text), (found.name, text[:40])
        if found.name != "gpt2":  # our files are not OpenAI's: the page says so
            assert any("is not the file OpenAI publishes" in n for n in loaded.notes)


def test_loaded_encoding_gives_tiktokens_ids(tmp_path: Path, saved: Path) -> None:
    tiktoken = pytest.importorskip("tiktoken", reason="tiktoken is a dev requirement")
    from tiktoken.load import load_tiktoken_bpe

    cache = tiktoken_cache(tmp_path / "tk", saved, ("cl100k_base", "o200k_base"))
    local = find_local_tokenizers({"TIKTOKEN_CACHE_DIR": str(cache)}, home=tmp_path)
    for found in local.found:
        enc = ENCODINGS[found.name]
        ours = load_local(found).tokenizer
        theirs = tiktoken.Encoding(
            name=f"fake-{enc.name}",
            pat_str=resolve_pattern(enc.pattern),
            mergeable_ranks=load_tiktoken_bpe(str(found.files[0])),
            special_tokens={**enc.special_tokens, **enc.chat_tokens},
        )
        for text in [*TEXTS, "<|im_start|>user<|im_sep|>hi<|im_end|>", "<|endoftext|> tail"]:
            assert ours.encode(text) == theirs.encode(text, allowed_special="all"), text[:40]


def test_tiktoken_cache_dir_first_then_the_default(tmp_path: Path, saved: Path) -> None:
    mine = tiktoken_cache(tmp_path / "mine", saved, ("cl100k_base",))
    default = tiktoken_cache(tmp_path / "default", saved, ("cl100k_base", "r50k_base"))
    env = {"TIKTOKEN_CACHE_DIR": str(mine), "DATA_GYM_CACHE_DIR": str(default)}
    assert tiktoken_cache_dirs(env) == [mine, default]
    local = find_local_tokenizers(env, home=tmp_path)
    assert [(f.name, f.folder) for f in local.found] == [("cl100k_base", mine), ("r50k_base", default)]


def test_half_of_gpt2s_files_is_named_with_the_reason(tmp_path: Path, saved: Path) -> None:
    cache = tiktoken_cache(tmp_path / "tk", saved, ("gpt2",))
    (cache / ENCODINGS["gpt2"].cache_names[1]).unlink()  # encoder.json gone
    local = find_local_tokenizers({"TIKTOKEN_CACHE_DIR": str(cache)}, home=tmp_path)
    assert not local.found
    assert [(u.name, u.source) for u in local.unusable] == [("gpt2", TIKTOKEN)]
    assert "encoder.json is missing" in local.unusable[0].reason


# ----- the hub cache -----
WORDPIECE = {
    "version": "1.0",
    "added_tokens": [{"id": 0, "content": "[UNK]", "special": True}],
    "normalizer": {"type": "BertNormalizer", "lowercase": True},
    "pre_tokenizer": {"type": "BertPreTokenizer"},
    "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "a": 1}},
}
SENTENCEPIECE_BPE = {
    "version": "1.0",
    "normalizer": None,
    "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first"},
    "decoder": {"type": "Metaspace", "replacement": "▁"},
    "model": {"type": "BPE", "byte_fallback": True, "vocab": {"▁a": 0, "<0x00>": 1}, "merges": []},
}


WORDPIECE_PLAIN = {**WORDPIECE, "normalizer": None}  # no normalizer: MergeScope's WordPiece reads it
UNIGRAM = {
    "version": "1.0",
    "normalizer": None,
    "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
    "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
    "model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["▁a", -1.0]]},
}


def test_fake_hub_cache_lists_byte_level_bpe_and_names_the_rest(tmp_path: Path, saved: Path, tok: Tokenizer):
    hub = tmp_path / "hub"
    hub_model(hub, "mergescope/story", {"tokenizer.json": (saved / "tokenizer.json").read_bytes()})
    hub_model(hub, "mergescope/pair", {n: (saved / n).read_bytes() for n in ("vocab.json", "merges.txt")})
    hub_model(hub, "google/bert-like", {"tokenizer.json": json.dumps(WORDPIECE, indent=2).encode()})
    hub_model(hub, "meta/sp-bpe", {"tokenizer.json": json.dumps(SENTENCEPIECE_BPE, indent=2).encode()})
    hub_model(hub, "t5/sp", {"tokenizer.model": b"\x0a\x0b", "config.json": b"{}"})
    hub_model(hub, "someone/weights-only", {"config.json": b"{}"})
    broken = hub_model(hub, "half/download", {})
    (broken / "tokenizer.json").symlink_to("../../blobs/never-finished")
    local = find_local_tokenizers({"HF_HUB_CACHE": str(hub)}, home=tmp_path)
    assert [f.key for f in local.found] == [f"{HF}:mergescope/pair", f"{HF}:mergescope/story"]
    assert {f.source for f in local.found} == {HF}
    reasons = {u.name: u.reason for u in local.unusable}
    assert reasons["google/bert-like"].startswith(
        "a WordPiece model (BERT-style) with a BertNormalizer normalizer, which MergeScope's WordPiece does"
    )
    assert "SentencePiece-style BPE" in reasons["meta/sp-bpe"]
    assert "SentencePiece model" in reasons["t5/sp"]
    assert "incomplete" in reasons["half/download"]
    assert "someone/weights-only" not in reasons
    for found in local.found:
        loaded = load_local(found).tokenizer
        for text in TEXTS:
            assert loaded.encode(text) == tok.encode(text)


def test_hub_dirs_follow_the_environment(tmp_path: Path) -> None:
    env = {"HF_HUB_CACHE": "/a/hub", "HF_HOME": "/b", "XDG_CACHE_HOME": "/c"}
    assert [str(p) for p in hf_hub_dirs(env, home=tmp_path)] == [
        "/a/hub",
        "/b/hub",
        "/c/huggingface/hub",
        str(tmp_path / ".cache" / "huggingface" / "hub"),
    ]


def test_the_check_reads_the_top_of_the_file_not_the_vocab(tmp_path: Path, saved: Path) -> None:
    text = (saved / "tokenizer.json").read_text(encoding="utf-8")
    cut = tmp_path / "tokenizer.json"
    cut.write_text(text[: text.index('"vocab"') + 40], encoding="utf-8")  # the vocab is cut short
    assert hf_json_problem(cut) is None  # listed as byte-level BPE from its top alone...
    hub = tmp_path / "hub"
    hub_model(hub, "cut/file", {"tokenizer.json": cut.read_bytes()})
    (found,) = find_local_tokenizers({"HF_HUB_CACHE": str(hub)}, home=tmp_path).found
    with pytest.raises(TokenizerFileError, match=r"tokenizer\.json"):  # ...and loading says what is wrong
        load_local(found)


def test_wordpiece_and_unigram_tokenizer_json_are_found_with_their_scheme(tmp_path: Path) -> None:
    hub = tmp_path / "hub"
    hub_model(hub, "org/wordpiece", {"tokenizer.json": json.dumps(WORDPIECE_PLAIN, indent=2).encode()})
    hub_model(hub, "org/unigram", {"tokenizer.json": json.dumps(UNIGRAM, indent=2).encode()})
    hub_model(hub, "google/bert-like", {"tokenizer.json": json.dumps(WORDPIECE, indent=2).encode()})
    local = find_local_tokenizers({"HF_HUB_CACHE": str(hub)}, home=tmp_path)
    assert [(f.key, f.scheme) for f in local.found] == [
        (f"{HF}:org/unigram", "unigram"),
        (f"{HF}:org/wordpiece", "wordpiece"),
    ]
    assert local.found[0].label == "org/unigram (Hugging Face cache, Unigram)"
    assert [u.name for u in local.unusable] == ["google/bert-like"]
    unigram, wordpiece = (load_local(f) for f in local.found)
    assert [wordpiece.tokenizer.piece(i) for i in wordpiece.tokenizer.encode("a a")] == ["a", "a"]
    assert [unigram.tokenizer.piece(i) for i in unigram.tokenizer.encode("a")] == ["▁a"]
    assert unigram.notes[0].startswith("org/unigram: Unigram, 2 pieces, from the Hugging Face cache")
