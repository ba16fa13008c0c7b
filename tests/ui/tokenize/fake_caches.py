"""Fake tiktoken and Hugging Face caches made of the project's own trained files (for the page's tests).

The files carry the names tiktoken and the hub give the real ones, so the page finds them exactly
where it looks on a user's machine; their content is a tokenizer trained here on a built-in corpus.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

from bpe_core import Tokenizer, save_tokenizer, train
from bpe_core.formats.tiktoken_registry import ENCODINGS
from mergescope_ui.shared.inputs.corpora import load_index, load_text

HF_MODEL = "mergescope/lighthouse"
WORDPIECE_MODEL = "example/wordpiece"
WORDPIECE = {
    "version": "1.0",
    "normalizer": {"type": "BertNormalizer", "lowercase": True},
    "pre_tokenizer": {"type": "BertPreTokenizer"},
    "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "a": 1}},
}


@cache
def trained() -> Tokenizer:
    """The tokenizer in every fake cache: 600 tokens learned from the built-in English story."""
    story = next(c for c in load_index() if "lighthouse" in c.id)
    return train(load_text(story), vocab_size=600, pattern="gpt2")


def build_fake_caches(root: Path) -> dict[str, str]:
    """Build both caches under ``root``; returns the environment that points the page at them only."""
    saved = root / "saved"
    save_tokenizer(trained(), saved)
    tiktoken = root / "tiktoken-cache"
    tiktoken.mkdir()
    for name in ("cl100k_base", "o200k_base", "r50k_base"):
        (tiktoken / ENCODINGS[name].cache_names[0]).write_bytes((saved / "tokenizer.tiktoken").read_bytes())
    hub = root / "hub"
    _hub_model(hub, HF_MODEL, "tokenizer.json", (saved / "tokenizer.json").read_bytes())
    _hub_model(hub, WORDPIECE_MODEL, "tokenizer.json", json.dumps(WORDPIECE, indent=2).encode())
    empty = root / "nothing-here"
    empty.mkdir()
    return {
        "TIKTOKEN_CACHE_DIR": str(tiktoken),
        "DATA_GYM_CACHE_DIR": str(empty),
        "HF_HUB_CACHE": str(hub),
        "HF_HOME": str(empty),
        "XDG_CACHE_HOME": str(empty),
        "HOME": str(empty),
    }


def no_caches(root: Path) -> dict[str, str]:
    """An environment in which the page finds no tokenizer at all."""
    empty = root / "nothing-here"
    empty.mkdir(exist_ok=True)
    return {
        "TIKTOKEN_CACHE_DIR": str(empty),
        "DATA_GYM_CACHE_DIR": str(empty),
        "HF_HUB_CACHE": str(empty),
        "HF_HOME": str(empty),
        "XDG_CACHE_HOME": str(empty),
        "HOME": str(empty),
    }


def _hub_model(hub: Path, name: str, file_name: str, data: bytes) -> None:
    model = hub / ("models--" + name.replace("/", "--"))
    snapshot = model / "snapshots" / "0123abcd"
    snapshot.mkdir(parents=True)
    (model / "blobs").mkdir()
    (model / "blobs" / "blob1").write_bytes(data)
    (snapshot / file_name).symlink_to(os.path.relpath(model / "blobs" / "blob1", snapshot))
    (model / "refs").mkdir()
    (model / "refs" / "main").write_text("0123abcd")
